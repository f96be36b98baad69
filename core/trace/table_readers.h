// Typed readers of the two tables every front end reads: sessions (who was recorded) and stats (what
// was dropped, malformed or skipped).
//
// Why one reader each: the engine, the importers' merge and the CLI used to each write their own
// SELECT over these tables, and their readings drifted (one loss figure left out a counter). Reading
// them here, whole and typed, gives every caller the same rows; the tables are small (a session per
// process or imported file, a stats row per counter and session).
#pragma once

#include "core/trace/records.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cs::trace {

class TraceReader;

// One row of `sessions`, its strings resolved ("" where NULL or unknown).
struct StoredSession {
    std::int64_t id = 0;
    OptInt pid, ppid, parentSessionId;
    std::string host, cmdline, runtime, source, clock;
    StringId cmdlineSid = 0, sourceSid = 0;  // as stored, 0 for NULL
    OptInt startNs, endNs, exitStatus;
};

// One row of `stats`.
struct StoredStat {
    OptInt sessionId;  // NULL: file-wide
    std::string name, source;
    std::int64_t count = 0;
    std::string detail;  // first example; "" when none
};

// In id order. Throw TraceError as TraceReader::query does.
std::vector<StoredSession> readSessions(const TraceReader& reader);
std::vector<StoredStat> readStats(const TraceReader& reader);

}  // namespace cs::trace
