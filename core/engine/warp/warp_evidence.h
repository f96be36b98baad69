// How the Warp findings cite module loads: one evidence line per load, a timeline range from them.
//
// Why shared: the diagnosis table (warp_diagnosis.cpp) and the pattern rules (warp_hash_patterns.cpp,
// warp_run_patterns.cpp) must print a load the same way ("name hash device block_dim result ms (file:line)"),
// so a user can match evidence across findings and against the log.
#pragma once

#include "core/engine/common/finding.h"
#include "core/engine/warp/warp_modules.h"

#include <string>

namespace cs::engine::warp {

std::string formatMs(std::int64_t ns); // "12.34 ms"
const ModuleLoad* loadById(const ModuleSummary& m, std::int64_t id);
std::string loadResultName(int result); // compiled / cached / error / loaded
Evidence loadEvidence(const ModuleSummary& m, std::int64_t loadId, const std::string& extra = {});
// Sets the finding's session and timeline range from its module_loads evidence rows.
void setRange(Finding& f, const ModuleSummary& m);

} // namespace cs::engine::warp
