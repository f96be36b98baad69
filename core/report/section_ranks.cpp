// Ranks: a report over several traces read as the ranks of one job, compared as `check` compares
// them (engine/cache/rank_divergence.h, the same function): each rank's compile time beside the
// median rank's, the programs not every rank compiled, the steps at which only some ranks missed,
// and the ranks that compiled far longer than the others.
//
// Why in the report: a distributed job's owner opens one report for all its ranks; the job moves at
// the pace of its slowest rank, so the rank that diverges is the first thing to see, with its
// evidence, not something to find by reading 256 summaries.
#include "core/engine/cache/rank_divergence.h"
#include "core/engine/analysis/rank_compare.h"
#include "core/engine/accounting/session_labels.h"
#include "core/engine/analysis/trace_analysis.h"
#include "core/report/sections.h"

#include "core/util/units.h"

#include <algorithm>

namespace cs::report {

namespace {
constexpr size_t kRankRows = 300;   // every rank of a large job, then a count
constexpr size_t kListRows = 50;    // divergent programs, steps

constexpr size_t kNamesShown = 12;  // ranks named in one cell or sentence, then a count

// Unrelated traces (issue 35): side by side in the other sections, never DIVERGE or slow rank.
void renderNotCompared(HtmlBuilder& h, size_t traces) {
    openSection(h, "ranks", "Ranks", 0);
    h.leaf("p", std::to_string(traces) +
                    " traces of different programs, side by side: not compared as ranks (compilescope report --ranks "
                    "compares them as the ranks of one job).",
           {{"class", "hint ranks-verdict ranks-not-compared"}});
    h.close();  // section
}

std::vector<engine::RankTrace> rankTraces(const std::vector<TraceReport>& traces) {
    std::vector<engine::RankTrace> ranks;
    for (const auto& t : traces) ranks.push_back(engine::rankTraceOf(t.label, t.analysis.get()));
    return ranks;
}
void renderEveryRank(HtmlBuilder& h, const std::vector<TraceReport>& traces, const std::vector<engine::RankTrace>& ranks,
                     const engine::RankDivergence& d, const std::vector<std::string>& names);
}  // namespace

engine::RankDivergence compareTraceRanks(const std::vector<TraceReport>& traces) { return engine::compareRanks(rankTraces(traces)); }

std::vector<size_t> ranksToDetail(const std::vector<TraceReport>& traces, const engine::RankDivergence& d, size_t most) {
    std::vector<size_t> out;
    auto add = [&](const std::string& label) {
        for (size_t i = 0; i < traces.size(); ++i)
            if (traces[i].label == label && std::find(out.begin(), out.end(), i) == out.end() && out.size() < most) out.push_back(i);
    };
    if (!traces.empty()) add(traces[0].label);
    for (const auto& s : d.slow) add(s.rank);
    // The side with fewer ranks is the one that did something different.
    auto minority = [&](const std::vector<std::string>& a, const std::vector<std::string>& b) {
        for (const auto& r : a.size() <= b.size() ? a : b) add(r);
    };
    for (const auto& p : d.programs) minority(p.compiledBy, p.notBy);
    for (const auto& s : d.steps) minority(s.missedBy, s.notBy);
    std::sort(out.begin(), out.end());
    return out;
}

bool readAsRanks(const std::vector<TraceReport>& traces, bool asRanks) {
    if (traces.size() < 2) return false;
    if (asRanks) return true;
    std::vector<const engine::TraceAnalysis*> analyses;
    for (const auto& t : traces) analyses.push_back(t.analysis.get());
    return engine::tracesOfOneProgram(analyses);
}

void renderRanks(HtmlBuilder& h, const std::vector<TraceReport>& traces, bool asRanks) {
    if (traces.size() < 2) return;
    if (!readAsRanks(traces, asRanks)) return renderNotCompared(h, traces.size());
    const std::vector<engine::RankTrace> ranks = rankTraces(traces);
    const engine::RankDivergence d = engine::compareRanks(ranks);
    std::vector<std::string> paths;
    for (const auto& t : traces) paths.push_back(t.path);
    const std::vector<std::string> names = engine::distinguishingSuffixes(paths);
    openSection(h, "ranks", "Ranks",
                static_cast<std::int64_t>(d.programs.size() + d.steps.size() + d.slow.size()));
    h.open("p", {{"class", "hint ranks-verdict"}});
    h.text(std::to_string(traces.size()) + " traces read as the ranks of one job: ");
    h.text(d.diverges() ? "they DIVERGE (different programs or different steps: compilescope check fails)."
                        : "they compiled the same programs at the same steps.");
    if (d.medianCompileNs) h.text(" The median rank compiled for " + util::formatDuration(*d.medianCompileNs) + ".");
    if (!d.slow.empty()) {
        std::string slow = std::to_string(d.slow.size());
        slow += d.slow.size() == 1 ? " rank compiled at least twice as long as the median: the others wait for it."
                                   : " ranks compiled at least twice as long as the median: the others wait for them.";
        h.text(" ").text(slow);
    }
    h.close();
    std::vector<std::string> detailed;
    for (const auto& t : traces)
        if (t.detailed) detailed.push_back(t.label);
    if (detailed.size() < traces.size())
        h.leaf("p", "Detailed in the other sections: " + util::formatList(detailed, kNamesShown) + " (the first rank and the ranks that diverge or are slow). The other " +
                        std::to_string(traces.size() - detailed.size()) + " ranks are in this section only; open a trace alone for its details.",
               {{"class", "hint ranks-detailed"}});

    for (engine::RankSlow s : d.slow) {
        // The tag and the trace's path: "rank F (rank5/trace.cstrace)".
        for (size_t i = 0; i < traces.size(); ++i)
            if (traces[i].label == s.rank) s.rank += " (" + names[i] + ")";
        h.open("p", {{"class", "warnbox rank-slow"}});
        h.leaf("strong", "Slow rank: ").text(engine::slowRankText(s) + "; the others wait " +
                                             util::formatDuration(util::satSub(s.compileNs, s.medianNs)) + " for it.");
        h.close();
    }
    if (!d.programs.empty()) {
        h.leaf("h3", "Programs not every rank compiled");
        openWideTable(h, {{"class", "rank-programs"}}, {"program (key)", "compiled by", "not by", "#compile time"});
        for (size_t i = 0; i < d.programs.size() && i < kListRows; ++i) {
            const auto& p = d.programs[i];
            std::int64_t ns = 0;
            for (const auto& c : p.compiles) ns = util::satAdd(ns, c.compileNs);
            h.open("tr");
            h.open("td").open("code").shortText(p.key, 200).close().close();
            h.leaf("td", util::formatList(p.compiledBy, kNamesShown)).leaf("td", util::formatList(p.notBy, kNamesShown));
            h.leaf("td", util::formatDuration(ns), {{"class", "num"}, {"data-v", ns}});
            h.close();
        }
        closeWideTable(h);
        moreRows(h, static_cast<std::int64_t>(d.programs.size()), std::min(d.programs.size(), kListRows));
    }
    if (!d.steps.empty()) {
        h.leaf("h3", "Steps at which only some ranks missed");
        openWideTable(h, {{"class", "rank-steps"}}, {"program", "#step", "missed on", "not on"});
        for (size_t i = 0; i < d.steps.size() && i < kListRows; ++i) {
            const auto& s = d.steps[i];
            h.open("tr");
            h.open("td").open("code").shortText(s.program, 120).close().close();
            h.leaf("td", std::to_string(s.step), {{"class", "num"}, {"data-v", s.step}});
            h.leaf("td", util::formatList(s.missedBy, kNamesShown)).leaf("td", util::formatList(s.notBy, kNamesShown));
            h.close();
        }
        closeWideTable(h);
        moreRows(h, static_cast<std::int64_t>(d.steps.size()), std::min(d.steps.size(), kListRows));
    }

    renderEveryRank(h, traces, ranks, d, names);
    sourceNote(h, "replay engine: the comparison `compilescope check` makes of several traces");
    h.close();  // section
}

namespace {
// Every rank, slowest first: its compile time, against the median, and its misses.
void renderEveryRank(HtmlBuilder& h, const std::vector<TraceReport>& traces, const std::vector<engine::RankTrace>& ranks,
                     const engine::RankDivergence& d, const std::vector<std::string>& names) {
    std::vector<size_t> order(traces.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    auto compileOf = [&](size_t i) { return ranks[i].compileNs.value_or(0); };
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return compileOf(a) > compileOf(b); });
    h.leaf("h3", "Every rank, slowest first");
    openWideTable(h, {{"class", "sortable rank-table"}}, {"rank", "trace", "#compile time", "#x median", "#misses"});
    for (size_t k = 0; k < order.size() && k < kRankRows; ++k) {
        const size_t i = order[k];
        const auto& t = traces[i];
        const bool slow = std::any_of(d.slow.begin(), d.slow.end(), [&](const engine::RankSlow& s) { return s.rank == t.label; });
        // The trace's one miss figure (engine/analysis/trace_figures.h): Warp's compiled module loads count, as
        // in check and the GUI's Ranks view; a trace without lookups or module loads has none.
        const engine::Figure* missFigure = t.figures.find("misses");
        const std::int64_t misses = missFigure ? missFigure->value.value_or(0) : -1;
        h.open("tr", {{"class", slow ? "slow" : "rank"}});
        h.open("td").leaf("span", t.label, {{"class", "tag"}}).close();
        h.open("td").open("code", {{"title", t.path}}).shortText(names[i], 100).close().close();
        h.leaf("td", util::formatDuration(compileOf(i)), {{"class", "num"}, {"data-v", compileOf(i)}});
        if (d.medianCompileNs && *d.medianCompileNs > 0)
            h.leaf("td", util::formatFixed(static_cast<double>(compileOf(i)) / static_cast<double>(*d.medianCompileNs), 2),
                   {{"class", "num"}, {"data-v", compileOf(i)}});
        else
            h.leaf("td", "-", {{"class", "num"}, {"data-v", 0}});
        h.leaf("td", missFigure ? engine::figureText(*missFigure) : "-", {{"class", "num"}, {"data-v", misses}});
        h.close();
    }
    closeWideTable(h);
    moreRows(h, static_cast<std::int64_t>(order.size()), std::min(order.size(), kRankRows));
}
}  // namespace

}  // namespace cs::report
