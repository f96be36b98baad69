// A build: what the build report (engine/build/build_report.h) says of a build's clang time traces
// and .ninja_log, in the answers a ClangBuildAnalyzer user looks for first: how parallel the build
// was and what bounded it, frontend against backend, the slowest files, and the headers, template
// sets and functions that cost the most across every file. The same figures as `compilescope
// build-report` and the GUI's Build tab: all three render the one analysis.
//
// The section is left out of a report whose traces hold no build, so a JIT trace's report is
// unchanged.
#include "core/report/sections.h"

#include "core/engine/analysis/trace_analysis.h"
#include "core/util/units.h"

#include <algorithm>

namespace cs::report {

namespace {
constexpr size_t kRows = 10;

// One table of costs (headers, template sets, functions): name, time, count, files, the worst file.
void costTable(HtmlBuilder& h, const TraceReport& t, std::string_view title, std::string_view countName,
               const std::vector<engine::build::Cost>& rows) {
    if (rows.empty()) return;
    h.leaf("h3", title);
    const std::int64_t most = std::max<std::int64_t>(rows.front().ns, 1);
    openWideTable(h, {{"class", "sortable build-costs"}, {"data-trace", t.label}, {"data-rows", static_cast<std::int64_t>(rows.size())}},
                  {"name", "#time", countName, "#files", "most expensive in", "share"});
    for (size_t i = 0; i < rows.size() && i < kRows; ++i) {
        const auto& c = rows[i];
        h.open("tr");
        h.open("td").open("code", {{"title", c.name}}).shortText(c.name, 120).close().close();
        h.leaf("td", util::formatDuration(c.ns), {{"class", "num"}, {"data-v", c.ns}});
        h.leaf("td", util::formatCount(c.count), {{"class", "num"}, {"data-v", c.count}});
        h.leaf("td", util::formatCount(c.files), {{"class", "num"}, {"data-v", c.files}});
        h.open("td").shortText(c.worstFile.empty() ? "-" : c.worstFile + " (" + util::formatDuration(c.worstNs) + ")", 80).close();
        h.open("td");
        fractionBar(h, static_cast<double>(c.ns) / static_cast<double>(most));
        h.close();
        h.close();
    }
    closeWideTable(h);
    moreRows(h, static_cast<std::int64_t>(rows.size()), std::min(rows.size(), kRows));
}
}  // namespace

bool anyBuild(const std::vector<TraceReport>& traces) {
    for (const auto& t : traces)
        if (t.analysis && t.analysis->build && !t.analysis->build->empty()) return true;
    return false;
}

void renderBuild(HtmlBuilder& h, const std::vector<TraceReport>& traces) {
    if (!anyBuild(traces)) return;
    std::int64_t files = 0;
    for (const auto& t : traces)
        if (t.analysis && t.analysis->build) files += static_cast<std::int64_t>(t.analysis->build->files.size());
    openSection(h, "build", "Build", files);
    for (const auto& t : traces) {
        traceHeading(h, traces, t);
        if (!t.analysis || !t.analysis->build || t.analysis->build->empty()) {
            emptyNote(h, "This trace holds no clang time trace nor .ninja_log.");
            continue;
        }
        const auto& b = *t.analysis->build;
        const auto& s = b.schedule;
        h.open("p", {{"class", "hint build-totals"}});
        h.text(util::formatCount(static_cast<std::int64_t>(b.files.size())) + (b.files.size() == 1 ? " file" : " files") + " compiled in " + util::formatDuration(b.totalNs) +
               ": frontend " + util::formatDuration(b.frontendNs) + " (" + util::formatShare(b.frontendNs, b.totalNs) + "), backend " +
               util::formatDuration(b.backendNs) + " (" + util::formatShare(b.backendNs, b.totalNs) + ").");
        if (s.wallNs > 0) {
            h.text(" The build spanned " + util::formatDuration(s.wallNs) + " of wall time with " +
                   util::formatFixed(s.averageParallelism, 2) + " jobs on average (at most " +
                   std::to_string(s.peakConcurrency) + ")" + (s.fromNinjaLog ? ", from its .ninja_log" : ", from the time traces") + ".");
        }
        if (!s.criticalPath.empty())
            h.text(" Its critical path by timing: " + std::to_string(s.criticalPath.size()) + " step" +
                   (s.criticalPath.size() == 1 ? "" : "s") + ", " + util::formatDuration(s.criticalPathNs) + " (" +
                   util::formatShare(s.criticalPathNs, s.wallNs) + " of the wall time).");
        h.close();

        if (!b.files.empty()) {
            h.leaf("h3", "Slowest files");
            const std::int64_t most = std::max<std::int64_t>(b.files.front().totalNs, 1);
            openWideTable(h, {{"class", "sortable build-files"}, {"data-trace", t.label}},
                          {"file", "#total", "#frontend", "#backend", "#started at", "share"});
            for (size_t i = 0; i < b.files.size() && i < kRows; ++i) {
                const auto& f = b.files[i];
                h.open("tr");
                h.open("td").open("code", {{"title", f.source}}).shortText(f.label, 80).close().close();
                h.leaf("td", util::formatDuration(f.totalNs), {{"class", "num"}, {"data-v", f.totalNs}});
                h.leaf("td", util::formatDuration(f.frontendNs), {{"class", "num"}, {"data-v", f.frontendNs}});
                h.leaf("td", util::formatDuration(f.backendNs), {{"class", "num"}, {"data-v", f.backendNs}});
                h.leaf("td", util::formatOffset(f.offsetNs), {{"class", "num"}, {"data-v", f.offsetNs}});
                h.open("td");
                fractionBar(h, static_cast<double>(f.totalNs) / static_cast<double>(most));
                h.close();
                h.close();
            }
            closeWideTable(h);
            moreRows(h, static_cast<std::int64_t>(b.files.size()), std::min(b.files.size(), kRows));
        }
        costTable(h, t, "Most expensive headers (inclusive parse time)", "#includes", b.headers);
        costTable(h, t, "Most expensive template sets (arguments folded to <$>)", "#instantiations", b.templateSets);
        costTable(h, t, "Most expensive functions to optimise", "#compiled", b.optimisedFunctions);
        costTable(h, t, "Most expensive functions to generate code for", "#compiled", b.generatedFunctions);
        sourceNote(h, "the build's clang time traces (-ftime-trace) and .ninja_log, as `compilescope build-report` prints them; "
                      "the findings above say what to change");
    }
    h.close();
}

}  // namespace cs::report
