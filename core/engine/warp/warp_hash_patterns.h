// Patterns in the sequence of hashes one Warp module name was loaded under, read from real logs.
//
// Why these three, beyond "several hashes" (identity churn): each has its own mechanism and fix, and
// the plain churn finding would name the wrong one.
//   cycle   the same set of hashes, in the same order, again and again (erikfrey/mjx_warp#58:
//           mujoco.mjx._src.support 5e90a30 -> cf9d851 -> ... -> beb86f2 -> 5e90a30 -> ...). Every hash
//           is needed; what costs is switching: a configuration toggles between values, and each switch
//           unloads the module and loads it again. Cost = every load after the first round.
//   rising  every new hash of the name is compiled and takes longer than the one before
//           (erikfrey/mjx_warp#63: mujoco.mjx._src.solver 436.63 -> 496.40 -> 806.94 -> 826.02 ->
//           964.80 ms; newton-physics/newton#697: ccd_kernel_builder 13 s -> 21 s -> 29 s). The module
//           grows: kernels are defined after it first loaded, so each launch of a new kernel rebuilds
//           everything defined so far. Cost = every build but the last (the last holds all kernels).
//   unique name vs hash   a module="unique" module is named "<kernel key>_<8 hex of the kernel hash>",
//           and its module hash normally starts with those digits (newton-physics/newton#918:
//           validate_and_correct_inertia_kernel_4e499976 4e49997). NVIDIA/warp#995 shows
//           _create_narrowphase_kernel__locals___primitive_narrowphase_e8422eb6 loaded as 7550883 on
//           cuda:0: what was hashed at load is not what named the module, so the name no longer
//           identifies the content. (Its CPU load 66e742d is no evidence: CPU loads hash at block_dim 1,
//           the name at the module's default, warp_unique.h.) Dotted names ("__main__.dyn.node_unity_test_Tri_dP1_b0ea6dbb",
//           NVIDIA/warp#991) are warp.fem's own hash-named modules and are left out. No time cost is claimed:
//           the risk is stale or shared cache entries.
// Loads are split into lanes of one device and block_dim first: identities on another lane are
// variants (the block_dim rule), not a sequence. A cycle needs a load after its first round (back to its
// first hash: A -> B -> A is a toggle, newton-physics/newton#918's map_div); a rise needs three
// builds, each slower than the last, the last >= 1.25 x the first (noise between equal builds is
// about +-10% in the issues above, so three increasing figures alone are not enough).
#pragma once

#include "core/engine/common/finding.h"
#include "core/engine/warp/warp_modules.h"

#include <optional>
#include <vector>

namespace cs::engine::warp {

inline constexpr double kRisingMinGrowth = 1.25;
inline constexpr size_t kRisingMinBuilds = 3;

struct HashCycle {
    std::vector<std::string> hashes;   // one round, in load order
    std::vector<std::int64_t> loadIds; // every load of the lane, in order
    size_t repeats = 0;                // loads after the first round
    std::int64_t repeatNs = 0;         // their summed durations
};
// The lane of `m` whose hashes repeat one round in a fixed order, if any.
std::optional<HashCycle> findHashCycle(const ModuleSummary& m);

struct RisingBuilds {
    std::vector<std::int64_t> loadIds; // the first (compiled) load of each new hash, in order
    std::int64_t supersededNs = 0;     // all builds but the last
};
std::optional<RisingBuilds> findRisingBuilds(const ModuleSummary& m);

// One finding each, for the module of `m` (nothing when the pattern is absent).
void hashCycleFinding(const ModuleSummary& m, const HashCycle& c, std::vector<Finding>& out);
void risingBuildsFinding(const ModuleSummary& m, const RisingBuilds& r, std::vector<Finding>& out);
void uniqueNameMismatchFinding(const ModuleSummary& m, std::vector<Finding>& out);

} // namespace cs::engine::warp
