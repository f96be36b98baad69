// Compiler phases: nvcc --time, NVRTC --time and -ftime-trace phase timings, summed per tool, phase
// and architecture, so a user sees whether cicc, ptxas or the host compiler dominates.
#include "core/report/sections.h"

#include "core/util/units.h"

#include <algorithm>

namespace cs::report {

void renderPhases(HtmlBuilder& h, const std::vector<TraceReport>& traces) {
    std::int64_t rows = 0;
    for (const auto& t : traces) rows += static_cast<std::int64_t>(t.phases.rows.size());
    openSection(h, "phases", "Compiler phases", rows);
    for (const auto& t : traces) {
        traceHeading(h, traces, t);
        const Phases& p = t.phases;
        if (p.rows.empty()) {
            emptyNote(h, "The trace records no compiler phase timings (import nvcc --time or -ftime-trace output).");
            continue;
        }
        std::int64_t maxTotal = 1;
        for (const auto& row : p.rows) maxTotal = std::max(maxTotal, row.totalNs);
        h.leaf("p", std::to_string(p.timings) + " timings, " + util::formatDuration(p.totalNs) + " in top-level phases.",
               {{"class", "hint"}});
        openWideTable(h, {{"class", "sortable phases"}, {"data-trace", t.label}},
                  {"tool", "phase", "arch", "#count", "#total", "#max", "share"});
        for (const auto& row : p.rows) {
            h.open("tr", {{"class", "phase"}});
            h.leaf("td", row.tool).open("td").open("code").shortText(row.phase, 60).close().close();
            h.open("td").shortText(row.arch.empty() ? "-" : row.arch, 20).close();
            h.leaf("td", std::to_string(row.count), {{"class", "num"}});
            h.leaf("td", util::formatDuration(row.totalNs), {{"class", "num"}, {"data-v", row.totalNs}});
            h.leaf("td", util::formatDuration(row.maxNs), {{"class", "num"}, {"data-v", row.maxNs}});
            h.open("td");
            fractionBar(h, static_cast<double>(row.totalNs) / static_cast<double>(maxTotal));
            h.close();
            h.close();
        }
        closeWideTable(h);
    }
    h.close();
}

}  // namespace cs::report
