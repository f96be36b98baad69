// Cache misses with reasons: for each miss the replay engine found (engine/miss_attribution.h), the
// key components that moved since the nearest earlier entry of the same program, with before and
// after values ("shape of arg 2: 128x64 -> 100x64"), or the redefined methods that poisoned it.
// Device and Host fields that changed alongside are shown greyed: the ReactantNitro guide (docs/cache-replay.md) keeps them out of the key,
// so they are never the cause.
#include "core/report/sections.h"

#include "core/engine/cache/cache_analysis.h"
#include "core/util/units.h"

namespace cs::report {

void collectCacheMisses(const engine::CacheAnalysis& cache, TraceReport& r) {
    CacheMisses& m = r.misses;
    m.source = "replay engine (each miss against the nearest earlier entry of its program; closure poisoning)";
    const engine::CacheFacts& facts = cache.facts;
    m.total = static_cast<std::int64_t>(cache.attribution.misses.size());
    for (const auto& e : cache.attribution.misses) {
        if (m.rows.size() >= kMaxListedRows) break;
        const engine::Lookup& l = facts.lookups[e.lookup];
        MissRow row;
        row.lookupId = l.id;
        row.tsNs = l.tsNs;
        row.step = l.step;
        row.compileNs = l.compileNs;
        row.program = facts.str(l.program);
        row.handle = facts.str(l.handle);
        row.cache = facts.str(l.cache);
        row.reason = e.reason;
        for (const auto& c : e.changes) row.changes.push_back({c.name, c.before, c.after, true});
        for (const auto& c : e.unkeyed) row.changes.push_back({c.name, c.before, c.after, false});
        if (e.cause == engine::MissCause::Poisoned)
            for (const auto& method : e.drifted) row.changes.push_back({"redefined", method, "(poisoned)", true});
        m.rows.push_back(std::move(row));
    }
}

void renderCacheMisses(HtmlBuilder& h, const std::vector<TraceReport>& traces) {
    std::int64_t total = 0;
    for (const auto& t : traces) total += t.misses.total;
    openSection(h, "cache-misses", "Cache misses and why", total);
    for (const auto& t : traces) {
        traceHeading(h, traces, t);
        const CacheMisses& m = t.misses;
        if (m.total == 0) {
            emptyNote(h, t.summary.lookups ? "Every cache lookup hit." : "The trace records no cache lookups.");
            continue;
        }
        // The count under its one definition (engine/analysis/trace_figures.h), as the tile and check give it.
        if (const engine::Figure* f = t.figures.find("cache.misses.replayed")) {
            h.open("p", {{"class", "hint"}}).leaf("span", engine::figureText(*f), {{"data-figure", f->key}});
            h.text(" " + f->label).close();
        }
        openWideTable(h, {{"class", "sortable misses"}, {"data-trace", t.label}},
                  {"#", "#step", "program", "handle", "#compile", "reason", "what moved"});
        for (const auto& row : m.rows) {
            h.open("tr", {{"class", "miss"}, {"data-lookup", row.lookupId}});
            h.leaf("td", std::to_string(row.lookupId), {{"class", "num"}});
            h.leaf("td", row.step ? std::to_string(*row.step) : "-", {{"class", "num"}});
            h.open("td").open("code").shortText(row.program, 60).close().close();
            h.open("td").shortText(row.handle.empty() ? "-" : row.handle, 40).close();
            h.leaf("td", row.compileNs ? util::formatDuration(*row.compileNs) : "-",
                   {{"class", "num"}, {"data-v", row.compileNs.value_or(0)}});
            h.open("td").shortText(row.reason, 400).close();
            h.open("td");
            if (!row.changes.empty()) {
                h.open("ul", {{"class", "changes"}});
                for (const auto& c : row.changes) {
                    h.open("li", {{"class", c.inKey ? "keyed" : "unkeyed"}}).open("code").shortText(c.component, 60).close().text(": ");
                    h.open("span", {{"class", "before"}}).shortText(c.before, 80).close();
                    h.text(" \xE2\x86\x92 ");
                    h.open("span", {{"class", "after"}}).shortText(c.after, 80).close();
                    if (!c.inKey) h.leaf("span", " not in the key", {{"class", "muted"}});
                    h.close();
                }
                h.close();
            }
            h.close();
            h.close();
        }
        closeWideTable(h);
        moreRows(h, m.total, m.rows.size());
        sourceNote(h, m.source);
    }
    h.close();
}

}  // namespace cs::report
