// What a recording could not store after its trace stopped accepting writes, said on stderr and in a
// sidecar note `<trace>.note`.
//
// Why (issue 40): with `ulimit -f` small, 42 of 400,000 spans survived, the recorder printed one
// warning and `info` said "nothing dropped": the trace cannot hold a count of what it failed to
// hold. So the recorder counts, per table, the events that reached it (stored or not), and after
// the failure reads the rows the trace kept; the difference is what the failure cost. The job's
// collectors, whose sockets the recorder shuts after the failure, count the rest themselves
// (cs_dropped_count(), and their arenas, which the recorder reads). The note is a few key=value
// lines beside the trace, small enough to fit where the trace did not; docs/collector.md describes it.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace cs::recorder {

// Events received per wire event type (index type - CS_WIRE_FIRST_EVENT).
using EventCounts = std::array<std::int64_t, 16>;

// Counts the whole messages at the front of [data, data + n) into `counts`; returns the bytes they
// take (a partial message at the end is left), or n when the framing is broken (nothing to resync).
std::size_t countMessages(const unsigned char* data, std::size_t n, EventCounts& counts);

// The offset just past the `events`-th event message of [data, data + n) (control messages before
// it included): where a feed that threw after handling `events` events stopped.
std::size_t skipEvents(const unsigned char* data, std::size_t n, std::int64_t events);

struct WriteFailure {
    std::string reason;                // the writer's error: table and the system's reason
    EventCounts received{};            // events that reached the recorder, stored or not
    std::int64_t droppedByCollectors = 0;  // counted by the job's processes after the recorder stopped
    std::int64_t withoutArena = 0;     // processes whose counts the recorder cannot read (no arena)
};

// Compares `f.received` with the rows the trace kept (read-only), writes `<trace>.note` and returns
// the line for stderr ("" when nothing can be said beyond the first warning).
std::string reportWriteFailure(const std::string& tracePath, const WriteFailure& f);

}  // namespace cs::recorder
