#include "core/ingest/ninja_log_importer.h"

#include "core/ingest/import_lines.h"
#include "core/formats/ninja_log_lines.h"
#include "core/util/saturating.h"

#include <algorithm>
#include <string>
#include <vector>

namespace cs::ingest {

namespace {
// One command of the last build: its outputs in log order.
struct Command {
    std::int64_t startMs = 0, endMs = 0, mtime = 0;
    std::string hash;
    std::vector<std::string> outputs;
};

// Object files are compiles, libraries and programs links; code generators and the rest are "other".
int categoryOf(std::string_view output) {
    for (std::string_view ext : {".o", ".obj", ".pcm", ".gch", ".pch"})
        if (output.ends_with(ext)) return CS_CAT_COMPILE;
    for (std::string_view ext : {".a", ".so", ".lib", ".dll", ".dylib", ".exe"})
        if (output.ends_with(ext)) return CS_CAT_LINK;
    size_t slash = output.find_last_of('/');
    std::string_view base = slash == std::string_view::npos ? output : output.substr(slash + 1);
    if (base.find('.') == std::string_view::npos) return CS_CAT_LINK;  // an executable
    return CS_CAT_OTHER;
}

constexpr std::int64_t kEpochNsFloor = 1'000'000'000'000'000'000;  // 2001-09-09 in ns: an ns mtime

// Reads the log line by line (a flat switch over what each line is) and keeps the commands of the
// last build in it.
class NinjaLogReader {
public:
    NinjaLogReader(ImportContext& ctx, std::string_view importerId, ImportSummary& summary)
        : m_ctx(ctx), m_id(importerId), m_summary(summary) {}

    void line(const std::string& line) {
        ++m_lineNo;
        switch (roleOf(line)) {
        case Role::Skip: return;
        case Role::AppendedLog:  // a second log appended: a new build
            newBuild();
            m_lastEnd = -1;
            return;
        case Role::Entry: return onEntry(line);
        }
    }

    // The commands of the last build; the earlier builds' are counted in a stat.
    std::vector<Command> finish() {
        if (m_earlier > 0)
            m_ctx.writer.addStat(m_ctx.sessionId, "earlier_build_line", m_id, m_earlier,
                                 m_ctx.sourceName + ": commands of earlier builds in the log; only the last build is imported");
        return std::move(m_build);
    }

private:
    enum class Role { Skip, AppendedLog, Entry };

    Role roleOf(const std::string& line) const {
        if (m_lineNo == 1 && ninjaLogVersion(line)) return Role::Skip;
        if (line.empty() || line == "\r") return Role::Skip;
        if (line.starts_with('#')) return ninjaLogVersion(line) ? Role::AppendedLog : Role::Skip;
        return Role::Entry;
    }

    void newBuild() {
        m_earlier += static_cast<std::int64_t>(m_build.size());
        m_build.clear();
    }

    void onEntry(const std::string& line) {
        NinjaLogEntry e;
        if (std::string why = parseNinjaLogLine(line, e); !why.empty()) {
            m_ctx.malformed("line " + std::to_string(m_lineNo), why, m_id);
            ++m_summary.malformed;
            return;
        }
        if (e.endMs < m_lastEnd) newBuild();  // ended before the previous line: the first line of a new build
        m_lastEnd = e.endMs;
        if (!m_build.empty() && m_build.back().hash == e.commandHash && m_build.back().startMs == e.startMs &&
            m_build.back().endMs == e.endMs) {
            m_build.back().outputs.emplace_back(e.output);
            return;
        }
        m_build.push_back({e.startMs, e.endMs, e.mtime, std::string(e.commandHash), {std::string(e.output)}});
    }

    ImportContext& m_ctx;
    std::string_view m_id;
    ImportSummary& m_summary;
    std::vector<Command> m_build;  // the commands of the build being read (the last one, in the end)
    std::int64_t m_earlier = 0, m_lastEnd = -1, m_lineNo = 0;
};

// Placement on the epoch clock, from the commands whose output mtime is in nanoseconds; 0 if none.
std::int64_t epochOrigin(const std::vector<Command>& build) {
    std::int64_t originNs = 0;
    for (const Command& c : build)
        if (c.mtime >= kEpochNsFloor) originNs = std::max(originNs, c.mtime - c.endMs * 1'000'000);
    return originNs;
}

// Greedy lanes by start: a command takes the first lane free at its start.
void writeCommands(ImportContext& ctx, const std::vector<Command>& build, std::int64_t originNs, ImportSummary& summary) {
    auto& w = ctx.writer;
    std::vector<size_t> order(build.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return build[a].startMs < build[b].startMs; });
    std::int64_t process = w.addTrack({.sessionId = ctx.sessionId, .kind = CS_TRACK_PROCESS, .name = w.intern("ninja")});
    std::vector<std::pair<std::int64_t, std::int64_t>> lanes;  // (track id, end ms of its last command)
    const trace::StringId outputKey = w.intern("output"), hashKey = w.intern("command_hash");
    bool any = false;
    for (size_t i : order) {
        const Command& c = build[i];
        size_t lane = 0;
        while (lane < lanes.size() && lanes[lane].second > c.startMs) ++lane;
        if (lane == lanes.size())
            lanes.emplace_back(w.addTrack({.sessionId = ctx.sessionId,
                                           .kind = CS_TRACK_THREAD,
                                           .tid = static_cast<std::int64_t>(lane + 1),
                                           .name = w.intern("slot " + std::to_string(lane + 1)),
                                           .parentTrackId = process}),
                               0);
        lanes[lane].second = c.endMs;
        // ms below 9e12 (the grammar's limit) fit as ns; a hostile mtime must not overflow the sum.
        const std::int64_t start = util::satAdd(originNs, c.startMs * 1'000'000), dur = (c.endMs - c.startMs) * 1'000'000;
        std::int64_t span = w.addSpan({.trackId = lanes[lane].first,
                                       .startNs = start,
                                       .durNs = dur,
                                       .category = categoryOf(c.outputs.front()),
                                       .name = w.intern(c.outputs.front())});
        for (size_t o = 1; o < c.outputs.size(); ++o) w.addSpanArg(span, outputKey, std::string_view(c.outputs[o]));
        if (!c.hash.empty()) w.addSpanArg(span, hashKey, std::string_view(c.hash));
        ++summary.records;
        summary.firstNs = any ? std::min(summary.firstNs, start) : start;
        summary.lastNs = any ? std::max(summary.lastNs, util::satAdd(start, dur)) : util::satAdd(start, dur);
        any = true;
    }
}
}  // namespace

int NinjaLogImporter::sniff(std::string_view head, std::string_view fileName) const {
    if (ninjaLogVersion(head.substr(0, head.find('\n')))) return 95;
    return fileName == ".ninja_log" ? 30 : 0;
}

ImportSummary NinjaLogImporter::run(std::istream& in, ImportContext& ctx) const {
    ImportSummary summary;
    NinjaLogReader reader(ctx, id(), summary);
    std::string line;
    ImportLines lines(in, ctx, id());
    while (lines.next(line)) reader.line(line);
    if (in.bad()) throw std::runtime_error(ctx.sourceName + ": read error");
    const std::vector<Command> build = reader.finish();
    const std::int64_t originNs = epochOrigin(build);
    if (originNs > 0) {
        summary.clock = "CLOCK_REALTIME";
        summary.startNs = originNs;
    }
    writeCommands(ctx, build, originNs, summary);
    return summary;
}

}  // namespace cs::ingest
