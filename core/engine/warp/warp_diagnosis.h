// Classifies Warp module loads by the Warp guide's (docs/warp.md) diagnosis table, one finding per mechanism and module.
//
// Why these rules: the Warp guide (docs/warp.md) ("What the probe shows -> what it means") is the map from evidence to
// mechanism, and each mechanism has its own fix, so two findings that share a symptom (several
// builds of one name) must still be told apart. What each rule needs and where it comes from:
//   several hashes of one name, device, block_dim -> identity churn; with kernel / option facts
//       (collector, or the log's debug hash-change lines) split into kernel defined after load
//       (CS-1), kernel changed after load, option set after load (CS-3), generic instance after
//       load (CS-6); cost = the superseded builds
//   several block_dims of one name and (non-CPU) device, compiled -> block_dim variants (CS-5);
//       cost = every build but the first block_dim's
//   an identity compiled in a later session after an earlier one had it, or compiled twice in one
//       session, or a probe's warm pass > 25% of cold -> cache not reused (CS-2)
//   an identity loaded again (cached) in one session -> repeated loads, counted per identity; cost =
//       the repeats
//   >= 4 modules of one package on one device, each built once, one kernel or unknown -> many
//       small modules (CS-4); cost ~ (n - 1) x the cheapest build (the fixed per-module floor)
//   >= 2 modules named "<kernel>_<hash8>" -> module="unique" on stable kernels (CS-9); same cost
//   >= 2 CUDA modules compiled, shown one at a time (debug entry markers that never interleave, or
//       a probe overlap_factor <= 1.15) -> builds not overlapped (CS-13); cost = sum - max, the
//       most overlap could save
//   LTO artifacts and > 50% of module time outside the native compiler -> link-dominated (CS-7)
//   a hash cycle or compile time rising with each hash -> their own findings instead of churn
//       (warp_hash_patterns.h), a unique module's hash unlike its name, a slow cache hit and runs
//       related by identity (warp_run_patterns.h)
// Costs are estimates from the recorded durations and say so. Nothing here fires on a trace where
// every module was built once, cached loads are not repeated, and no scheduling evidence exists.
#pragma once

#include "core/engine/common/finding.h"
#include "core/engine/warp/warp_modules.h"

#include <vector>

namespace cs::trace {
class TraceReader;
}

namespace cs::engine::warp {

// Thresholds of the rules above (the Warp guide (docs/warp.md) and the probe's own cut-offs).
inline constexpr size_t kManySmallModules = 4;
inline constexpr double kWarmReuseLimit = 0.25;     // CACHE NOT REUSED: warm > 25% of cold
inline constexpr std::int64_t kOverlapLimitMilli = 1150;  // BUILDS OVERLAPPED above 1.15
inline constexpr double kLinkDominated = 0.5;       // LINK-DOMINATED: > 50% outside the compiler

std::vector<Finding> diagnoseModules(const ModuleReport& report);

// The analysis as collectFindings runs it.
std::vector<Finding> analyseWarpModules(const trace::TraceReader& reader);

}  // namespace cs::engine::warp
