// A fix plan as the report and the GUI's Findings view show it ("Show the change").
//
// Why in the engine: the report renders from the analysis and holds no SQL (docs/architecture.md),
// and the plan needs the trace's sessions and the user's source files; computing it here keeps the
// CLI (`compilescope fix`), the report and the GUI on one plan and one text.
#pragma once

#include "core/engine/fix/fix_plan.h"

#include <string>

namespace cs::engine {
struct Finding;
}

namespace cs::engine::fix {

// The plan of an analysed trace: its context is read from analysis.path (scripts relative to the
// current directory, as `compilescope fix`); when that file cannot be read, the plan without it.
FixPlan planFixesForTrace(const FixSources& analysis);

// The change for `f` (a copy of one of analysis.findings, matched by kind and title); null when none.
const FixChange* changeFor(const FixPlan& plan, const FixSources& analysis, const Finding& f);

// The change as plain text: what it does, its saving, how to verify, the file or where it goes and
// the notes as `#` lines, then the unified diff or the snippet.
std::string changeText(const FixChange& c);

}  // namespace cs::engine::fix
