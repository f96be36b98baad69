#include "core/engine/accounting/session_clocks.h"
#include "core/engine/common/session_time.h"
#include "core/trace/row.h"
#include "core/trace/table_readers.h"
#include "core/util/saturating.h"

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
    for (const trace::StoredSession& s : trace::readSessions(reader)) {
        sessions[s.id].clock = s.clock;
        if (s.startNs) lower(s.id, *s.startNs);
    }
    auto firstOf = [&](const std::string& sql) {
        reader.query(sql, [&](const trace::Row& st) {
            if (!st.isNull(1)) lower(trace::colInt(st, 0), trace::colInt(st, 1));
        });
    };
    // Each is one aggregate over an index or a small table.
    firstOf("SELECT t.session_id, (SELECT min(start_ns) FROM spans WHERE track_id = t.id) FROM tracks t");
    // Tables without a session index: one pass, the minimum kept here (GROUP BY sorted every row).
    firstOf("SELECT session_id, start_ns FROM module_loads");
    firstOf("SELECT session_id, start_ns FROM cuda_programs");

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
