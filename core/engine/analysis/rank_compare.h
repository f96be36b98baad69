// The ranks of one job, compared from their analyses: the one place `check`, the report's Ranks
// section and the GUI's Ranks view turn a TraceAnalysis into an engine::RankTrace, so the three show
// the same compile times, misses and divergences (the "one analysis" rule, docs/architecture.md).
#pragma once

#include "core/engine/cache/rank_divergence.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cs::engine {

struct TraceAnalysis;

// `analysis` null: a rank not analysed (yet); it has no lookups and no compile time, so it takes no
// part in the slow-rank rule. The RankTrace points into `analysis`, which must outlive it.
RankTrace rankTraceOf(const std::string& label, const TraceAnalysis* analysis);

// Whether several traces are the ranks of one job (issue 35): every trace's sessions ran the same
// programs (the same runtime and command line, or imported file, per session, as a set). Traces of
// unrelated programs open side by side and are compared as ranks only when the user says so
// (`--ranks`). Null analyses are left out; fewer than two traces are never ranks.
bool tracesOfOneProgram(const std::vector<const TraceAnalysis*>& analyses);

// The rank's lookups that missed in the replay.
std::int64_t rankMisses(const RankTrace& rank);

}  // namespace cs::engine
