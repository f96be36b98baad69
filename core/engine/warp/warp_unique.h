// Recognising module="unique" modules, and which of their loads can be checked against the name.
//
// Why not the name alone, nor the hash alone: Warp names a unique module "<kernel key>_<8 hex>" after
// the module hash it computes when the kernel is declared, at the module's default block_dim (256
// unless set; warp/_src/context.py in Warp 1.19: `k.module.name = f"{k.key}_{module_hash.hex()[:8]}"`
// after `m.get_module_hash()`). A load hashes at the launch's block_dim instead, and a CPU launch
// always loads block_dim 1 (`_resolve_launch_block_dim`), so a CPU load of a sound unique module never
// carries its name's digits (real Warp 1.19 on the CPU: double_it_64d0f18e loaded as c844e24,
// tests/collector/test_warp_real.py). Only a load on a CUDA device at block_dim 256 (or unknown: a log
// without debug output) is comparable with the name. A module is unique when its name has the shape
// and the collector's kernel set is that one kernel, or (a log, no kernel set) a comparable load
// carries the name's digits, or no load is comparable at all (nothing contradicts the name).
#pragma once

#include "core/engine/warp/warp_modules.h"

namespace cs::engine::warp {

inline constexpr std::int64_t kWarpDefaultBlockDim = 256;

// Whether `id`'s hash is expected to start with a unique module name's 8 hex digits.
bool hashComparableWithUniqueName(const Identity& id);

// The name is "<kernel key>_<8 hex>", undotted (dotted ones are warp.fem's own hash-named modules,
// NVIDIA/warp#991), and a kernel set the collector recorded is that one kernel (its overloads).
bool hasUniqueShape(const ModuleSummary& m);

// Whether `m` is a module Warp made for module="unique" (see above).
bool isUniqueModule(const ModuleSummary& m);

}  // namespace cs::engine::warp
