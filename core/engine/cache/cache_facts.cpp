#include "core/engine/cache/cache_facts.h"
#include "core/engine/cache/runtime_notes.h"

#include "core/trace/reader.h"
#include "core/trace/row.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace cs::engine {

const std::string& CacheFacts::str(Sid id) const {
    static const std::string empty;
    auto it = strings.find(id);
    return it == strings.end() ? empty : it->second;
}

std::string lookupName(const Lookup& l) {
    return l.moduleLoad ? "module load #" + std::to_string(*l.moduleLoad) : "lookup #" + std::to_string(l.id);
}

const char* lookupTable(const Lookup& l) { return l.moduleLoad ? "module_loads" : "cache_lookups"; }

std::int64_t lookupRowId(const Lookup& l) { return l.moduleLoad.value_or(l.id); }

Sid CacheFacts::find(const std::string& s) const {
    Sid best = 0;  // the smallest id holding `s`, so the answer does not depend on hash order
    for (const auto& [id, text] : strings)
        if (text == s && (!best || id < best)) best = id;
    return best;
}

Sid CacheFacts::intern(const std::string& s) {
    if (Sid id = find(s)) return id;
    Sid next = 1;
    for (const auto& [id, text] : strings) next = std::max(next, id + 1);
    strings.emplace(next, s);
    return next;
}

namespace {
// The lookups of the trace's sessions, in (session, time, id) order. In table order, sorted here:
// ORDER BY went through the (session, time) index and fetched every row by its rowid, a random
// read per lookup.
void readLookups(const trace::TraceReader& reader, CacheFacts& facts, std::unordered_map<std::int64_t, size_t>& byId) {
    reader.query(
        "SELECT id, session_id, ts_ns, coalesce(cache_sid, 0), program_sid, coalesce(handle_sid, 0), verdict, "
        "compile_ns, coalesce(fingerprint_sid, 0), step FROM cache_lookups "
        // A lookup of a session the trace does not hold is a trace problem (trace_problems.h), not a fact.
        "WHERE session_id IN (SELECT id FROM sessions)",
        [&](const trace::Row& st) {
            Lookup l;
            l.id = trace::colInt(st, 0);
            l.sessionId = trace::colInt(st, 1);
            l.tsNs = trace::colInt(st, 2);
            l.cache = trace::colInt(st, 3);
            l.program = trace::colInt(st, 4);
            l.handle = trace::colInt(st, 5);
            auto verdict = trace::colInt(st, 6);
            // A code this format does not define says nothing about the runtime's verdict.
            l.verdict = verdict == CS_VERDICT_HIT || verdict == CS_VERDICT_MISS ? static_cast<int>(verdict)
                                                                                 : CS_VERDICT_UNKNOWN;
            l.compileNs = trace::colDuration(st, 7);
            l.fingerprint = trace::colInt(st, 8);
            l.step = trace::colOpt(st, 9);
            facts.lookups.push_back(std::move(l));
        });
    auto inOrder = [](const Lookup& a, const Lookup& b) { return std::tie(a.sessionId, a.tsNs, a.id) < std::tie(b.sessionId, b.tsNs, b.id); };
    if (!std::is_sorted(facts.lookups.begin(), facts.lookups.end(), inOrder))
        std::sort(facts.lookups.begin(), facts.lookups.end(), inOrder);
    byId.reserve(facts.lookups.size());
    for (size_t i = 0; i < facts.lookups.size(); ++i) byId[facts.lookups[i].id] = i;
}

// Each lookup's components in ordinal order. The writer stores them so, and reading the table in
// its own order is a sequential read; a file stored otherwise is read again through the index.
void readComponents(const trace::TraceReader& reader, CacheFacts& facts, const std::unordered_map<std::int64_t, size_t>& byId) {
    auto read = [&](const char* order) {
        bool ordered = true;
        std::pair<std::int64_t, std::int64_t> last{INT64_MIN, INT64_MIN};
        reader.query(std::string("SELECT lookup_id, name_sid, role, coalesce(digest_sid, value_sid, 0), "
                                 "coalesce(value_sid, digest_sid, 0), ordinal FROM key_components") + order,
                     [&](const trace::Row& st) {
                         const std::pair<std::int64_t, std::int64_t> at{trace::colInt(st, 0), trace::colInt(st, 5)};
                         ordered = ordered && last <= at;
                         last = at;
                         auto it = byId.find(at.first);
                         if (it == byId.end()) return;  // a component of no lookup: nothing to key
                         facts.lookups[it->second].components.push_back(
                             {.name = trace::colInt(st, 1), .role = static_cast<int>(trace::colInt(st, 2)),
                              .digest = trace::colInt(st, 3), .value = trace::colInt(st, 4)});
                     });
        return ordered;
    };
    if (!read("")) {
        for (Lookup& l : facts.lookups) l.components.clear();
        read(" ORDER BY lookup_id, ordinal");
    }
}
}  // namespace

