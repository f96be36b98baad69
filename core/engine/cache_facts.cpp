#include "cache_facts.h"

#include "core/trace/reader.h"

#include <sqlite3.h>

#include <algorithm>
#include <map>
#include <unordered_map>

namespace cs::engine {

namespace {
std::optional<std::int64_t> optInt(sqlite3_stmt* st, int i) {
    if (sqlite3_column_type(st, i) == SQLITE_NULL) return std::nullopt;
    return sqlite3_column_int64(st, i);
}
}  // namespace

const std::string& CacheFacts::str(Sid id) const {
    static const std::string empty;
    auto it = strings.find(id);
    return it == strings.end() ? empty : it->second;
}

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

CacheFacts loadCacheFacts(const trace::TraceReader& reader) {
    CacheFacts facts;
    reader.query("SELECT id, str FROM strings ORDER BY id", [&](sqlite3_stmt* st) {
        auto id = sqlite3_column_int64(st, 0);
        if (id <= 0) return;  // 0 means "no string"
        auto* text = sqlite3_column_text(st, 1);
        facts.strings[id] = text ? reinterpret_cast<const char*>(text) : "";
    });

    std::unordered_map<std::int64_t, size_t> byId;
    reader.query(
        "SELECT id, session_id, ts_ns, coalesce(cache_sid, 0), program_sid, coalesce(handle_sid, 0), verdict, "
        "compile_ns, coalesce(fingerprint_sid, 0), step FROM cache_lookups ORDER BY session_id, ts_ns, id",
        [&](sqlite3_stmt* st) {
            Lookup l;
            l.id = sqlite3_column_int64(st, 0);
            l.sessionId = sqlite3_column_int64(st, 1);
            l.tsNs = sqlite3_column_int64(st, 2);
            l.cache = sqlite3_column_int64(st, 3);
            l.program = sqlite3_column_int64(st, 4);
            l.handle = sqlite3_column_int64(st, 5);
            auto verdict = sqlite3_column_int64(st, 6);
            // A code this format does not define says nothing about the runtime's verdict.
            l.verdict = verdict == CS_VERDICT_HIT || verdict == CS_VERDICT_MISS ? static_cast<int>(verdict)
                                                                                 : CS_VERDICT_UNKNOWN;
            l.compileNs = optInt(st, 7);
            l.fingerprint = sqlite3_column_int64(st, 8);
            l.step = optInt(st, 9);
            byId[l.id] = facts.lookups.size();
            facts.lookups.push_back(std::move(l));
        });
    reader.query(
        "SELECT lookup_id, name_sid, role, coalesce(digest_sid, value_sid, 0), coalesce(value_sid, digest_sid, 0) "
        "FROM key_components ORDER BY lookup_id, ordinal",
        [&](sqlite3_stmt* st) {
            auto it = byId.find(sqlite3_column_int64(st, 0));
            if (it == byId.end()) return;  // a component of no lookup: nothing to key
            facts.lookups[it->second].components.push_back(
                {.name = sqlite3_column_int64(st, 1), .role = static_cast<int>(sqlite3_column_int64(st, 2)),
                 .digest = sqlite3_column_int64(st, 3), .value = sqlite3_column_int64(st, 4)});
        });
    reader.query("SELECT lookup_id, method_sid, world FROM closures ORDER BY rowid", [&](sqlite3_stmt* st) {
        auto it = byId.find(sqlite3_column_int64(st, 0));
        if (it == byId.end()) return;
        facts.lookups[it->second].closure.push_back({sqlite3_column_int64(st, 1), optInt(st, 2)});
    });

    // Lookups without a recorded step take the runtime's step counter at their time.
    std::map<std::int64_t, std::vector<std::pair<std::int64_t, std::int64_t>>> steps;  // session -> (ts, step)
    reader.query("SELECT session_id, ts_ns, step FROM steps ORDER BY session_id, ts_ns, id", [&](sqlite3_stmt* st) {
        steps[sqlite3_column_int64(st, 0)].push_back({sqlite3_column_int64(st, 1), sqlite3_column_int64(st, 2)});
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
        [&](sqlite3_stmt* st) {
            auto event = sqlite3_column_int64(st, 3);
            if (event != CS_METHOD_DEFINE && event != CS_METHOD_REDEFINE && event != CS_METHOD_DELETE) return;
            facts.methods.push_back({.id = sqlite3_column_int64(st, 0), .sessionId = sqlite3_column_int64(st, 1),
                                     .tsNs = optInt(st, 2), .event = static_cast<int>(sqlite3_column_int64(st, 3)),
                                     .method = sqlite3_column_int64(st, 4), .world = optInt(st, 5)});
        });

    // Counter rows read at the same instant for the same scope form one cache_stats() snapshot.
    reader.query(
        "SELECT c.id, c.session_id, c.ts_ns, coalesce(c.scope_sid, 0), n.str, c.value FROM counters c "
        "JOIN strings n ON n.id = c.name_sid ORDER BY c.session_id, c.ts_ns, c.scope_sid, c.id",
        [&](sqlite3_stmt* st) {
            auto session = sqlite3_column_int64(st, 1), ts = sqlite3_column_int64(st, 2);
            auto scope = sqlite3_column_int64(st, 3);
            auto* nameText = sqlite3_column_text(st, 4);
            std::string name = nameText ? reinterpret_cast<const char*>(nameText) : "";
            if (name != "hits" && name != "misses" && name != "entries") return;  // not cache_stats()
            if (facts.counters.empty() || facts.counters.back().sessionId != session ||
                facts.counters.back().tsNs != ts || facts.counters.back().scope != scope)
                facts.counters.push_back({.sessionId = session, .tsNs = ts, .scope = scope});
            auto& snap = facts.counters.back();
            snap.rowIds.push_back(sqlite3_column_int64(st, 0));
            auto v = sqlite3_column_int64(st, 5);
            (name == "hits" ? snap.hits : name == "misses" ? snap.misses : snap.entries) = v;
        });
    return facts;
}

}  // namespace cs::engine
