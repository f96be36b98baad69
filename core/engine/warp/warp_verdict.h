// The acceptance check for Warp modules, in Warp's terms.
//
// Why: the steady-state rule of the program caches (misses == entries: nothing compiled twice)
// applies to Warp's module cache as well. A module compiled under a second hash on the same device and
// block_dim within one run paid a second compile the first could have saved (a kernel defined, an
// option set or an overload registered after the first load); a warm run whose loads came from the
// kernel cache compiled nothing and passes, whatever identities it loaded. Without this, `check`
// called every Warp-only trace "not applicable".
#pragma once

#include "core/engine/cache/verdict.h"
#include "core/engine/warp/warp_modules.h"

#include <string_view>

namespace cs::engine::warp {

// The scope of the rule's row, by which views tell it from the replay's rows.
inline constexpr std::string_view kModuleRuleScope = "Warp modules";

// Adds the rule "one compiled hash per module" (one row, whole trace) to `v` when the trace loaded modules,
// and sets v.state from all its rules.
void judgeModules(const ModuleReport& modules, AcceptanceVerdict& v);

}  // namespace cs::engine::warp
