// Findings with fixes: every analysis's conclusions (engine/analysis/all_findings.h), the same list the CLI's
// `findings` prints and the GUI shows, most severe and most costly first.
#include "core/report/sections.h"

#include "core/engine/analysis/fix_sources.h"
#include "core/engine/analysis/trace_analysis.h"
#include "core/engine/fix/fix_view.h"
#include "core/util/units.h"

#include <algorithm>

namespace cs::report {

namespace {
int rank(engine::Severity s) {
    return s == engine::Severity::Error ? 0 : s == engine::Severity::Warning ? 1 : 2;
}

// "Show the change" (docs/fix.md): the diff or snippet `compilescope fix` writes, closed by default.
void renderChange(HtmlBuilder& h, const engine::fix::FixChange& c, const std::string& label) {
    h.open("details", {{"class", "fix-change"}, {"data-kind", truncateUtf8(c.kind, 200)}});
    h.open("summary").shortText(label, 300).close();
    h.open("pre", {{"class", c.diff.empty() ? "change snippet" : "change diff"}})
        .shortText(engine::fix::changeText(c), 50000)
        .close();
    h.close();
}

void renderFinding(HtmlBuilder& h, const TraceReport& t, size_t index, const Links& links,
                   const engine::fix::FixPlan& plan) {
    const engine::Finding& f = t.findings[index];
    const engine::CompileIndex* compiles = t.analysis ? &t.analysis->compileIndex : nullptr;
    const std::string sev = engine::severityName(f.severity);
    std::string badge = "badge sev-";  // (not "literal" + sev: GCC 12's -Wrestrict false positive at -O3)
    badge += sev;
    h.open("details", {{"class", "finding"}, {"id", Links::findingId(t, index)}, {"data-severity", sev},
                       {"data-kind", truncateUtf8(f.kind, 200)}});
    h.open("summary");
    h.leaf("span", sev, {{"class", badge}});
    h.text(" ").open("span", {{"class", "title"}}).shortText(f.title, 200).close();
    if (f.costNs) h.leaf("span", util::formatDuration(*f.costNs), {{"class", "cost"}});
    h.close();
    h.open("dl");
    h.leaf("dt", "kind").open("dd").open("code").shortText(f.kind, 80).close().close();
    if (!f.mechanism.empty()) h.leaf("dt", "why").open("dd").shortText(f.mechanism, 2000).close();
    if (!f.fix.empty()) h.leaf("dt", "fix").open("dd", {{"class", "fix"}}).shortText(f.fix, 2000).close();
    if (!f.evidence.empty()) {
        h.leaf("dt", "evidence (" + std::to_string(f.evidence.size()) + ")").open("dd").open("ul");
        for (size_t i = 0; i < f.evidence.size() && i < 50; ++i) {
            const auto& e = f.evidence[i];
            // Named as the user knows it ("cache lookup 13"), never by table and row id, and a link to
            // that row's details when the compile index lists it.
            h.open("li");
            if (std::string subject = engine::evidenceSubject(e); !subject.empty()) {
                if (compiles && compiles->find(e.table, e.rowId) >= 0)
                    h.open("a", {{"class", "evidence"}, {"href", links.compile(t, e.table, e.rowId)}})
                        .open("code").shortText(subject, 60).close().close();
                else
                    h.open("code").shortText(subject, 60).close();
            }
            if (!e.note.empty()) h.text(" ").shortText(e.note, 300);
            h.close();
        }
        if (f.evidence.size() > 50) h.leaf("li", std::to_string(f.evidence.size() - 50) + " more");
        h.close().close();
    }
    h.close();  // dl
    if (t.analysis)
        if (const auto* c = engine::fix::changeFor(plan, engine::fixSourcesOf(*t.analysis), f)) renderChange(h, *c, "Show the change: " + c->summary);
    h.close();  // details
}
}  // namespace

void renderFindings(HtmlBuilder& h, const std::vector<TraceReport>& traces, const Links& links) {
    std::int64_t total = 0;
    for (const auto& t : traces) total += static_cast<std::int64_t>(t.findings.size());
    openSection(h, "findings", "Findings and fixes", total);
    h.open("div", {{"class", "filters"}, {"id", "finding-filters"}}).close();  // severity chips (script)
    for (const auto& t : traces) {
        traceHeading(h, traces, t);
        const engine::fix::FixPlan plan = t.analysis ? engine::fix::planFixesForTrace(engine::fixSourcesOf(*t.analysis)) : engine::fix::FixPlan{};
        if (t.findings.empty()) emptyNote(h, "No analysis found anything to report in this trace.");
        for (const auto& c : plan.changes)
            if (c.finding == engine::fix::kNoFinding) renderChange(h, c, "Show the change for the whole trace: " + c.summary);
        if (t.findings.empty()) continue;
        std::vector<size_t> order;
        for (size_t i = 0; i < t.findings.size(); ++i) order.push_back(i);
        std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) {
            const engine::Finding &a = t.findings[x], &b = t.findings[y];
            if (rank(a.severity) != rank(b.severity)) return rank(a.severity) < rank(b.severity);
            return a.costNs.value_or(0) > b.costNs.value_or(0);
        });
        h.open("div", {{"class", "finding-list"}, {"data-trace", t.label}});
        for (size_t i = 0; i < order.size() && i < kMaxListedRows; ++i) renderFinding(h, t, order[i], links, plan);
        h.close();
        moreRows(h, static_cast<std::int64_t>(order.size()), std::min(order.size(), kMaxListedRows));
    }
    h.close();
}

}  // namespace cs::report
