// Each runtime's own words for what its cache compiles (issue 35, "verdicts in the runtime's own
// words"): a PyTorch frame, a JAX function, a Numba dispatcher, a ReactantNitro program.
//
// Why: the acceptance check and its text came from the ReactantNitro guide (docs/cache-replay.md),
// whose "one Nitro", cache_stats() and training-run program count mean nothing to a PyTorch, JAX or
// Numba user. The caches' names are the ones the importers and collectors record.
#pragma once

#include "core/engine/cache/cache_facts.h"

#include <string>

namespace cs::engine {

// "PyTorch frames", "JAX functions", "Numba functions" for those runtimes' caches; "" for any other
// (ReactantNitro's, or a cache no runtime here names).
std::string otherRuntimeUnits(const std::string& cache);

// Whether the trace's lookups come from ReactantNitro's cache (ReactantNitro.CACHE), the one whose
// counters are cache_stats() and whose acceptance run is one Nitro.
bool usesReactantNitro(const CacheFacts& facts);

}  // namespace cs::engine
