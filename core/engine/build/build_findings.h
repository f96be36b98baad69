// Findings of the build report: what to change in the sources to make the build faster.
//
// Why these four: they are the fixes ClangBuildAnalyzer's answers lead to, each tied to a cost the
// report measured over every file, never guessed from one file:
//   build.expensive_header   a header parsed again in many files  -> precompiled header, or forward
//                            declarations so fewer files include it;
//   build.template_set       one template instantiated again in many files -> `extern template` and
//                            one explicit instantiation;
//   build.repeated_function  one function optimised / generated again in many files (an inline
//                            function or template defined in a header) -> move its code out of the header;
//   build.backend_heavy      a file whose backend (optimisation, code generation) outweighs its
//                            frontend -> split the file or lower its optimisation level.
// A finding needs the thing in two files or more and a share of the build's time (thresholds in
// build_findings.cpp, docs/builds.md), so a one-file trace with a slow header gives none.
#pragma once

#include "core/engine/build/build_report.h"
#include "core/engine/common/finding.h"

#include <vector>

namespace cs::engine::build {

std::vector<Finding> buildFindings(const BuildReport& report);

}  // namespace cs::engine::build
