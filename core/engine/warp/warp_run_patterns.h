// Warp module loads judged against the rest of their run, and runs judged against each other.
//
// Why: a cached load is normally milliseconds (newton-physics/newton#918: 34-75 ms on CI), so one that
// takes seconds (the same log: solver_mujoco 9a8f779 ... took 2438.61 ms (cached)) is not "loaded from
// cache" in any useful sense: something still compiled or waited. And a trace often holds a cold and a
// warm run; unless they are related by identity, the warm run looks like a second, cheaper program.
//   slow cache hit  a cached load >= 10 x the session's median cached load and >= 100 ms, with at least
//                   4 cached loads to take the median from. Likely cause, in order of evidence: the same
//                   identity loaded fast elsewhere (a cold driver / disk cache, not the module); on CUDA,
//                   the driver compiling the PTX that Warp caches by default when the driver is at least
//                   as new as its toolkit (warp/_src/context.py get_cuda_output_format; the banner's
//                   versions say which); on the CPU, linking a large object file. Cost = load - median.
//   runs related    identities compiled in an earlier session and loaded from cache in a later one are
//                   matched by (name, hash, device, block_dim) and reported together, per pair of runs
//                   ("2 identities, compiled in run 1, loaded from cache in run 2"); information, no cost.
#pragma once

#include "core/engine/common/finding.h"
#include "core/engine/warp/warp_modules.h"

#include <vector>

namespace cs::engine::warp {

inline constexpr double kSlowCacheHitFactor = 10.0;
inline constexpr std::int64_t kSlowCacheHitMinNs = 100'000'000;
inline constexpr size_t kSlowCacheHitMinLoads = 4;

void slowCacheHitFindings(const ModuleReport& r, std::int64_t session, std::vector<Finding>& out);
void relatedRunsFindings(const ModuleReport& r, std::vector<Finding>& out);

} // namespace cs::engine::warp
