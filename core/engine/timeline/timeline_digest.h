// The timeline reduced to a fixed number of buckets per lane, whatever the trace's size: what the
// HTML report draws.
//
// Why buckets: a report must stay a few megabytes whatever the trace holds, and a lane drawn at 1000
// pixels cannot show more than 1000 things anyway (docs/practices.md 8: never hand a view more items
// than it has pixels). Each event adds the part of its duration that overlaps a bucket to that bucket's busy
// time, and counts in the bucket where it starts; a bucket's shade is its busy fraction, so a burst of
// a million tiny spans and one long compile both stay visible. Instants (cache misses) are drawn as
// ticks. One streaming pass per table with a few integers per event.
//
// The extent is the analysis's time span (compile_summary.h): the clocked work when the trace has
// some. Sessions laid end to end (sequence only) are then not drawn beside it, and are counted in
// `notDrawn`; a trace with nothing clocked draws its sequence-only sessions.
#pragma once

#include "core/engine/accounting/compile_summary.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cs::trace {
class TraceReader;
}

namespace cs::engine {

struct DigestLane {
    std::string name;
    std::int64_t events = 0, busyNs = 0;
    std::vector<std::int64_t> bucketBusyNs, bucketEvents;
    bool marks = false;  // instants (cache misses): drawn as ticks, not bars
};

struct TimelineDigest {
    std::int64_t startNs = 0, endNs = 0;  // display axis
    int buckets = 0;
    std::vector<DigestLane> lanes;
    std::vector<std::string> notDrawn;  // labels of sessions left out (no wall clock beside clocked work)
};

TimelineDigest digestTimeline(const trace::TraceReader& reader, const CompileSummary& summary, int buckets);

}  // namespace cs::engine
