// Session clocks: where each session's timestamps sit on a shared display axis.
//
// Why: one trace can hold sessions whose timestamps come from different clocks. Recorded sessions
// use CLOCK_MONOTONIC (comparable with each other: they ran on one machine, one after another or
// at once); imported files each count from their own zero ("relative": a Warp log, a Julia
// timing list, a clang -ftime-trace). Drawn on one axis as they are, a merged trace spans the
// machine's uptime (hours) with the imported work squeezed at zero. Here every shared clock is
// shifted to start at zero, its sessions keeping their distances; each relative session is a
// domain of its own and stays as it is (it already counts from its own start). Add
// offsetOf(session) to a session's timestamps to display them.
#pragma once

#include "core/trace/reader.h"

#include <cstdint>
#include <unordered_map>

namespace cs::engine {

struct SessionClocks {
    std::unordered_map<std::int64_t, std::int64_t> offsets;  // session id -> ns to add
    int domains = 0;                                         // distinct clock domains seen
    int sharedDomains = 0;                                   // of which machine clocks (CLOCK_MONOTONIC ...)

    // A shared clock next to other domains: drawn as they are, they would be hours apart.
    bool mixed() const { return sharedDomains > 0 && domains > 1; }

    std::int64_t offsetOf(std::int64_t session) const {
        auto it = offsets.find(session);
        return it == offsets.end() ? 0 : it->second;
    }
};

// Reads sessions (id, clock, start) and the earliest timestamp of each session's spans, module
// loads and CUDA programs (some importers leave a session's start unset).
SessionClocks sessionClocks(const trace::TraceReader& reader);

}  // namespace cs::engine
