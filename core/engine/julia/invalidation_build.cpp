#include "core/engine/julia/invalidation_build.h"

#include "core/engine/julia/invalidation_printed.h"

namespace cs::engine {

InvalidationForest buildInvalidationTrees(const InvalidationInput& input) {
    InvalidationForest f;
    buildTreesFromLogs(input, f);
    if (!input.printedTreeLines.empty()) parsePrintedTrees(input.printedTreeLines, f);
    fillSuperseded(input, f);
    finishForest(f);
    return f;
}

}  // namespace cs::engine
