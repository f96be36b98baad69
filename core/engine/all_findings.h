// Every analysis of a trace, run in one place, so the CLI (`findings`), the GUI and the report list
// the same findings in the same order.
#pragma once

#include "finding.h"

#include <vector>

namespace cs::trace {
class TraceReader;
}

namespace cs::engine {

// Runs every analysis that applies to the trace's facts and concatenates their findings. Ordered by
// analysis, then as each analysis orders them (most costly first).
std::vector<Finding> collectFindings(const trace::TraceReader& reader);

}  // namespace cs::engine
