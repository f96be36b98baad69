// How `compilescope fix` prints a fix plan and writes its files (-o DIR).
//
// Why apart from cmd_fix.cpp: the text form is shared by `fix TRACE` and `fix --verify`'s first run,
// and the files (NAME.patch, NAME.snippet.py / .jl) are what users and tests apply with `patch`.
#pragma once

#include "core/engine/fix/fix_plan.h"
#include "core/engine/analysis/trace_analysis.h"

#include <ostream>
#include <string>

namespace cs::cli {

void printFixPlan(std::ostream& out, const std::string& label, const engine::TraceAnalysis& analysis,
                  const engine::fix::FixPlan& plan);
// Writes one file per change into `dir` (created); returns the paths written, or throws runtime_error.
std::vector<std::string> writeFixFiles(const std::string& dir, const engine::TraceAnalysis& analysis,
                                       const engine::fix::FixPlan& plan);

}  // namespace cs::cli
