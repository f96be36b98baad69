#include "core/engine/trace_analysis.h"

#include "core/engine/all_findings.h"
#include "core/engine/analysis_counters.h"
#include "core/engine/julia/invalidation_load.h"
#include "core/trace/reader.h"

namespace cs::engine {

std::int64_t TraceAnalysis::moduleNames() const { return modules ? static_cast<std::int64_t>(modules->modules.size()) : 0; }

std::int64_t TraceAnalysis::repeatedModules() const {
    std::int64_t n = 0;
    if (modules)
        for (const auto& m : modules->modules) n += m.identities.size() > 1;
    return n;
}

std::shared_ptr<const TraceAnalysis> analyseTrace(const trace::TraceReader& reader, CompileSummary summary,
                                                  const AnalysisOptions& options, const LoadControl& control) {
    ++analysisCounters().traceAnalyses;
    auto a = std::make_shared<TraceAnalysis>();
    a->path = reader.path();
    a->summary = std::move(summary);
    control.report(10, "facts");
    a->facts = readTraceFacts(reader);
    a->losses = lossesOf(a->facts);
    a->facts.phases.totalNs = 0;
    for (const TimeShare& t : a->summary.byCategory)
        if (t.name == "compiler phase") a->facts.phases.totalNs = t.ns;
    control.check();
    control.report(20, "cache replay");
    if (reader.rowCount("cache_lookups") > 0) a->cache = analyseCache(reader, options.acceptance);
    a->counters = readCacheCounters(reader);
    a->verdict = judgeAcceptance(a->cache.get(), a->counters);
    control.check();
    control.report(50, "module identities");
    a->modules = std::make_shared<const warp::ModuleReport>(warp::buildModuleReport(reader));
    control.check();
    control.report(60, "invalidation trees");
    if (reader.rowCount("invalidation_items") > 0) {
        a->invalidations = loadInvalidationTrees(reader);
        if (a->invalidations->trees.empty()) a->facts.rawInvalidations = readRawInvalidationLists(reader);
    }
    control.check();
    control.report(70, "CUDA programs");
    if (reader.rowCount("cuda_programs") > 0 || reader.rowCount("cuda_jit") > 0)
        a->cudaPrograms = std::make_shared<const cuda::CudaProgramReport>(cuda::loadCudaPrograms(reader));
    control.check();
    control.report(80, "findings");
    a->findings = collectFindings(a->cache.get(), a->modules.get(), a->invalidations.get(), &a->losses,
                                  a->cudaPrograms.get());
    if (options.timelineBuckets > 0) {
        control.report(90, "timeline digest");
        a->digest = digestTimeline(reader, a->summary, options.timelineBuckets);
    }
    if (options.compileIndexRows > 0) {
        control.report(95, "compile index");
        a->compileIndex = buildCompileIndex(reader, *a, options.compileIndexRows);
    }
    control.report(100, "done");
    return a;
}

std::shared_ptr<const TraceAnalysis> analyseTrace(const trace::TraceReader& reader, const AnalysisOptions& options,
                                                  const LoadControl& control) {
    return analyseTrace(reader, summarizeCompileTime(reader), options, control);
}

std::shared_ptr<const TraceAnalysis> analyseTraceFile(const std::string& path, const AnalysisOptions& options) {
    auto reader = trace::TraceReader::open(path);
    return analyseTrace(*reader, options);
}

}  // namespace cs::engine
