// How many times each analysis ran in this process: tests read them to show that one GUI load or one
// report runs every analysis once (the views render one result, they never recompute it).
#pragma once

#include <atomic>
#include <cstdint>

namespace cs::engine {

struct AnalysisCounters {
    std::atomic<std::int64_t> summaries{0};      // compile accounting (CompileSummaryBuilder::finish)
    std::atomic<std::int64_t> cacheReplays{0};   // analyseCache of the recorded lookups
    std::atomic<std::int64_t> moduleCacheReplays{0};  // warp::analyseModuleCache
    std::atomic<std::int64_t> moduleReports{0};  // warp::buildModuleReport
    std::atomic<std::int64_t> forests{0};        // loadInvalidationTrees
    std::atomic<std::int64_t> findings{0};       // collectFindings
    std::atomic<std::int64_t> traceAnalyses{0};  // analyseTrace

    void reset() {
        for (auto* c : {&summaries, &cacheReplays, &moduleCacheReplays, &moduleReports, &forests, &findings, &traceAnalyses}) c->store(0);
    }
};

AnalysisCounters& analysisCounters();

}  // namespace cs::engine
