// Findings from Julia invalidation trees: which method insertion or deletion cost how much
// recompilation, and which parts of the log could not be read.
#pragma once

#include "core/engine/finding.h"

#include <vector>

namespace cs::engine {

struct InvalidationForest;

// One finding per tree that invalidated anything (most costly first, then most children), and one
// Info finding per problem of the log (unknown version or tags, elided or orphan lines).
std::vector<Finding> invalidationFindings(const InvalidationForest& forest);

}  // namespace cs::engine
