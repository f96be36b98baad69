#include "core/engine/analysis/all_findings.h"

#include "core/engine/common/analysis_counters.h"
#include "core/engine/build/build_findings.h"
#include "core/engine/cache/cache_analysis.h"
#include "core/engine/cuda/cuda_programs.h"
#include "core/engine/cuda/device_link.h"
#include "core/engine/jit/jit_report.h"
#include "core/engine/julia/invalidation_findings.h"
#include "core/engine/julia/timing_findings.h"
#include "core/engine/accounting/trace_losses.h"
#include "core/engine/warp/warp_diagnosis.h"

namespace cs::engine {

AnalysisCounters& analysisCounters() {
    static AnalysisCounters counters;
    return counters;
}

std::vector<Finding> collectFindings(const CacheAnalysis* cache, const warp::ModuleReport* modules,
                                     const InvalidationForest* invalidations, const TraceLosses* losses,
                                     const cuda::CudaProgramReport* cudaPrograms,
                                     const JuliaTimingReport* juliaTiming, const jit::JitReport* jit,
                                     const build::BuildReport* build) {
    ++analysisCounters().findings;
    std::vector<Finding> all;
    auto append = [&](std::vector<Finding> part) {
        for (auto& f : part) all.push_back(std::move(f));
    };
    // One line per analysis (losses, cache replay, Warp modules, Julia invalidations, CUDA, ...).
    if (losses) append(lossFindings(*losses));
    if (cache && !cache->facts.empty()) append(cacheFindings(*cache));
    if (modules) append(warp::diagnoseModules(*modules));
    if (invalidations) append(invalidationFindings(*invalidations));
    if (juliaTiming) append(juliaTimingFindings(*juliaTiming));
    if (cudaPrograms) {
        append(cuda::cudaProgramFindings(*cudaPrograms));
        append(cuda::jitFindings(*cudaPrograms));
        append(cuda::slowLinkFindings(*cudaPrograms));
    }
    if (jit) append(jit::jitFindings(*jit, cache));
    if (build) append(build::buildFindings(*build));
    return all;
}

}  // namespace cs::engine
