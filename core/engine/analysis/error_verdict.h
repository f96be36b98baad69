// An [error] finding fails the acceptance verdict.
//
// Why: the verdict is judged from the rules a trace gives evidence for (the replay, the runtime's
// counters, Warp's module loads), and a trace with none of them was "not applicable". A log in which
// PyTorch hit its recompile limit holds no lookup to replay, yet its finding is an [error]: the run
// stopped compiling a frame. Issue 35 asks that an [error] finding never go with PASS or "not
// applicable", so every view that shows the verdict (check, the GUI, the report) shows FAIL beside it.
#pragma once

#include "core/engine/cache/verdict.h"
#include "core/engine/common/finding.h"

#include <string_view>
#include <vector>

namespace cs::engine {

// The scope of the rule's rows, by which views tell them from the other rules' rows.
inline constexpr std::string_view kErrorFindingScope = "[error] findings";

// Adds a failed rule "no [error] finding" per [error] finding the verdict does not already fail on,
// and sets v.state to Fail when there is one. The replay's own [error] findings (cache.*) repeat a
// failed replay rule and add no row when the replay has judged.
void failOnErrorFindings(const std::vector<Finding>& findings, AcceptanceVerdict& v);

}  // namespace cs::engine
