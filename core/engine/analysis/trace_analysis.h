// One analysis per trace, computed once, immutable, rendered by every view.
//
// Why: the CLI (`info`, `check`, `findings`, ...), the GUI and the HTML report used to compute their
// own figures from the trace, and a user saw 23 s of compiling in one place and 2049 s in another.
// Now the engine computes each result once, here: the sessions and their time bases, the compile
// accounting (compile_summary.h, docs/accounting.md), the cache replay and its acceptance verdict,
// the module identities, the invalidation forest, the CUDA program identities, a build's time traces
// (build/build_report.h), the findings of all of them, and the plain facts
// views list. Views only format what they are given.
#pragma once

#include "core/engine/build/build_report.h"
#include "core/engine/cache/cache_analysis.h"
#include "core/engine/cache/verdict.h"
#include "core/engine/analysis/compile_index.h"
#include "core/engine/accounting/compile_summary.h"
#include "core/engine/cuda/cuda_programs.h"
#include "core/engine/common/finding.h"
#include "core/engine/jit/jit_report.h"
#include "core/engine/julia/invalidation_trees.h"
#include "core/engine/julia/timing_findings.h"
#include "core/engine/common/load_control.h"
#include "core/engine/timeline/timeline_digest.h"
#include "core/engine/accounting/trace_facts.h"
#include "core/engine/accounting/trace_losses.h"
#include "core/engine/warp/warp_modules.h"

#include <memory>
#include <string>
#include <vector>

namespace cs::trace {
class TraceReader;
}

namespace cs::engine {

struct AnalysisOptions {
    AcceptanceOptions acceptance{};
    int timelineBuckets = 0;  // > 0: also reduce the timeline to this many buckets (the report's)
    // > 0: also build the compile index (compile_index.h), listing at most this many rows in full
    // (the report's; the GUI does not pay for it).
    size_t compileIndexRows = 0;
    IndexDetail indexDetail = IndexDetail::Full;  // Identity: what names each row, for `diff`
    size_t buildRowsKept = 50;  // a build's headers and template sets listed (buildReport's `keep`)
    // false: leave out the per-metric duration samples (TraceFacts::samples, launchTopology) that only
    // `compare` and the report's comparison section read; `diff` never shows them.
    bool comparisonSamples = true;
};

struct TraceAnalysis {
    std::string path;
    CompileSummary summary;
    TraceFacts facts;
    TraceLosses losses;  // what the trace is missing (every view shows it first)
    std::shared_ptr<const CacheAnalysis> cache;  // null: the trace recorded no cache lookups
    // Warp module loads replayed as a persistent cache (warp/warp_cache_lookups.h); null: no compiled
    // or cached load. Judged by no acceptance rule and listing no findings of its own.
    std::shared_ptr<const CacheAnalysis> moduleCache;
    std::vector<CacheCounters> counters;         // the runtime's cache_stats() snapshots
    AcceptanceVerdict verdict;
    // Always built (probe counters give findings without loads); moduleLoads() says if there were loads.
    std::shared_ptr<const warp::ModuleReport> modules;
    std::shared_ptr<const InvalidationForest> invalidations;  // null: no invalidation items
    std::shared_ptr<const JuliaTimingReport> juliaTiming;     // null: no Julia timing output
    std::shared_ptr<const cuda::CudaProgramReport> cudaPrograms;  // null: no NVRTC / nvJitLink / driver JIT
    std::shared_ptr<const jit::JitReport> jit;  // null: no PyTorch / JAX events or persistent-cache keys
    std::shared_ptr<const build::BuildReport> build;  // null: no clang time traces nor ninja log
    std::vector<Finding> findings;
    TimelineDigest digest;  // only with AnalysisOptions::timelineBuckets
    CompileIndex compileIndex;  // only with AnalysisOptions::compileIndexRows

    std::int64_t moduleLoads() const { return modules ? modules->loadCount : 0; }
    // Module identity counts: module names (per session), and those built under several identities.
    std::int64_t moduleNames() const;
    std::int64_t repeatedModules() const;
};

// Everything, from the trace.
std::shared_ptr<const TraceAnalysis> analyseTrace(const trace::TraceReader& reader, const AnalysisOptions& options = {},
                                                  const LoadControl& control = {});
// Everything but the compile accounting, which the caller computed already (the GUI folds it into
// its timeline scan and publishes it first).
std::shared_ptr<const TraceAnalysis> analyseTrace(const trace::TraceReader& reader, CompileSummary summary,
                                                  const AnalysisOptions& options = {}, const LoadControl& control = {});
// Opens the trace (TraceError when unreadable) and analyses it.
std::shared_ptr<const TraceAnalysis> analyseTraceFile(const std::string& path, const AnalysisOptions& options = {});

}  // namespace cs::engine
