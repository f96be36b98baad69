// Divergence across the ranks of one job: several traces that should have compiled the same programs.
//
// Why: in a data-parallel job every rank runs the same program; a rank that compiles a different key
// (a ragged shard, a rank-local GraphConst) or misses at a step the others hit pays its compile while
// the rest wait at the next collective, so one rank's recompile costs the whole job. Seed 000's
// acceptance rule ("no recompile after the first step") is judged per rank by `check`; this compares
// the ranks with each other: programs (by key, compared as text since each trace interns its own
// strings) that not every rank compiled, and (program, step) pairs at which only some ranks missed.
#pragma once

#include "cache_facts.h"
#include "cache_replay.h"

#include <string>
#include <vector>

namespace cs::engine {

struct RankTrace {
    std::string label{};  // e.g. the trace's file name
    const CacheFacts* facts = nullptr;
    const ReplayResult* replay = nullptr;
};

struct RankProgramDivergence {
    std::string key{};  // "gradient(shape of arg 2=128x64, accum=1)"
    std::vector<std::string> compiledBy{}, notBy{};
};

struct RankStepDivergence {
    std::string program{};
    std::int64_t step = 0;
    std::vector<std::string> missedBy{}, notBy{};
};

struct RankDivergence {
    std::vector<std::string> ranks{};
    std::vector<RankProgramDivergence> programs{};
    std::vector<RankStepDivergence> steps{};
    bool diverges() const { return !programs.empty() || !steps.empty(); }
};

RankDivergence compareRanks(const std::vector<RankTrace>& ranks);

// The in-key components of a lookup as text, for comparing keys across traces.
std::string keyText(const CacheFacts& facts, const Lookup& l);

}  // namespace cs::engine
