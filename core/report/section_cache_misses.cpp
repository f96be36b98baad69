// Cache misses with reasons: for each miss, the key components that moved since the nearest earlier
// lookup of the same program.
//
// Why this works from the raw tables: seed 000 says a program's key is a tuple of named components
// and that Device and Host fields are not part of it, so "which component differs from the last key
// this program was looked up with" is the reason a user needs ("shape of arg 2: 128x64 -> 100x64").
// A miss whose key did not move was poisoned, evicted or compiled twice; the replay engine's findings
// say which. The pass streams the lookups once, remembering only the last lookup id per program, and
// reads key components only for the misses it lists.
#include "sections.h"
#include "sql_row.h"

#include "core/trace/reader.h"
#include "core/util/units.h"

#include <compilescope/trace_constants.h>

#include <map>
#include <set>

namespace cs::report {

namespace {
struct Component {
    std::string name, shown, compared;
    int role = CS_ROLE_OTHER;
};

std::map<std::int64_t, std::vector<Component>> keysOf(const trace::TraceReader& reader,
                                                      const std::set<std::int64_t>& ids) {
    std::map<std::int64_t, std::vector<Component>> keys;
    if (ids.empty()) return keys;
    std::string list;
    for (auto id : ids) list += (list.empty() ? "" : ",") + std::to_string(id);
    reader.query("SELECT k.lookup_id, n.str, k.role, coalesce(d.str, ''), coalesce(v.str, '') FROM key_components k "
                 "JOIN strings n ON n.id = k.name_sid LEFT JOIN strings d ON d.id = k.digest_sid "
                 "LEFT JOIN strings v ON v.id = k.value_sid WHERE k.lookup_id IN (" + list + ") "
                 "ORDER BY k.lookup_id, k.ordinal",
                 [&](sqlite3_stmt* st) {
                     Component c;
                     c.name = colText(st, 1);
                     c.role = static_cast<int>(colInt(st, 2));
                     std::string digest = colText(st, 3), value = colText(st, 4);
                     c.compared = digest.empty() ? value : digest;
                     c.shown = value.empty() ? digest : value;
                     keys[colInt(st, 0)].push_back(std::move(c));
                 });
    return keys;
}

// Components in the key (device and host roles are not, per seed 000) that differ between two keys.
std::vector<KeyChange> diffKeys(const std::vector<Component>& before, const std::vector<Component>& after) {
    std::vector<KeyChange> out;
    auto inKey = [](const Component& c) { return c.role != CS_ROLE_DEVICE && c.role != CS_ROLE_HOST; };
    std::map<std::string, const Component*> old;
    for (const auto& c : before)
        if (inKey(c)) old[c.name] = &c;
    for (const auto& c : after) {
        if (!inKey(c)) continue;
        auto it = old.find(c.name);
        if (it == old.end()) {
            out.push_back({c.name, "(absent)", c.shown});
        } else {
            if (it->second->compared != c.compared) out.push_back({c.name, it->second->shown, c.shown});
            old.erase(it);
        }
    }
    for (const auto& [name, c] : old) out.push_back({name, c->shown, "(absent)"});
    return out;
}
}  // namespace

void collectCacheMisses(const trace::TraceReader& reader, TraceReport& r) {
    CacheMisses& m = r.misses;
    m.source = "raw tables (cache_lookups and key_components, each miss against the program's previous lookup)";
    std::map<std::pair<std::int64_t, std::int64_t>, std::int64_t> lastLookup;  // (session, program) -> id
    std::vector<std::pair<std::int64_t, std::int64_t>> shown;                    // (miss row index, previous id)
    reader.query("SELECT id, session_id, ts_ns, program_sid, verdict, step, compile_ns, handle_sid, cache_sid "
                 "FROM cache_lookups ORDER BY session_id, ts_ns, id",
                 [&](sqlite3_stmt* st) {
                     std::int64_t id = colInt(st, 0);
                     std::pair<std::int64_t, std::int64_t> prog{colInt(st, 1), colInt(st, 3)};
                     if (colInt(st, 4) == CS_VERDICT_MISS) {
                         ++m.total;
                         if (m.rows.size() < kMaxListedRows) {
                             MissRow row;
                             row.lookupId = id;
                             row.tsNs = colInt(st, 2);
                             row.step = colOpt(st, 5);
                             row.compileNs = colOpt(st, 6);
                             row.program = reader.str(colInt(st, 3));
                             row.handle = reader.str(colInt(st, 7));
                             row.cache = reader.str(colInt(st, 8));
                             auto it = lastLookup.find(prog);
                             shown.push_back({static_cast<std::int64_t>(m.rows.size()), it == lastLookup.end() ? 0 : it->second});
                             m.rows.push_back(std::move(row));
                         }
                     }
                     lastLookup[prog] = id;
                 });
    std::set<std::int64_t> ids;
    for (const auto& [index, prev] : shown) {
        ids.insert(m.rows[static_cast<size_t>(index)].lookupId);
        if (prev) ids.insert(prev);
    }
    auto keys = keysOf(reader, ids);
    for (const auto& [index, prev] : shown) {
        MissRow& row = m.rows[static_cast<size_t>(index)];
        if (!prev) {
            row.reason = "first lookup of this program: a new entry";
            continue;
        }
        row.changes = diffKeys(keys[prev], keys[row.lookupId]);
        if (row.changes.empty())
            row.reason = "key unchanged since lookup #" + std::to_string(prev) +
                         ": the entry was poisoned, evicted or compiled twice";
        else
            row.reason = std::to_string(row.changes.size()) + " key component(s) moved since lookup #" +
                         std::to_string(prev);
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
        openTable(h, {{"class", "sortable misses"}, {"data-trace", t.label}},
                  {"#", "#step", "program", "handle", "#compile", "reason", "what moved"});
        for (const auto& row : m.rows) {
            h.open("tr", {{"class", "miss"}, {"data-lookup", row.lookupId}});
            h.leaf("td", std::to_string(row.lookupId), {{"class", "num"}});
            h.leaf("td", row.step ? std::to_string(*row.step) : "-", {{"class", "num"}});
            h.open("td").open("code").shortText(row.program, 60).close().close();
            h.open("td").shortText(row.handle.empty() ? "-" : row.handle, 40).close();
            h.leaf("td", row.compileNs ? util::formatDuration(*row.compileNs) : "-",
                   {{"class", "num"}, {"data-v", row.compileNs.value_or(0)}});
            h.leaf("td", row.reason);
            h.open("td");
            if (!row.changes.empty()) {
                h.open("ul", {{"class", "changes"}});
                for (const auto& c : row.changes) {
                    h.open("li").open("code").shortText(c.component, 60).close().text(": ");
                    h.open("span", {{"class", "before"}}).shortText(c.before, 80).close();
                    h.text(" \xE2\x86\x92 ");
                    h.open("span", {{"class", "after"}}).shortText(c.after, 80).close();
                    h.close();
                }
                h.close();
            }
            h.close();
            h.close();
        }
        h.close().close();
        moreRows(h, m.total, m.rows.size());
        sourceNote(h, m.source);
    }
    h.close();
}

}  // namespace cs::report
