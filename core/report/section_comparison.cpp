// Comparison of two or more traces: the first is the baseline, each other one a candidate.
//
// Samples are the durations the traces record per phase, module, program and CUDA program (one
// sample per row), plus whole-trace totals. Each metric gets medians, the delta and seed 002's verdict
// (comparison.h); a changed launch topology marks the comparison refused, as the seed's `compare`
// does. The seed's ledger (option | measured | why not taken | to take it) follows when given.
#include "comparison.h"
#include "ledger.h"
#include "sections.h"
#include "sql_row.h"

#include "core/trace/reader.h"
#include "core/trace/schema.h"
#include "core/util/units.h"

#include <compilescope/trace_constants.h>

#include <algorithm>
#include <cmath>

namespace cs::report {

namespace {
constexpr size_t kMaxMetrics = 200;
}

void collectSamples(const trace::TraceReader& reader, TraceReport& r) {
    auto& s = r.samples;
    std::int64_t total = 0;
    reader.query("SELECT tool, coalesce(ph.str, ''), dur_ns, parent_id IS NULL FROM phase_timings t "
                 "LEFT JOIN strings ph ON ph.id = t.phase_sid",
                 [&](sqlite3_stmt* st) {
                     s["phase " + std::string(trace::enumName("phase_tool", static_cast<int>(colInt(st, 0)))) + " " +
                       colText(st, 1)]
                         .push_back(colInt(st, 2));
                     if (colInt(st, 3)) total += colInt(st, 2);
                 });
    reader.query("SELECT coalesce(n.str, ''), coalesce(m.dur_ns, 0) FROM module_loads m "
                 "LEFT JOIN strings n ON n.id = m.name_sid",
                 [&](sqlite3_stmt* st) {
                     s["module " + colText(st, 0)].push_back(colInt(st, 1));
                     total += colInt(st, 1);
                 });
    reader.query("SELECT coalesce(p.str, ''), c.compile_ns FROM cache_lookups c LEFT JOIN strings p ON p.id = "
                 "c.program_sid WHERE c.verdict = " + std::to_string(CS_VERDICT_MISS) + " AND c.compile_ns IS NOT NULL",
                 [&](sqlite3_stmt* st) {
                     s["program " + colText(st, 0)].push_back(colInt(st, 1));
                     total += colInt(st, 1);
                 });
    reader.query("SELECT api, coalesce(n.str, ''), coalesce(c.dur_ns, 0) FROM cuda_programs c "
                 "LEFT JOIN strings n ON n.id = c.name_sid",
                 [&](sqlite3_stmt* st) {
                     s[std::string(trace::enumName("cuda_api", static_cast<int>(colInt(st, 0)))) + " " + colText(st, 1)]
                         .push_back(colInt(st, 2));
                     total += colInt(st, 2);
                 });
    // Keep the metrics that cost most; a trace with a million distinct names stays comparable.
    if (s.size() > kMaxMetrics) {
        std::vector<std::pair<std::int64_t, std::string>> cost;
        for (const auto& [k, v] : s) {
            std::int64_t sum = 0;
            for (auto x : v) sum += x;
            cost.push_back({sum, k});
        }
        std::nth_element(cost.begin(), cost.begin() + kMaxMetrics, cost.end(), std::greater<>());
        for (size_t i = kMaxMetrics; i < cost.size(); ++i) s.erase(cost[i].second);
    }
    s["total recorded compile time"] = {total};
    reader.query("SELECT coalesce(n.str, ''), coalesce(grid_x, 0), coalesce(grid_y, 0), coalesce(grid_z, 0), "
                 "coalesce(block_x, 0), coalesce(block_y, 0), coalesce(block_z, 0), count(*) FROM kernel_launches k "
                 "LEFT JOIN strings n ON n.id = k.name_sid GROUP BY 1, 2, 3, 4, 5, 6, 7",
                 [&](sqlite3_stmt* st) {
                     std::string key = colText(st, 0) + " grid(" + std::to_string(colInt(st, 1)) + "," +
                                       std::to_string(colInt(st, 2)) + "," + std::to_string(colInt(st, 3)) + ") block(" +
                                       std::to_string(colInt(st, 4)) + "," + std::to_string(colInt(st, 5)) + "," +
                                       std::to_string(colInt(st, 6)) + ")";
                     r.launchTopology[key] += colInt(st, 7);
                 });
}

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
    openTable(h, {{"class", "sortable compare"}, {"data-count", static_cast<std::int64_t>(rows.size())}},
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
        h.leaf("td", (c.delta > 0 ? "+" : "") + ms(c.delta) + pct, {{"class", "num"}, {"data-v", c.delta}});
        h.leaf("td", "\xC2\xB1" + ms(c.band), {{"class", "num"}});
        h.leaf("td", verdict, {{"class", "v-" + std::string(c.verdict == CompareVerdict::Better ? "better"
                                                           : c.verdict == CompareVerdict::Worse ? "worse"
                                                                                                 : "neutral")}});
        h.close();
    }
    h.close().close();
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
