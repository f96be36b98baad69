// `compilescope diff` rendered for people (text), for tools (JSON), for a CI step summary
// (Markdown) and for CI test reports (JUnit XML: one test case per compile identity and per finding
// rule, failed where the change is one `--fail-on` gates, so CI lists what regressed by name).
#pragma once

#include "core/measure/trace_diff.h"

#include <ostream>

namespace cs::cli {

void printDiffText(std::ostream& out, const measure::TraceDiff& d, const measure::FailOn& gate);
void printDiffJson(std::ostream& out, const measure::TraceDiff& d, const measure::FailOn& gate);
void printDiffMarkdown(std::ostream& out, const measure::TraceDiff& d, const measure::FailOn& gate);
void printDiffJunit(std::ostream& out, const measure::TraceDiff& d, const measure::FailOn& gate);

}  // namespace cs::cli
