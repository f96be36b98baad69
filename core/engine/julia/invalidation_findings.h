// Findings from Julia invalidation trees: which method insertion or deletion cost how much
// recompilation, and which parts of the log could not be read.
#pragma once

#include "core/engine/common/finding.h"

#include <vector>

namespace cs::engine {

struct InvalidationForest;

// The evidence "table" naming a tree of the analysis's forest: not a trace table (trees are built,
// not stored); its row id is 1 + the tree's index in InvalidationForest::trees.
inline constexpr const char* kInvalidationTreeEvidence = "invalidation_trees";

// One finding per tree that invalidated anything (most costly first, then most children), and one
// Info finding per problem of the log (unknown version or tags, elided or orphan lines).
std::vector<Finding> invalidationFindings(const InvalidationForest& forest);

}  // namespace cs::engine
