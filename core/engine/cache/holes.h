// The two holes in the key: what neither the key nor the closure guard can see.
//
// The ReactantNitro guide (docs/cache-replay.md), "Two holes in the key": "Constants reached from a method body are not in the key. A const
// in your module, a global, an edited literal ... A value your model closed over is not in the key
// either ... two experiments that differ only in a captured value produce the same key, and the
// second reuses the first's program without any error." docs/cache-replay.md ("Two holes in the key") turns this into two
// checks on the graph fingerprint (a hash of the emitted program) a collector records:
//  - same key, different fingerprint: the key missed a value that shapes the graph, so a program
//    compiled for one value is served for another (stale program served);
//  - different keys, same fingerprint: the key holds something that does not shape the graph (e.g. a
//    Device field hashed), so an identical program was compiled again (needless recompile).
// The runtime cannot see either: it never compares emitted programs. Keys are compared across every
// session of the trace, since the first hole shows up across processes (each compiles its own copy).
#pragma once

#include "core/engine/cache/cache_facts.h"
#include "core/engine/cache/cache_replay.h"
#include "core/engine/cache/miss_attribution.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cs::engine {

struct StaleProgramHole {
    std::string program{};
    std::vector<size_t> lookups{};        // one lookup per fingerprint seen under this key, in order
    std::vector<std::string> fingerprints{};
    std::vector<size_t> servedStale{};    // hits served a program whose fingerprint differs from theirs
};

struct NeedlessRecompileHole {
    std::string program{};
    std::string fingerprint{};
    std::vector<size_t> misses{};              // compiles of the same graph under different keys
    std::vector<ComponentChange> changes{};    // components that moved without changing the graph
    std::int64_t wastedNs = 0;               // compile time of every compile after the first
};

struct Holes {
    std::vector<StaleProgramHole> staleProgram{};
    std::vector<NeedlessRecompileHole> needlessRecompile{};
};

Holes findHoles(const CacheFacts& facts, const ReplayResult& replay);

}  // namespace cs::engine
