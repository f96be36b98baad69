// Comparison of two or more traces: the first is the baseline, each other one a candidate.
//
// Samples are the durations the traces record per phase, module, program and CUDA program (one
// sample per row), plus whole-trace totals. Each metric gets medians, the delta and the noise-band verdict
// (comparison.h); a changed launch topology marks the comparison refused, as the guide's `compare`
// does. the guide's ledger (option | measured | why not taken | to take it) follows when given.
#include "core/measure/comparison.h"
#include "core/measure/ledger.h"
#include "core/report/sections.h"

#include "core/util/units.h"

#include <compilescope/trace_constants.h>

#include <algorithm>
#include <cmath>

namespace cs::report {

using measure::compareAll;
using measure::CompareVerdict;
using measure::compareVerdictName;
using measure::topologyDifferences;

namespace {
std::string ms(double ns) { return util::formatDuration(static_cast<std::int64_t>(std::llround(ns))); }

void renderLedger(HtmlBuilder& h, const Ledger& ledger) {
    h.leaf("h3", "Ledger: options measured and not taken");
    openTable(h, {{"class", "ledger"}}, {"option", "#measured", "why not taken", "to take it"});
    for (const auto& row : ledger.rows) {
        h.open("tr", {{"class", "ledger-row"}});
        h.open("td").open("code").shortText(row.option, 120).close().close();
        h.open("td", {{"class", "num"}}).shortText(row.measured, 60).close();
        h.open("td").shortText(row.whyNotTaken, 400).close();
        h.open("td").shortText(row.toTakeIt, 400).close();
        h.close();
    }
    h.close().close();
}

void renderPair(HtmlBuilder& h, const TraceReport& base, const TraceReport& cand) {
    h.open("h3", {{"class", "trace-label"}});
    h.leaf("span", base.label, {{"class", "tag"}}).text(" baseline vs ").leaf("span", cand.label, {{"class", "tag"}});
    h.text(" candidate").close();
    auto topo = topologyDifferences(base.launchTopology, cand.launchTopology);
    if (!topo.empty()) {
        h.open("div", {{"class", "verdict fail"}, {"data-verdict", "refused"}});
        h.leaf("strong", "Comparison refused: the launch topology changed.");
        h.leaf("span", " The candidate launched different kernels, grids or blocks, so it is a different workload; "
                       "the figures below are shown for reference only.");
        h.open("ul");
        for (const auto& d : topo) h.open("li").shortText(d, 300).close();
        h.close().close();
    }
    auto rows = compareAll(base.samples, cand.samples);
    openWideTable(h, {{"class", "sortable compare"}, {"data-count", static_cast<std::int64_t>(rows.size())}},
              {"metric", "#baseline median", "#n", "#candidate median", "#n", "#delta", "#noise band", "verdict"});
    for (const auto& c : rows) {
        std::string verdict = compareVerdictName(c.verdict);
        h.open("tr", {{"class", "cmp"}, {"data-verdict", verdict}});
        h.open("td").open("code").shortText(c.metric, 80).close().close();
        h.leaf("td", ms(c.baseMedian), {{"class", "num"}, {"data-v", c.baseMedian}});
        h.leaf("td", std::to_string(c.baseSamples), {{"class", "num"}});
        h.leaf("td", ms(c.candMedian), {{"class", "num"}, {"data-v", c.candMedian}});
        h.leaf("td", std::to_string(c.candSamples), {{"class", "num"}});
        std::string pct = c.baseMedian > 0 ? " (" + std::to_string(static_cast<long long>(std::llround(100.0 * c.delta / c.baseMedian))) + "%)" : "";
        std::string delta = c.delta > 0 ? "+" : "";  // appended, not "+" + s: GCC 12 -Wrestrict at -O3
        delta += ms(c.delta);
        delta += pct;
        h.leaf("td", delta, {{"class", "num"}, {"data-v", c.delta}});
        h.leaf("td", "\xC2\xB1" + ms(c.band), {{"class", "num"}});
        h.leaf("td", verdict, {{"class", "v-" + std::string(c.verdict == CompareVerdict::Better ? "better"
                                                           : c.verdict == CompareVerdict::Worse ? "worse"
                                                                                                 : "neutral")}});
        h.close();
    }
    closeWideTable(h);
}
}  // namespace

void renderComparison(HtmlBuilder& h, const std::vector<TraceReport>& traces, const Ledger* ledger) {
    if (traces.size() < 2 && !ledger) return;
    openSection(h, "comparison", "Comparison", traces.size() < 2 ? 0 : static_cast<std::int64_t>(traces.size() - 1));
    if (traces.size() >= 2) {
        h.leaf("p",
               "Medians per metric (one sample per recorded row). A delta inside max(1% of the baseline median, "
               "2 x the baseline's median absolute deviation) is inconclusive.",
               {{"class", "hint"}});
        for (size_t i = 1; i < traces.size(); ++i) renderPair(h, traces[0], traces[i]);
    } else {
        emptyNote(h, "Give two traces (baseline first) to compare them.");
    }
    if (ledger) renderLedger(h, *ledger);
    h.close();
}

}  // namespace cs::report
