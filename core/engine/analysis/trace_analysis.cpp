#include "core/engine/analysis/trace_analysis.h"
#include "core/engine/warp/warp_verdict.h"
#include "core/engine/analysis/error_verdict.h"

#include "core/engine/analysis/all_findings.h"
#include "core/engine/common/analysis_counters.h"
#include "core/engine/julia/invalidation_load.h"
#include "core/engine/warp/warp_cache_lookups.h"
#include "core/engine/accounting/session_clocks.h"
#include "core/trace/reader.h"
#include "core/trace/trace_error.h"
#include "core/trace/trace_problems.h"
#include "core/util/saturating.h"

#include <exception>

namespace cs::engine {

std::int64_t TraceAnalysis::moduleNames() const { return modules ? static_cast<std::int64_t>(modules->modules.size()) : 0; }

std::int64_t TraceAnalysis::repeatedModules() const {
    std::int64_t n = 0;
    if (modules)
        for (const auto& m : modules->modules) n += m.identities.size() > 1;
    return n;
}

namespace {
// The replay is checked against the runtime's own counters and verdicts. When rows of the cache
// tables were left out as trace problems (a lookup of a session the trace does not hold, a key
// component of no lookup), the two disagree because of the damage, not because of the runtime:
// the trace problem is reported, and the cross-check would only turn it into findings (the issue
// saw 3 findings become 9).
void dropCrossChecksOfLeftOutRows(const std::vector<trace::TraceProblem>& problems, std::vector<Finding>& findings) {
    bool cacheRowsLeftOut = false;
    for (const auto& p : problems)
        cacheRowsLeftOut |= p.table == "cache_lookups" || p.table == "key_components" || p.table == "counters" ||
                            p.table == "closures";
    if (!cacheRowsLeftOut) return;
    std::erase_if(findings, [](const Finding& f) {
        return f.kind == "cache.counters_mismatch" || f.kind == "cache.verdict_disagreement";
    });
}

// Lookup rows (or their key components) left out as dangling references (issue 40): the replay saw
// part of the run, so its verdict, pass, fail or not applicable, says nothing about the whole.
std::int64_t lookupRowsLeftOut(const std::vector<trace::TraceProblem>& problems) {
    std::int64_t n = 0;
    for (const auto& p : problems)
        if (p.kind == "dangling_reference" && (p.table == "cache_lookups" || p.table == "key_components"))
            n = util::satAdd(n, p.count);
    return n;
}

std::shared_ptr<const TraceAnalysis> analyse(const trace::TraceReader& reader, CompileSummary summary,
                                             const AnalysisOptions& options, const LoadControl& control) {
    ++analysisCounters().traceAnalyses;
    auto a = std::make_shared<TraceAnalysis>();
    a->path = reader.path();
    a->summary = std::move(summary);
    control.report(10, "facts");
    auto problems = trace::checkTraceProblems(reader);  // throws on a NULL the format forbids
    FactsOptions factsOptions;
    factsOptions.samples = options.comparisonSamples;
    factsOptions.phaseSpans = a->summary.phaseSpans.value_or(1) > 0;
    a->facts = readTraceFacts(reader, factsOptions);
    a->facts.problems = std::move(problems);
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
    a->moduleCache = warp::analyseModuleCache(*a->modules);
    warp::judgeModules(*a->modules, a->verdict);
    control.check();
    control.report(60, "invalidation trees");
    if (reader.rowCount("invalidation_items") > 0) {
        a->invalidations = loadInvalidationTrees(reader);
        if (a->invalidations->trees.empty()) a->facts.rawInvalidations = readRawInvalidationLists(reader);
    }
    if (auto timing = loadJuliaTiming(reader); !timing.empty())
        a->juliaTiming = std::make_shared<const JuliaTimingReport>(std::move(timing));
    control.check();
    control.report(70, "CUDA programs");
    if (reader.rowCount("cuda_programs") > 0 || reader.rowCount("cuda_jit") > 0)
        a->cudaPrograms = std::make_shared<const cuda::CudaProgramReport>(cuda::loadCudaPrograms(reader));
    control.check();
    if (auto jit = jit::loadJitReport(reader, a->cache.get()); !jit.empty() || a->cache)
        a->jit = std::make_shared<const jit::JitReport>(std::move(jit));
    control.report(75, "build");
    SessionClocks clocks;  // the summary placed the sessions already
    for (const SessionSummary& ses : a->summary.sessions) clocks.offsets[ses.id] = ses.offsetNs;
    if (auto build = build::buildReport(reader, clocks, options.buildRowsKept); !build.empty())
        a->build = std::make_shared<const build::BuildReport>(std::move(build));
    control.check();
    control.report(80, "findings");
    a->findings = collectFindings(a->cache.get(), a->modules.get(), a->invalidations.get(), &a->losses,
                                  a->cudaPrograms.get(), a->juliaTiming.get(), a->jit.get(), a->build.get());
    dropCrossChecksOfLeftOutRows(a->facts.problems, a->findings);
    failOnErrorFindings(a->findings, a->verdict);
    a->verdict.lookupsLeftOut = lookupRowsLeftOut(a->facts.problems);
    if (options.timelineBuckets > 0) {
        control.report(90, "timeline digest");
        a->digest = digestTimeline(reader, a->summary, options.timelineBuckets);
    }
    if (options.compileIndexRows > 0) {
        control.report(95, "compile index");
        a->compileIndex = buildCompileIndex(reader, *a, options.compileIndexRows, options.indexDetail);
    }
    control.report(100, "done");
    return a;
}

// Every error names the file: SQLite's "database disk image is malformed" from a statement that
// did not go through TraceReader::query, a bad_alloc on a hostile row count, ...
template <typename F>
auto namingTheFile(const trace::TraceReader& reader, F&& f) {
    try {
        return f();
    } catch (const trace::TraceError&) {
        throw;
    } catch (const LoadCancelled&) {
        throw;
    } catch (const std::exception& e) {
        throw trace::TraceError(trace::TraceErrorKind::Corrupt, reader.path(), e.what());
    }
}
}  // namespace

std::shared_ptr<const TraceAnalysis> analyseTrace(const trace::TraceReader& reader, CompileSummary summary,
                                                  const AnalysisOptions& options, const LoadControl& control) {
    return namingTheFile(reader, [&] { return analyse(reader, std::move(summary), options, control); });
}

std::shared_ptr<const TraceAnalysis> analyseTrace(const trace::TraceReader& reader, const AnalysisOptions& options,
                                                  const LoadControl& control) {
    return analyseTrace(reader, namingTheFile(reader, [&] { return summarizeCompileTime(reader); }), options,
                        control);
}

std::shared_ptr<const TraceAnalysis> analyseTraceFile(const std::string& path, const AnalysisOptions& options) {
    auto reader = trace::TraceReader::open(path);
    return analyseTrace(*reader, options);
}

}  // namespace cs::engine
