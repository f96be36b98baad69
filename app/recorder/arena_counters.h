// What a recorded process counted but never told the recorder: its arena's counters.
//
// Why (issue 40): a recorder stalled for seconds (SIGSTOP, a slow disk) makes a collector's send time
// out; the collector then drops and counts every further event, but its DROPPED messages have no
// connection to travel on, so the loss was known only inside the job and the trace said "nothing
// dropped". Every drop a process counts is also in its arena memfd (the slots' counters and the
// header's `dropped_elsewhere`, wire_protocol.h), which the recorder holds. When a process's stream
// ends, or when the recording finishes, the recorder reads those counters and stores, per reason,
// what no DROPPED message brought; events still in the rings of a process that outlived the
// recording are counted too. The memfd is untrusted: the header is checked as the drain checks it.
#pragma once

#include "wire_session.h"

#include <compilescope/wire_protocol.h>

#include <cstdint>
#include <string>

namespace cs::recorder {

struct ArenaCounters {
    std::uint64_t dropped[CS_DROP_REASONS] = {};  // every drop the process counted, by reason
    std::uint64_t privateLost = 0;  // events of private rings neither sent nor counted (published - done)
    std::uint64_t buffered = 0;     // events still in the slots' rings past what the recorder received
};

// Reads arena `fd`; returns "" or why it cannot be read. `session` gives the received ring ends.
std::string readArenaCounters(int fd, const WireSession& session, ArenaCounters& out);

// Stores (stats, source "collector") the drops of `counters` that `session` has not received, and
// notes them as received so a later call adds only what is new. Returns the events stored.
std::int64_t storeUnreportedDrops(const ArenaCounters& counters, WireSession& session, trace::TraceWriter& writer);

}  // namespace cs::recorder
