// One forest from every form an invalidation log arrives in: raw lists and printed trees.
//
// Why a file of its own: the raw-list builder (invalidation_trees) and the printed-tree reader
// (invalidation_printed) each stand alone; only this step needs both, so neither includes the other.
#pragma once

#include "core/engine/julia/invalidation_trees.h"

namespace cs::engine {

// Builds the forest from raw lists and printed lines. Never throws on bad input. The result is
// mutable only so the cost join can fill in recompile times; callers then hand it out as const.
InvalidationForest buildInvalidationTrees(const InvalidationInput& input);

}  // namespace cs::engine
