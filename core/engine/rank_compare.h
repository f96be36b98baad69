// The ranks of one job, compared from their analyses: the one place `check`, the report's Ranks
// section and the GUI's Ranks view turn a TraceAnalysis into an engine::RankTrace, so the three show
// the same compile times, misses and divergences (the "one analysis" rule, DESIGN.md).
#pragma once

#include "core/engine/cache/rank_divergence.h"

#include <cstdint>
#include <string>

namespace cs::engine {

struct TraceAnalysis;

// `analysis` null: a rank not analysed (yet); it has no lookups and no compile time, so it takes no
// part in the slow-rank rule. The RankTrace points into `analysis`, which must outlive it.
RankTrace rankTraceOf(const std::string& label, const TraceAnalysis* analysis);

// The rank's lookups that missed in the replay.
std::int64_t rankMisses(const RankTrace& rank);

}  // namespace cs::engine
