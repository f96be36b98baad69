#include "core/ingest/julia/julia_timing_importer.h"

#include "core/ingest/import_lines.h"
#include "core/formats/julia_log_lines.h"
#include "core/formats/julia_text.h"
#include "core/ingest/julia/julia_timing_writer.h"
#include "core/formats/text_util.h"
#include "core/util/utf8.h"

namespace cs::ingest {

// A compile statement is unmistakable; import rows alone ("12.5 ms  Name") are generic enough that
// they must make up half the lines, and @time lines alone only win against no other claim.
int JuliaTimingImporter::sniff(std::string_view head, std::string_view) const {
    int compiles = 0, imports = 0, inits = 0, times = 0, workloads = 0, lines = 0;
    size_t pos = 0;
    while (pos < head.size()) {
        size_t end = head.find('\n', pos);
        if (end == std::string_view::npos && pos > 0) break;  // a cut-off last line says nothing
        auto line = stripAnsi(head.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos));
        if (!trim(line).empty()) {
            ++lines;
            CompileStatement c;
            ImportRow r;
            TimeLine t;
            WorkloadRow wr;
            std::string_view message;
            auto frame = logFrame(line, message);
            bool workload = (frame == LogFrame::Single || frame == LogFrame::BoxHead) && parseWorkloadMessage(message, wr);
            line = std::string(uncommented(line));  // timings kept in `#` comments
            if (workload) ++workloads;
            else if (parseCompileStatement(line, c)) ++compiles;
            else if (parseImportRow(line, r)) (r.isInit ? inits : imports)++;
            else if (parseTimeLine(line, t) && !t.detail.empty()) ++times;
        }
        if (end == std::string_view::npos) break;
        pos = end + 1;
    }
    if (compiles) return 80;
    if (workloads) return 75;
    if (inits || (imports && imports * 2 >= lines)) return 70;
    if (times) return 50;
    return 0;
}

namespace {
// A line that is not one of the forms but carries their marks (a timing prefix, a precompile call, a
// "seconds" or "ms" figure) is a damaged timing: a loss. Anything else around them (a shell prompt,
// the REPL's display of a value, "... many deps omitted ...", commented script lines) is the paste's
// context: counted as unused information, not as lost data (issue 35).
bool looksLikeTiming(std::string_view t) {
    return startsWith(t, "#=") || t.find("precompile(") != std::string_view::npos ||
           t.find(" seconds (") != std::string_view::npos || t.find("% compilation") != std::string_view::npos ||
           t.find(" ms ") != std::string_view::npos || t.find(" ms:") != std::string_view::npos;
}
}  // namespace

ImportSummary JuliaTimingImporter::run(std::istream& in, ImportContext& ctx) const {
    ImportSummary summary;
    JuliaTimingWriter timing(ctx);
    std::string line, firstUnused;
    std::int64_t lineNo = 0, unused = 0;
    ImportLines lines(in, ctx, id());
    while (lines.next(line)) {
        ++lineNo;
        std::string clean = stripAnsi(line);
        auto t = trim(clean);
        if (t.empty() || timing.line(clean)) continue;
        const auto shown = std::string(util::utf8Prefix(t, 60));
        if (looksLikeTiming(uncommented(t))) {
            ctx.malformed("line " + std::to_string(lineNo), "not a --trace-compile, @time or @time_imports line: \"" + shown + "\"", id());
            ++summary.malformed;
        } else if (unused++ == 0) {
            firstUnused = "line " + std::to_string(lineNo) + ": \"" + shown + "\"";
        }
    }
    if (unused) ctx.writer.addStat(ctx.sessionId, "unused_line", id(), unused, ctx.sourceName + " " + firstUnused);
    timing.finish();
    if (in.bad()) throw std::runtime_error(ctx.sourceName + ": read error");
    summary.records = timing.records();
    summary.lastNs = timing.endNs();
    return summary;
}

}  // namespace cs::ingest
