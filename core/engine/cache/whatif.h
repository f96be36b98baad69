// What-if replay: the same trace under a changed key rule.
//
// Why: a user who suspects a key component wants to know what changing the rule would buy before
// changing the runtime, so we rerun the recorded lookups under the changed rule and count the compiles
// and seconds saved (docs/cache-replay.md, whatif.*). The ReactantNitro guide (docs/cache-replay.md) shows why both directions matter:
// excluding a field that changes per step turns every-step misses into hits (its "Device fields ...
// hashing them would miss on every step"), and including one shows what a key that is too fine would
// cost. A hit that exclusion creates is only safe if the program served is the same graph: where
// fingerprints are recorded and differ, the what-if reports it as unsafe (the ReactantNitro guide (docs/cache-replay.md): "a key that
// skipped shapes would serve it a program compiled for a different width").
//
// Seconds saved are the recorded compile times of the lookups that stop missing. A lookup that starts
// missing costs the mean recorded compile time of its program (an estimate, said so).
#pragma once

#include "core/engine/cache/cache_facts.h"
#include "core/engine/cache/cache_replay.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cs::engine {

struct VerdictFlip {
    size_t lookup = 0;
    bool nowHit = false;     // true: miss -> hit (saved); false: hit -> miss (lost)
    std::int64_t costNs = 0; // compile time saved (nowHit) or estimated lost
    bool estimated = false;  // cost is a program mean, not a recorded compile
    bool unsafe = false;     // the hit would serve a program whose fingerprint differs
};

struct WhatIfResult {
    KeyRule rule{};
    ReplayCounts baseline{}, changed{};
    std::vector<VerdictFlip> flips{};
    std::int64_t compilesSaved = 0;  // negative when compiles are added
    std::int64_t nsSaved = 0;        // negative when time is lost
    std::size_t unsafeHits = 0;
    std::vector<std::string> unknownNames{};  // rule names that match no component of the trace
};

WhatIfResult whatIf(const CacheFacts& facts, const ReplayResult& baseline, const KeyRule& rule);

}  // namespace cs::engine
