// Numba findings: one function compiled for several argument-type signatures at call time.
//
// Why: Numba compiles lazily, one overload per new argument-type tuple, in the middle of the run
// (the first call with the new types waits for it). The collector (collectors/python/compilescope/
// numba.py) records each compile's argument types and whether a call triggered it (host component
// `trigger` = `call`); an explicit signature list compiles every overload at definition instead, and
// `compilescope fix` writes that list from the types seen (docs/fix.md).
#pragma once

#include "core/engine/cache/cache_analysis.h"
#include "core/engine/common/finding.h"

#include <vector>

namespace cs::engine::jit {

// Kind "numba.type_churn": a dispatcher that compiled three or more argument-type signatures at call
// time in one session. Compiles recorded without a trigger (older traces) count as call-time compiles.
std::vector<Finding> numbaFindings(const CacheAnalysis& cache);

}  // namespace cs::engine::jit
