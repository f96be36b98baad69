#include "core/trace/table_readers.h"

#include "core/trace/reader.h"

namespace cs::trace {

// The strings by join, not TraceReader::str: one statement, and no write to the reader's string cache
// (a reader's workers may read sessions at once).
std::vector<StoredSession> readSessions(const TraceReader& reader) {
    std::vector<StoredSession> out;
    reader.query("SELECT s.id, s.pid, s.ppid, s.parent_session_id, h.str, coalesce(s.cmdline_sid, 0), c.str, r.str, "
                 "coalesce(s.source_sid, 0), f.str, k.str, s.start_ns, s.end_ns, s.exit_status FROM sessions s "
                 "LEFT JOIN strings h ON h.id = s.host_sid LEFT JOIN strings c ON c.id = s.cmdline_sid "
                 "LEFT JOIN strings r ON r.id = s.runtime_sid LEFT JOIN strings f ON f.id = s.source_sid "
                 "LEFT JOIN strings k ON k.id = s.clock_sid ORDER BY s.id",
                 [&](const Row& r) {
                     StoredSession s;
                     s.id = r.integer(0);
                     s.pid = r.optInteger(1);
                     s.ppid = r.optInteger(2);
                     s.parentSessionId = r.optInteger(3);
                     s.host = r.text(4);
                     s.cmdlineSid = r.integer(5);
                     s.cmdline = r.text(6);
                     s.runtime = r.text(7);
                     s.sourceSid = r.integer(8);
                     s.source = r.text(9);
                     s.clock = r.text(10);
                     s.startNs = r.optInteger(11);
                     s.endNs = r.optInteger(12);
                     s.exitStatus = r.optInteger(13);
                     out.push_back(std::move(s));
                 });
    return out;
}

std::vector<StoredStat> readStats(const TraceReader& reader) {
    std::vector<StoredStat> out;
    reader.query("SELECT session_id, name, source, count, detail FROM stats ORDER BY id", [&](const Row& r) {
        out.push_back({r.optInteger(0), r.text(1), r.text(2), r.integer(3), r.text(4)});
    });
    return out;
}

}  // namespace cs::trace
