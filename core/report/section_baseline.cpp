// "Changed since baseline" (`report --baseline BASE`): what `compilescope diff` finds between the
// baseline and the report's first trace, at the top of the report.
//
// Why here and first: a reviewer opening a pull request's report asks what got worse before anything
// else. Each change links to the compile's row in this report when it is listed, names the baseline's
// row (trace#anchor) otherwise, and shows the compile time of both runs as a pair of bars on one scale,
// so a doubled compile reads at a glance.
#include "core/measure/trace_diff.h"
#include "core/report/sections.h"
#include "core/util/units.h"

#include <algorithm>
#include <cmath>

namespace cs::report {

namespace {
constexpr double kBarW = 160, kBarH = 7;

std::int64_t medianCost(const std::vector<std::int64_t>& v) {
    if (v.empty()) return 0;
    std::vector<std::int64_t> s = v;
    std::sort(s.begin(), s.end());
    return s[s.size() / 2];
}

// Two bars on the scale of the larger: the baseline's (muted) above the report's (accent, red when slower).
void pairedBars(HtmlBuilder& h, std::int64_t base, std::int64_t head, bool worse) {
    const double top = static_cast<double>(std::max<std::int64_t>({base, head, 1}));
    auto width = [&](std::int64_t v) { return std::max(v > 0 ? 1.0 : 0.0, kBarW * static_cast<double>(v) / top); };
    h.open("svg", {{"class", "pair"}, {"viewBox", "0 0 " + std::to_string(static_cast<int>(kBarW)) + " 17"},
                   {"width", kBarW}, {"height", 17.0}, {"role", "img"},
                   {"aria-label", "baseline " + util::formatDuration(base) + ", this run " + util::formatDuration(head)}});
    h.open("rect", {{"class", "track"}, {"x", 0.0}, {"y", 1.0}, {"width", kBarW}, {"height", kBarH}}).close();
    h.open("rect", {{"class", "base"}, {"x", 0.0}, {"y", 1.0}, {"width", width(base)}, {"height", kBarH}}).close();
    h.open("rect", {{"class", "track"}, {"x", 0.0}, {"y", 9.0}, {"width", kBarW}, {"height", kBarH}}).close();
    h.open("rect", {{"class", worse ? "head worse" : "head"}, {"x", 0.0}, {"y", 9.0}, {"width", width(head)}, {"height", kBarH}}).close();
    h.close();
}
}  // namespace

void renderChangedSinceBaseline(HtmlBuilder& h, const measure::TraceDiff& diff, const TraceReport& t, const Links& links) {
    openSection(h, "changed", "Changed since baseline", static_cast<std::int64_t>(diff.changes.size()));
    h.open("p", {{"class", "traces"}}).text("Baseline ").open("code").shortText(diff.basePaths.front(), 160).close();
    h.text(" against this run: " + std::to_string(diff.baseCompiles) + " \xE2\x86\x92 " + std::to_string(diff.headCompiles) +
           " compiles, " + util::formatDuration(diff.baseCostNs) + " \xE2\x86\x92 " + util::formatDuration(diff.headCostNs) +
           " compiling; check " + diff.baseVerdict + " \xE2\x86\x92 " + diff.headVerdict + ".");
    h.close();
    if (diff.changes.empty()) {
        h.leaf("p", "No change: the same compiles, findings and verdict as the baseline.", {{"class", "empty"}});
        h.close();
        return;
    }
    openWideTable(h, {{"class", "sortable changed"}, {"data-count", static_cast<std::int64_t>(diff.changes.size())}},
                  {"change", "what", "numbers", "compile time: baseline / this run", "rows"});
    for (const auto& c : diff.changes) {
        const char* kind = measure::changeKindName(c.kind);
        h.open("tr", {{"class", "change"}, {"data-kind", kind}});
        h.leaf("td", kind, {{"class", "kind"}});
        h.open("td").shortText(c.subject, 240).close();
        h.open("td").shortText(c.detail, 240).close();
        h.open("td");
        const measure::DiffIdentity* id = c.identity ? &diff.identities[*c.identity] : nullptr;
        if (id && (!id->baseCostNs.empty() || !id->headCostNs.empty()))
        {
            const std::int64_t b = medianCost(id->baseCostNs), hd = medianCost(id->headCostNs);
            pairedBars(h, b, hd, c.kind == measure::ChangeKind::Slower);
            h.open("div", {{"class", "muted"}}).text((b ? util::formatDuration(b) : "-") + " / " + (hd ? util::formatDuration(hd) : "-")).close();
        }
        h.close();
        h.open("td");
        if (id && !id->headAnchor.empty() && t.analysis && t.analysis->compileIndex.find(id->headTable, id->headRow) >= 0)
            h.leaf("a", "this run", {{"href", links.compile(t, id->headTable, id->headRow)}});
        if (id && !id->baseAnchor.empty())
            h.text(" ").open("span", {{"class", "muted"}}).text("baseline ").open("code").shortText(id->baseAnchor, 40).close().close();
        h.close();
        h.close();
    }
    closeWideTable(h);
    // What the table leaves out (a build's smaller header and template moves), counted.
    for (const auto& note : diff.notes) h.open("p", {{"class", "muted diff-note"}}).text(note).close();
    h.close();
}

}  // namespace cs::report
