// The index of every compile and cache event, and one detail block per listed row.
//
// Why this layout: PyTorch users share compile problems as tlparse reports, whose first page lists
// every compile id with a status icon, each linking to its own artifacts. Ours does the same over
// the engine's compile index (engine/analysis/compile_index.h): one row per lookup, module load, program,
// driver JIT operation and compile span, with the outcome as an icon, why it happened and what it
// cost; each row links to its details (the key with before -> after for a miss, options, log text,
// phase durations, the findings that cite it, its place on the timeline). In a split report the
// details are pages of their own, as tlparse writes a folder per compile.
#include "core/report/sections.h"

#include "core/engine/analysis/compile_index.h"
#include "core/engine/analysis/trace_analysis.h"
#include "core/util/saturating.h"
#include "core/util/units.h"

#include <algorithm>

namespace cs::report {

using engine::CompileEntry;
using engine::CompileIndex;
using engine::CompileOutcome;

std::string Links::compileId(const TraceReport& t, std::string_view table, std::int64_t rowId) {
    return t.label + "-" + engine::compileAnchor(table, rowId);
}

std::string Links::compile(const TraceReport& t, std::string_view table, std::int64_t rowId) const {
    const std::string id = compileId(t, table, rowId);
    if (!split) return "#" + id;
    return onDetailPage ? id + ".html" : "compiles/" + id + ".html";
}

std::string Links::findingId(const TraceReport& t, size_t finding) {
    return t.label + "-finding-" + std::to_string(finding + 1);
}

std::string Links::finding(const TraceReport& t, size_t finding) const {
    return (onDetailPage ? "../index.html#" : "#") + findingId(t, finding);
}

std::string Links::section(Trusted id) const { return (onDetailPage ? "../index.html#" : "#") + std::string(id.view()); }

namespace {
const CompileIndex* indexOf(const TraceReport& t) { return t.analysis ? &t.analysis->compileIndex : nullptr; }

// The outcome as tlparse shows a status: an icon with a colour, its name for screen readers and tests.
void outcomeIcon(HtmlBuilder& h, CompileOutcome o) {
    static const char* const kIcons[] = {"\xE2\x9C\x93", "\xE2\x9C\x97", "\xE2\x9A\x99", "\xE2\x86\xBA", "\xE2\x9A\xA0", "?"};
    const std::string name = engine::outcomeName(o);
    std::string cls = "oc oc-";  // appended, not "literal" + name: GCC 12's -Wrestrict false positive at -O3
    cls += name;
    h.leaf("span", kIcons[static_cast<int>(o)], {{"class", cls}, {"title", name}, {"aria-label", name}});
}

std::string when(const TraceReport& t, const CompileEntry& e) {
    if (!e.startNs) return "-";
    return util::formatOffset(util::satSub(*e.startNs, t.timeline.startNs));
}

void outcomeCounts(HtmlBuilder& h, const CompileIndex& index) {
    h.open("p", {{"class", "hint outcomes"}});
    h.text(std::to_string(index.total) + " compile and cache events: ");
    bool first = true;
    for (const auto& [o, n] : index.byOutcome) {
        if (!first) h.text(", ");
        first = false;
        outcomeIcon(h, o);
        h.text(" " + std::to_string(n) + " " + engine::outcomeName(o));
    }
    h.text(".").close();
}
}  // namespace

void renderCompileIndex(HtmlBuilder& h, const std::vector<TraceReport>& traces, const Links& links) {
    std::int64_t total = 0;
    for (const auto& t : traces)
        if (const CompileIndex* index = indexOf(t)) total += index->total;
    openSection(h, "compiles", "Every compile and cache event", total);
    for (const auto& t : traces) {
        traceHeading(h, traces, t);
        const CompileIndex* index = indexOf(t);
        if (!index || index->total == 0) {
            // A compile time from the runtime's own totals (Julia's @time / @time_imports shares) is
            // compiling all the same: say where it comes from, never "no compiles" beside it (issue 35).
            const bool timed = t.summary.compileNs > 0 || t.summary.untimedCompiles > 0;
            emptyNote(h, timed ? "No compile is recorded one by one; the compile time (" + util::formatDuration(t.summary.compileNs) +
                                     ") comes from the runtime's own totals, such as Julia's @time and @time_imports lines."
                               : std::string("The trace records no compiles: no cache lookups, module loads, NVRTC / nvJitLink "
                                             "programs, driver JIT operations or compile spans."));
            continue;
        }
        outcomeCounts(h, *index);
        // Filled by the script: a text filter and one chip per outcome.
        h.open("div", {{"class", "index-tools"}, {"data-trace", t.label}}).close();
        openWideTable(h, {{"class", "sortable compiles"}, {"data-trace", t.label}},
                      {"", "what", "name", "identity", "session", "#step", "why", "#cost", "#at"});
        for (const CompileEntry& e : index->entries) {
            const std::string outcome = engine::outcomeName(e.outcome);
            h.open("tr", {{"class", "compile"}, {"data-outcome", outcome}, {"data-kind", e.kind}});
            h.open("td", {{"data-v", static_cast<std::int64_t>(e.outcome)}});
            outcomeIcon(h, e.outcome);
            h.close();
            h.open("td").open("a", {{"href", links.compile(t, e.table, e.rowId)}}).text(e.kind + " " + std::to_string(e.rowId));
            h.close().close();
            h.open("td").open("code").shortText(e.name.empty() ? "-" : e.name, 80).close().close();
            h.open("td").open("code").shortText(e.identity.empty() ? "-" : e.identity, 48).close().close();
            h.open("td");
            // The GUI's label starts with the runtime when the session named one ("numba pid 32166").
            if (!e.runtime.empty() && e.session.rfind(e.runtime, 0) != 0)
                h.open("span", {{"class", "muted"}}).shortText(e.runtime, 30).close().text(" ");
            h.shortText(e.session, 60).close();
            h.leaf("td", e.step ? std::to_string(*e.step) : "-", {{"class", "num"}});
            h.open("td").shortText(e.why, 160).close();
            h.leaf("td", e.costNs ? util::formatDuration(*e.costNs) : "-", {{"class", "num"}, {"data-v", e.costNs.value_or(-1)}});
            h.leaf("td", when(t, e), {{"class", "num"}, {"data-v", e.startNs.value_or(0)}});
            h.close();
        }
        closeWideTable(h);
        if (index->total > static_cast<std::int64_t>(index->entries.size()))
            h.leaf("p",
                   std::to_string(index->total - static_cast<std::int64_t>(index->entries.size())) +
                       " more events are counted above but not listed: misses, compiles and errors are listed first, "
                       "then hits and cache loads, " + std::to_string(index->entries.size()) +
                       " in all (query the trace with `compilescope sql`).",
                   {{"class", "more"}});
        sourceNote(h, "the replay engine for cache lookups, the module identity analysis for module loads, the trace "
                      "for programs, driver JIT operations and compile spans");
    }
    h.close();
}

void renderCompileDetail(HtmlBuilder& h, const TraceReport& t, const CompileEntry& e, const Links& links) {
    const engine::TraceAnalysis* a = t.analysis.get();
    h.open("article", {{"class", "compile-detail"}, {"id", Links::compileId(t, e.table, e.rowId)},
                       {"data-outcome", engine::outcomeName(e.outcome)}});
    h.open("h3");
    outcomeIcon(h, e.outcome);
    h.text(" " + e.kind + " " + std::to_string(e.rowId) + ": ").open("code").shortText(e.name, 120).close();
    h.leaf("a", "\xE2\x86\x91 index", {{"class", "up"}, {"href", links.section("compiles")}});
    h.close();
    h.open("dl", {{"class", "detail"}});
    h.leaf("dt", "outcome").leaf("dd", engine::outcomeName(e.outcome));
    if (!e.why.empty()) h.leaf("dt", "why").open("dd", {{"class", "why"}}).shortText(e.why, 1200).close();
    h.leaf("dt", "where").open("dd");
    if (!e.runtime.empty() && e.session.rfind(e.runtime, 0) != 0) h.shortText(e.runtime, 60).text(" \xC2\xB7 ");
    h.shortText(e.session, 120);
    if (e.step) h.text(" \xC2\xB7 step " + std::to_string(*e.step));
    h.close();
    if (!e.identity.empty()) h.leaf("dt", "identity").open("dd").open("code", {{"class", "hash"}}).shortText(e.identity, 200).close().close();
    h.leaf("dt", "cost").leaf("dd", e.costNs ? util::formatDuration(*e.costNs) : "not recorded");
    if (!e.changes.empty()) {
        h.leaf("dt", "what moved").open("dd").open("ul", {{"class", "changes"}});
        for (const auto& c : e.changes) {
            h.open("li", {{"class", c.inKey ? "keyed" : "unkeyed"}}).open("code", {{"class", "component"}}).shortText(c.name, 80).close();
            h.text(": ").open("span", {{"class", "before"}}).shortText(c.before, 200).close().text(" \xE2\x86\x92 ");
            h.open("span", {{"class", "after"}}).shortText(c.after, 200).close();
            if (!c.inKey) h.leaf("span", " not in the key", {{"class", "muted"}});
            h.close();
        }
        h.close().close();
    }
    if (e.againstLookup) {
        h.leaf("dt", e.outcome == CompileOutcome::Miss ? "compared with" : "entry compiled by").open("dd");
        h.leaf("a", "cache lookup " + std::to_string(*e.againstLookup),
               {{"href", links.compile(t, "cache_lookups", *e.againstLookup)}});
        h.close();
    }
    if (!e.key.empty()) {
        h.leaf("dt", "key").open("dd");
        openWideTable(h, {{"class", "key"}}, {"component", "role", "value"});
        for (const auto& k : e.key) {
            h.open("tr", {{"class", k.inKey ? "keyed" : "unkeyed"}});
            h.open("td").open("code").shortText(k.name, 80).close().close();
            h.leaf("td", k.inKey ? k.role : k.role + " (not in the key)");
            h.open("td").open("code").shortText(k.value, 200).close().close();
            h.close();
        }
        closeWideTable(h);
        h.close();
    }
    if (!e.options.empty()) {
        h.leaf("dt", "options").open("dd").open("ul", {{"class", "options"}});
        for (const auto& [k, v] : e.options) {
            h.open("li").open("code").shortText(v.empty() ? k : k + "=" + v, 200).close().close();
        }
        h.close().close();
    }
    if (!e.inputs.empty()) {
        h.leaf("dt", e.table == "module_loads" ? "kernels" : "inputs").open("dd").open("ul", {{"class", "options"}});
        for (size_t i = 0; i < e.inputs.size() && i < 100; ++i) h.open("li").open("code").shortText(e.inputs[i], 200).close().close();
        if (e.inputs.size() > 100) h.leaf("li", std::to_string(e.inputs.size() - 100) + " more");
        h.close().close();
    }
    if (!e.log.empty()) h.leaf("dt", "log").open("dd").open("pre", {{"class", "log"}}).shortText(e.log, 4000).close().close();
    if (!e.phases.empty()) {
        h.leaf("dt", "phases").open("dd");
        openTable(h, {{"class", "compact phases-of"}}, {"phase", "#count", "#time"});
        for (const auto& p : e.phases) {
            h.open("tr").open("td").shortText(p.name, 80).close();
            h.leaf("td", std::to_string(p.count), {{"class", "num"}});
            h.leaf("td", util::formatDuration(p.ns), {{"class", "num"}}).close();
        }
        h.close().close().close();
    }
    if (!e.findings.empty() && a) {
        h.leaf("dt", "findings").open("dd").open("ul");
        for (size_t fi : e.findings) {
            if (fi >= a->findings.size()) continue;
            h.open("li").open("a", {{"href", links.finding(t, fi)}}).shortText(a->findings[fi].title, 200).close().close();
        }
        h.close().close();
    }
    // Its place on the timeline: a marker on the trace's time span.
    h.leaf("dt", "timeline").open("dd");
    const std::int64_t span = util::satSub(t.timeline.endNs, t.timeline.startNs);
    if (e.startNs && span > 0 && *e.startNs >= t.timeline.startNs && *e.startNs <= t.timeline.endNs) {
        const double x = 300.0 * static_cast<double>(util::satSub(*e.startNs, t.timeline.startNs)) / static_cast<double>(span);
        const double w = e.durNs ? std::max(2.0, 300.0 * static_cast<double>(*e.durNs) / static_cast<double>(span)) : 2.0;
        h.open("svg", {{"class", "place"}, {"width", "300"}, {"height", "10"}, {"viewBox", "0 0 300 10"}, {"aria-hidden", "true"}});
        h.open("rect", {{"class", "track"}, {"width", "300"}, {"height", "10"}, {"rx", "2"}}).close();
        h.open("rect", {{"class", "mark"}, {"x", std::min(x, 298.0)}, {"width", std::min(w, 300.0 - std::min(x, 298.0))},
                        {"height", "10"}, {"rx", "1"}}).close();
        h.close();
        h.text(" " + when(t, e) + " of " + util::formatDuration(span) + " ");
    } else {
        h.text("not on the drawn timeline (its session has no clock beside the clocked work) ");
    }
    h.leaf("a", "timeline", {{"href", links.section("timeline")}});
    h.close();
    h.close();  // dl
    h.close();  // article
}

void renderCompileDetails(HtmlBuilder& h, const std::vector<TraceReport>& traces, const Links& links) {
    std::int64_t listed = 0;
    for (const auto& t : traces)
        if (const CompileIndex* index = indexOf(t)) listed += static_cast<std::int64_t>(index->entries.size());
    openSection(h, "compile-details", "Compile details", listed);
    for (const auto& t : traces) {
        traceHeading(h, traces, t);
        const CompileIndex* index = indexOf(t);
        if (!index || index->entries.empty()) {
            emptyNote(h, "No compile is listed.");
            continue;
        }
        if (links.split) {
            h.leaf("p", "Each compile has a page of its own in the compiles/ folder; the index above links to them.",
                   {{"class", "hint"}});
            continue;
        }
        for (const CompileEntry& e : index->entries) renderCompileDetail(h, t, e, links);
    }
    h.close();
}

}  // namespace cs::report
