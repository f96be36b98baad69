#include "core/ingest/import_files.h"

#include "core/ingest/trace_merge.h"

#include "core/trace/reader.h"
#include "core/util/utf8.h"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <fstream>

namespace cs::ingest {

std::string readHead(const std::string& path, size_t max) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) throw ImportError(util::printablePath(path) + ": no such file");
    if (std::filesystem::is_directory(path, ec)) throw ImportError(util::printablePath(path) + ": is a directory");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw ImportError(util::printablePath(path) + ": cannot open for reading");
    std::string head(max, '\0');
    in.read(head.data(), static_cast<std::streamsize>(max));
    head.resize(static_cast<size_t>(in.gcount()));
    return head;
}

namespace {
// A failed import leaves nothing under the name asked for (issue 40): the writer's destructor commits
// what it had, and that half trace (unsealed, so refused on reading) would sit where the user expects
// a trace. Armed once the writer exists, so an output it refused (another writer's, or an existing
// file without --force) is never touched.
struct RemoveUnlessDone {
    std::string path;
    bool armed = false;
    ~RemoveUnlessDone() {
        if (!armed) return;
        std::error_code ec;
        for (const char* suffix : {"", "-journal", "-wal", "-shm"}) std::filesystem::remove(path + suffix, ec);
    }
};

std::string firstLineForMessage(const std::string& head) {
    std::string line = head.substr(0, head.find('\n'));
    if (line.size() > 60) line = std::string(util::utf8Prefix(line, 60)) + "...";
    for (char& c : line)
        if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) == 0x7f) c = '?';
    return line;
}
}  // namespace

std::vector<ImportedFile> importFiles(const ImportRequest& request, const ImporterRegistry& registry) {
    if (request.inputs.empty()) throw ImportError("no input files");
    std::vector<const Importer*> chosen;
    for (const auto& path : request.inputs) {
        std::string head = readHead(path);
        if (looksLikeTrace(head)) {
            trace::TraceReader::open(path);  // refuse unreadable traces before writing anything
            chosen.push_back(nullptr);
            continue;
        }
        if (!request.forcedFormat.empty()) {
            const Importer* imp = registry.byId(request.forcedFormat);
            if (!imp)
                throw ImportError("unknown format \"" + request.forcedFormat + "\"; known formats: " + registry.idList());
            chosen.push_back(imp);
            continue;
        }
        if (head.empty()) throw ImportError(util::printablePath(path) + ": empty file, nothing to import");
        const Importer* imp = registry.sniff(head, std::filesystem::path(path).filename().string());
        if (!imp)
            throw ImportError(util::printablePath(path) + ": unknown format (first line: \"" + firstLineForMessage(head) +
                              "\"); known formats: " + registry.idList() + " (use --format to force one)");
        chosen.push_back(imp);
    }

    RemoveUnlessDone cleanup{request.output};  // destroyed after the writer
    trace::TraceWriter writer(request.output,
                              {.overwrite = request.overwrite, .creator = "compilescope import", .bulkImport = true});
    cleanup.armed = true;
    std::vector<ImportedFile> results;
    std::optional<std::int64_t> joined;  // the one session of --join-sessions
    std::int64_t joinedEnd = 0;
    std::optional<std::int64_t> joinedStart;  // the earliest start a file named for the joined session
    for (size_t i = 0; i < request.inputs.size(); ++i) {
        const auto& path = request.inputs[i];
        const Importer* imp = chosen[i];
        if (!imp) {  // another CompileScope trace: copy its sessions as they are
            auto source = trace::TraceReader::open(path);
            results.push_back({path, "cstrace", mergeTrace(*source, writer)});
            continue;
        }
        std::int64_t session = 0;
        if (joined) {
            session = *joined;
        } else {
            session = writer.addSession({.runtime = writer.intern("import:" + std::string(imp->id())),
                                         .source = writer.intern(request.joinSessions ? "joined: " + path : path),
                                         .clock = writer.intern("relative"),
                                         .startNs = 0});
            if (request.joinSessions) joined = session;
        }
        std::ifstream in(path, std::ios::binary);
        if (!in) throw ImportError(util::printablePath(path) + ": cannot open for reading");
        ImportContext ctx{writer, session, std::filesystem::path(path).filename().string()};
        ctx.forced = !request.forcedFormat.empty();
        ctx.baseNs = joined ? joinedEnd : 0;
        ImportSummary summary = imp->run(in, ctx);
        summary.malformed += ctx.linesTooLong;  // counted in stats by ImportLines, not by the importer
        if (!summary.clock.empty()) {
            std::int64_t start = summary.startNs;
            if (joined) {  // a joined session starts with the earliest of its files
                joinedStart = joinedStart ? std::min(*joinedStart, start) : start;
                start = *joinedStart;
            }
            writer.setSessionClock(session, writer.intern(summary.clock), start);
        }
        if (joined) {
            joinedEnd = std::max(joinedEnd, summary.lastNs);
        } else {
            writer.endSession(session, summary.lastNs, std::nullopt);
        }
        results.push_back({path, std::string(imp->id()), summary});
    }
    if (joined) writer.endSession(*joined, joinedEnd, std::nullopt);
    writer.finalize();
    cleanup.armed = false;
    return results;
}

}  // namespace cs::ingest
