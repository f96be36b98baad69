// Invalidation trees of a trace, with their recompile cost joined in.
//
// Why the join: SnoopCompile says *what* was invalidated, never what it cost; `--trace-compile`
// says what was recompiled (`# recompile`) and for how long, never why; `@time_imports` says an
// `__init__` spent 99% of its time recompiling. Matching each invalidated MethodInstance with the
// recompile statements and init spans of the same trace (by julia_signature.h keys; qualifiers must
// agree) gives each root the milliseconds it caused - the Enzyme `__init__` story of the Enzyme.jl #776 case (docs/invalidations.md).
// A MethodInstance that both a `# recompile` statement and an `__init__` span account for takes the
// larger of the two (both timings are inclusive), never their sum.
#pragma once

#include "core/engine/julia/invalidation_trees.h"

#include <memory>

namespace cs::trace {
class TraceReader;
}

namespace cs::engine {

// One recompile measurement: the compiled signature or call form, and its time.
struct RecompileTiming {
    std::string text;        // "Tuple{typeof(Enzyme.__init__)}" or "Enzyme.__init__()"
    bool isCallForm = false; // text is a call form (init spans), not a precompile signature
    std::int64_t ns = 0;
    std::int64_t spanId = 0;
};

// Reads every session's invalidation items (raw lists and printed trees), the methods recorded for
// instances, and the compile / init spans; builds, joins and returns the forest.
std::shared_ptr<const InvalidationForest> loadInvalidationTrees(const trace::TraceReader& reader);

// The input half of loadInvalidationTrees (exposed for tests and benchmarks).
InvalidationInput readInvalidationInput(const trace::TraceReader& reader);
std::vector<RecompileTiming> readRecompileTimings(const trace::TraceReader& reader);

// Sets each node's recompileNs from `timings` and refreshes the per-tree sums.
void joinRecompileCosts(InvalidationForest& forest, const std::vector<RecompileTiming>& timings);

}  // namespace cs::engine
