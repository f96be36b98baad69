// PyramidView: a trace's span pyramid (core/trace/pyramid.h) as a view asks for it, a lane's buckets
// over a time range at the level that suits a zoom.
//
// Why: the first paint of a trace must not wait for its spans (issue 41). A view of any range needs a
// few buckets per pixel, which the pyramid holds at every zoom; the spans themselves are read later,
// for the visible range only, once the zoom is close enough for them to be few. A trace that stores
// no pyramid (format v1) gets one summed in memory from its spans on open, with progress; that costs
// a scan, which pyramid_migrate.h saves for every later open when the user lets it write the file.
// Thread-safe: the stored pyramid is read on a connection of the view's own, one query at a time.
#pragma once

#include "core/engine/common/load_control.h"
#include "core/trace/pyramid.h"

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

namespace cs::trace {
class TraceReader;
}

namespace cs::engine {

class PyramidView {
public:
    // The pyramid of the trace `reader` reads. Stored: read through a second connection (another(),
    // or one that defers its page check too when `reader` deferred it), nothing is read now. Not stored: summed from the spans now (progress "summing spans";
    // throws LoadCancelled or trace::TraceError).
    static std::unique_ptr<PyramidView> open(const trace::TraceReader& reader, const LoadControl& control = {});
    ~PyramidView();

    bool stored() const { return m_reader != nullptr; }
    // The finest level whose buckets are at least `nsPerBucket` wide (the coarsest level when none
    // is): a view passes its ns per pixel and gets at most one bucket per pixel.
    static int levelFor(std::int64_t nsPerBucket);
    // The buckets of lane `trackId` at `level` that start in [t0, t1), in time order. A bucket holds
    // the spans that start in it, so a caller that draws spans reaching into t0 from before asks for
    // t0 minus the longest span it cares to see.
    std::vector<trace::PyramidBucket> buckets(std::int64_t trackId, int level, std::int64_t t0, std::int64_t t1) const;
    // [start, end) of the level-0 buckets that hold the lane's spans; nullopt for a lane without any.
    std::optional<std::pair<std::int64_t, std::int64_t>> laneExtent(std::int64_t trackId) const;
    // How many spans of the lane start in [t0, t1): exact when t0 and t1 fall on level-0 bucket
    // edges, otherwise the level-0 buckets at both ends count whole (an upper bound).
    std::int64_t spansStartingIn(std::int64_t trackId, std::int64_t t0, std::int64_t t1) const;

private:
    PyramidView() = default;
    std::int64_t countFrom(std::int64_t trackId, int level, std::int64_t t0, std::int64_t t1) const;
    std::unique_ptr<trace::TraceReader> m_reader;  // a stored pyramid
    mutable std::mutex m_mutex;
    // A summed pyramid: (track, level) -> buckets in order.
    std::map<std::pair<std::int64_t, int>, std::vector<trace::PyramidBucket>> m_memory;
};

}  // namespace cs::engine