CacheFacts loadCacheFacts(const trace::TraceReader& reader) {
    CacheFacts facts;
    reader.query("SELECT id, str FROM strings ORDER BY id", [&](const trace::Row& st) {
        auto id = trace::colInt(st, 0);
        if (id <= 0) return;  // 0 means "no string"
        facts.strings[id] = st.text(1);
    });

    std::unordered_map<std::int64_t, size_t> byId;
    readLookups(reader, facts, byId);
    readComponents(reader, facts, byId);
    reader.query("SELECT lookup_id, method_sid, world FROM closures ORDER BY rowid", [&](const trace::Row& st) {
        auto it = byId.find(trace::colInt(st, 0));
        if (it == byId.end()) return;
        facts.lookups[it->second].closure.push_back({trace::colInt(st, 1), trace::colOpt(st, 2)});
    });

    // Lookups without a recorded step take the runtime's step counter at their time.
    std::map<std::int64_t, std::vector<std::pair<std::int64_t, std::int64_t>>> steps;  // session -> (ts, step)
    reader.query("SELECT session_id, ts_ns, step FROM steps ORDER BY session_id, ts_ns, id", [&](const trace::Row& st) {
        steps[trace::colInt(st, 0)].push_back({trace::colInt(st, 1), trace::colInt(st, 2)});
    });
    for (auto& l : facts.lookups) {
        if (l.step) continue;
        auto it = steps.find(l.sessionId);
        if (it == steps.end()) continue;
        auto& v = it->second;
        auto pos = std::upper_bound(v.begin(), v.end(), std::make_pair(l.tsNs, INT64_MAX));
        if (pos != v.begin()) l.step = std::prev(pos)->second;
    }

    reader.query(
        "SELECT id, session_id, ts_ns, event, method_sid, world FROM methods "
        "ORDER BY session_id, ts_ns IS NOT NULL, ts_ns, id",
        [&](const trace::Row& st) {
            auto event = trace::colInt(st, 3);
            if (event != CS_METHOD_DEFINE && event != CS_METHOD_REDEFINE && event != CS_METHOD_DELETE) return;
            facts.methods.push_back({.id = trace::colInt(st, 0), .sessionId = trace::colInt(st, 1),
                                     .tsNs = trace::colOpt(st, 2), .event = static_cast<int>(trace::colInt(st, 3)),
                                     .method = trace::colInt(st, 4), .world = trace::colOpt(st, 5)});
        });

    // One cache_stats() call records hits, misses and entries as three rows a few ns apart (each
    // counter event takes the clock). Consecutive rows of one session and scope form one snapshot
    // while no name repeats and no lookup of the session happened in between.
    std::map<std::int64_t, std::vector<std::int64_t>> lookupTimes;  // session -> sorted ts
    for (const auto& l : facts.lookups) lookupTimes[l.sessionId].push_back(l.tsNs);
    auto lookupBetween = [&](std::int64_t session, std::int64_t from, std::int64_t to) {
        auto it = lookupTimes.find(session);
        if (it == lookupTimes.end()) return false;
        auto pos = std::upper_bound(it->second.begin(), it->second.end(), from);
        return pos != it->second.end() && *pos <= to;
    };
    reader.query(
        "SELECT c.id, c.session_id, c.ts_ns, coalesce(c.scope_sid, 0), n.str, c.value FROM counters c "
        "JOIN strings n ON n.id = c.name_sid ORDER BY c.session_id, c.ts_ns, c.scope_sid, c.id",
        [&](const trace::Row& st) {
            auto session = trace::colInt(st, 1), ts = trace::colInt(st, 2);
            auto scope = trace::colInt(st, 3);
            std::string name = st.text(4);
            if (name != "hits" && name != "misses" && name != "entries") return;  // not cache_stats()
            bool join = !facts.counters.empty();
            if (join) {
                const auto& b = facts.counters.back();
                const auto& slot = name == "hits" ? b.hits : name == "misses" ? b.misses : b.entries;
                join = b.sessionId == session && b.scope == scope && !slot && !lookupBetween(session, b.tsNs, ts);
            }
            if (!join) facts.counters.push_back({.sessionId = session, .tsNs = ts, .scope = scope});
            auto& snap = facts.counters.back();
            snap.tsNs = ts;
            snap.rowIds.push_back(trace::colInt(st, 0));
            auto v = trace::colInt(st, 5);
            (name == "hits" ? snap.hits : name == "misses" ? snap.misses : snap.entries) = v;
        });
    loadRuntimeNotes(reader, facts);
    return facts;
}

}  // namespace cs::engine
