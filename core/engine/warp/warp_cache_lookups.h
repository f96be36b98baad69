// Warp module loads as lookups of a persistent cache, so the cache replay, `explain` and the Cache
// view cover Warp as they cover ReactantNitro, PyTorch and JAX.
//
// Why: a Warp load that says "(compiled)" is exactly a cache miss and one that says "(cached)" a hit
// (the Warp guide, docs/warp.md): Warp keys its kernel cache by the module's identity. Before this,
// a Warp trace had "no cache lookups recorded" and its misses were never explained. Each compiled or
// cached load becomes one lookup of the cache "warp kernel cache (persistent)": program = module
// name, key = hash, device and block_dim (each role "other": for Warp the device is part of the
// identity, unlike a ReactantNitro Device field). The cache is persistent (it outlives the process),
// so a cached load of an identity this trace never compiled is a load from an earlier run's store,
// not a disagreement (cache_replay.h). Loads that errored or gave no result ask no cache question
// and are left out. The lookups are derived from the module report, not read from SQL a second time.
//
// Why a cache analysis of its own (TraceAnalysis::moduleCache) rather than more lookups of the
// recorded cache: the acceptance verdict and the cache_stats() cross-check judge a training run's
// program cache per process, and a Warp load in the same process would move their counts. And why
// its findings are not listed: the Warp diagnosis (warp_diagnosis.h) already names every mechanism
// behind these misses with its fix; a second finding for the same loads would count them twice.
#pragma once

#include "core/engine/cache/cache_analysis.h"
#include "core/engine/warp/warp_modules.h"

#include <memory>

namespace cs::engine::warp {

// The cache name every Warp module lookup carries.
inline constexpr const char* kWarpKernelCache = "warp kernel cache (persistent)";

// One lookup per compiled / cached load of `report`, in (session, time, load id) order; a load
// without a start time sorts first in its session.
CacheFacts moduleLookups(const ModuleReport& report);

// The cache analysis of those lookups; null when the report has no compiled or cached load.
std::shared_ptr<const CacheAnalysis> analyseModuleCache(const ModuleReport& report);

}  // namespace cs::engine::warp
