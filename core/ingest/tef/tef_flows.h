// Binds Trace Event Format flow events to the slices they point at, while streaming.
//
// Why this is its own piece: a flow arrow in TEF is not attached to a slice by id. Old-style flow
// events (`s`, `t`, `f`) carry only a thread and a timestamp; the viewer binds each one to the slice
// that encloses that timestamp on that thread, or, for an `f` without `"bp": "e"`, to the next slice
// that begins there. New-style flows put `bind_id` with `flow_out` / `flow_in` on the slices
// themselves. A streaming importer sees the slices in file order, not in time order: clang writes
// children before their parents, a `B` slice is only complete at its `E`, and a flow event may come
// before or after its slice. So each flow endpoint is bound at once when a recently completed slice
// on its track fits, and otherwise waits for the next completed slice that fits. Consecutive
// endpoints of one flow (same `cat` and `id`) become rows of the `flows` table as soon as both ends
// are bound. Memory grows with the number of flow endpoints (a few dozen bytes each), never with
// the number of slices; what never binds is counted.
#pragma once

#include "core/trace/writer.h"

#include <cstdint>
#include <deque>
#include <string>
#include <unordered_map>
#include <vector>

namespace cs::ingest {

class TefFlowBinder {
public:
    explicit TefFlowBinder(trace::TraceWriter& writer) : m_writer(writer) {}

    // A slice finished on `track` (all tracks are importer-local small integers).
    void onSlice(std::int64_t track, std::int64_t spanId, std::int64_t startNs, std::int64_t endNs);
    // An old-style flow event. `phase` is 's', 't' or 'f'; `enclosing` is false only for an `f` whose
    // binding point is the next slice; `openSlices` says whether `B` slices are open on the track.
    // Returns false for a step without a start (the caller counts it as malformed); an end read before
    // its start waits for it.
    bool onFlowEvent(std::int64_t track, char phase, const std::string& key, std::int64_t tsNs, bool enclosing,
                     bool openSlices, trace::StringId name);
    // New-style flow attributes of a finished slice.
    void onBindId(const std::string& bindId, std::int64_t spanId, bool flowOut, bool flowIn);

    // Endpoints that never found a slice, and new-style `flow_in`s whose source never came.
    std::int64_t unbound() const;
    std::int64_t flowsWritten() const { return m_written; }

private:
    struct Endpoint {
        std::int64_t spanId = 0;  // 0 = waiting
        std::int64_t prev = -1, next = -1;
        trace::StringId name = 0;
    };
    struct Waiting {
        std::int64_t endpoint;
        std::int64_t tsNs;
        bool enclosing;
    };
    struct Recent {
        std::int64_t spanId, startNs, endNs;
    };
    struct TrackState {
        std::deque<Recent> recent;  // the last few finished slices
        std::vector<Waiting> waiting;
    };

    std::int64_t findRecent(const TrackState& t, std::int64_t tsNs, bool enclosing) const;
    void bind(std::int64_t endpoint, std::int64_t spanId);
    void link(std::int64_t from, std::int64_t to);

    trace::TraceWriter& m_writer;
    std::unordered_map<std::int64_t, TrackState> m_tracks;
    std::unordered_map<std::int64_t, Endpoint> m_endpoints;
    std::unordered_map<std::string, std::int64_t> m_openChains;  // cat+id -> last endpoint
    std::unordered_map<std::string, std::int64_t> m_earlyEnds;   // cat+id -> an `f` read before its `s`
    std::unordered_map<std::string, std::int64_t> m_flowOut;     // bind_id -> source span
    std::unordered_map<std::string, std::vector<std::int64_t>> m_flowInWaiting;
    std::int64_t m_nextEndpoint = 0;
    std::int64_t m_written = 0;
    std::int64_t m_lostEarlyEnds = 0;
};

}  // namespace cs::ingest
