// Divergence across the ranks of one job: several traces that should have compiled the same programs.
//
// Why: in a data-parallel job every rank runs the same program; a rank that compiles a different key
// (a ragged shard, a rank-local GraphConst) or misses at a step the others hit pays its compile while
// the rest wait at the next collective, so one rank's recompile costs the whole job. the ReactantNitro guide's (docs/cache-replay.md)
// acceptance rule ("no recompile after the first step") is judged per rank by `check`; this compares
// the ranks with each other: programs (by key, compared as text since each trace interns its own
// strings) that not every rank compiled, (program, step) pairs at which only some ranks missed, and,
// with three ranks or more, a rank whose compile time is far above the median rank's (a cold cache on
// one node, a rank-local shape): the job runs at the pace of its slowest rank.
#pragma once

#include "core/engine/cache/cache_facts.h"
#include "core/engine/cache/cache_replay.h"
#include "core/engine/common/finding.h"

#include <optional>
#include <string>
#include <vector>

namespace cs::engine {

struct RankTrace {
    std::string label{};  // e.g. the trace's file name
    const CacheFacts* facts = nullptr;
    const ReplayResult* replay = nullptr;
    // The rank's total compile time (CompileSummary::compileNs), for the slow-rank rule; unset: not
    // known, the rank takes no part in it.
    std::optional<std::int64_t> compileNs{};
};

// A compile on one rank: the evidence of a divergence.
struct RankCompile {
    std::string rank{};
    std::int64_t lookupId = 0;  // cache_lookups.id in that rank's trace
    std::int64_t compileNs = 0;
};

struct RankProgramDivergence {
    std::string key{};  // "gradient(shape of arg 2=128x64, accum=1)"
    std::vector<std::string> compiledBy{}, notBy{};
    std::vector<RankCompile> compiles{};  // first compile of the key on each rank that compiled it
};

struct RankStepDivergence {
    std::string program{};
    std::int64_t step = 0;
    std::vector<std::string> missedBy{}, notBy{};
};

// A rank that compiled far longer than the median rank: at least kSlowRankFactor times the median
// and kSlowRankMinNs more (so that microsecond noise over tiny medians is not a finding).
inline constexpr double kSlowRankFactor = 2.0;
inline constexpr std::int64_t kSlowRankMinNs = 100'000'000;
struct RankSlow {
    std::string rank{};
    std::int64_t compileNs = 0, medianNs = 0;
    std::vector<RankCompile> longest{};  // that rank's longest compiles (up to 3), the evidence
};

// "rank r3 compiled for 42.0 s, 2.8x the median rank's 15.0 s": the finding's title and check's line.
std::string slowRankText(const RankSlow& s);

struct RankDivergence {
    std::vector<std::string> ranks{};
    std::vector<RankProgramDivergence> programs{};
    std::vector<RankStepDivergence> steps{};
    std::vector<RankSlow> slow{};  // slowest first
    std::optional<std::int64_t> medianCompileNs{};  // over the ranks with a known time; three or more
    // Ranks that compiled different programs or missed at different steps (check fails on it). A slow
    // rank alone is a warning: same programs, same steps, more time.
    bool diverges() const { return !programs.empty() || !steps.empty(); }
};

RankDivergence compareRanks(const std::vector<RankTrace>& ranks);

// One finding per divergent program ("cache.rank_divergence"): the ranks that paid a compile the
// others did not; and one per slow rank ("cache.rank_slow"), costed at the time the others wait for
// it (its compile time less the median). Evidence rows belong to the trace named in each note.
std::vector<Finding> rankDivergenceFindings(const RankDivergence& d);

// The in-key components of a lookup as text, for comparing keys across traces.
std::string keyText(const CacheFacts& facts, const Lookup& l);

}  // namespace cs::engine
