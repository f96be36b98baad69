#include "core/engine/session_clocks.h"
#include "core/engine/session_time.h"
#include "core/trace/row.h"
#include "core/util/saturating.h"

#include <sqlite3.h>

#include <algorithm>
#include <map>
#include <optional>
#include <string>

namespace cs::engine {

namespace {
// Clocks whose readings are comparable across sessions. Anything else (empty, "relative", an
// unknown name) is taken to count from the session's own zero.
bool shared(const std::string& clock) { return isSharedClock(clock); }
}  // namespace

SessionClocks sessionClocks(const trace::TraceReader& reader) {
    struct Session {
        std::string clock;
        std::optional<std::int64_t> first;
    };
    std::map<std::int64_t, Session> sessions;
    auto lower = [&](std::int64_t id, std::int64_t ns) {
        auto& f = sessions[id].first;
        if (!f || ns < *f) f = ns;
    };
    reader.query("SELECT s.id, coalesce(c.str, ''), s.start_ns FROM sessions s LEFT JOIN strings c ON c.id = s.clock_sid",
                 [&](sqlite3_stmt* st) {
                     auto id = trace::colInt(st, 0);
                     sessions[id].clock = reinterpret_cast<const char*>(sqlite3_column_text(st, 1));
                     if (sqlite3_column_type(st, 2) != SQLITE_NULL) lower(id, trace::colInt(st, 2));
                 });
    auto firstOf = [&](const std::string& sql) {
        reader.query(sql, [&](sqlite3_stmt* st) {
            if (sqlite3_column_type(st, 1) != SQLITE_NULL) lower(trace::colInt(st, 0), trace::colInt(st, 1));
        });
    };
    // Each is one aggregate over an index or a small table.
    firstOf("SELECT t.session_id, (SELECT min(start_ns) FROM spans WHERE track_id = t.id) FROM tracks t");
    firstOf("SELECT session_id, min(start_ns) FROM module_loads GROUP BY session_id");
    firstOf("SELECT session_id, min(start_ns) FROM cuda_programs GROUP BY session_id");

    SessionClocks out;
    std::map<std::string, std::int64_t> sharedOrigin;  // clock name -> earliest reading
    for (const auto& [id, s] : sessions) {
        if (!shared(s.clock) || !s.first) continue;
        auto [it, fresh] = sharedOrigin.emplace(s.clock, *s.first);
        if (!fresh) it->second = std::min(it->second, *s.first);
    }
    out.domains = out.sharedDomains = static_cast<int>(sharedOrigin.size());
    for (const auto& [id, s] : sessions) {
        if (shared(s.clock)) {
            auto it = sharedOrigin.find(s.clock);
            out.offsets[id] = it == sharedOrigin.end() ? 0 : util::satNeg(it->second);
        } else {
            out.offsets[id] = 0;  // already counts from its own start
            ++out.domains;
        }
    }
    return out;
}

}  // namespace cs::engine
