// Every analysis's findings, gathered in one place, so the CLI (`findings`), the GUI and the report
// list the same findings in the same order. It takes the analyses a caller already holds (the
// TraceAnalysis of trace_analysis.h) and never reads the trace again.
#pragma once

#include "core/engine/common/finding.h"

#include <vector>

namespace cs::engine {

struct CacheAnalysis;
struct InvalidationForest;
struct JuliaTimingReport;
struct TraceLosses;
namespace warp {
struct ModuleReport;
}
namespace cuda {
struct CudaProgramReport;
}
namespace jit {
struct JitReport;
}
namespace build {
struct BuildReport;
}

// Concatenates the findings of each analysis that exists (null: the trace has no facts of that
// kind). Ordered by analysis, then as each analysis orders them (most costly first).
// What the trace lost (trace_losses.h) comes first: every other figure is computed without it.
std::vector<Finding> collectFindings(const CacheAnalysis* cache, const warp::ModuleReport* modules,
                                     const InvalidationForest* invalidations, const TraceLosses* losses = nullptr,
                                     const cuda::CudaProgramReport* cudaPrograms = nullptr,
                                     const JuliaTimingReport* juliaTiming = nullptr,
                                     const jit::JitReport* jit = nullptr,
                                     const build::BuildReport* build = nullptr);

}  // namespace cs::engine
