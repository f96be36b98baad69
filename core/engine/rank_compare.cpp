// TraceAnalysis -> RankTrace, for every view that compares ranks (see rank_compare.h).
#include "core/engine/rank_compare.h"

#include "core/engine/trace_analysis.h"

namespace cs::engine {

namespace {
const CacheFacts kNoFacts;
const ReplayResult kNoReplay;
}  // namespace

RankTrace rankTraceOf(const std::string& label, const TraceAnalysis* analysis) {
    const CacheAnalysis* cache = analysis ? analysis->cache.get() : nullptr;
    std::optional<std::int64_t> compile;
    if (analysis) compile = analysis->summary.compileNs;
    return {label, cache ? &cache->facts : &kNoFacts, cache ? &cache->replay : &kNoReplay, compile};
}

std::int64_t rankMisses(const RankTrace& rank) {
    std::int64_t misses = 0;
    if (rank.replay)
        for (const LookupOutcome& o : rank.replay->outcomes) misses += o.hit ? 0 : 1;
    return misses;
}

}  // namespace cs::engine
