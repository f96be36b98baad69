// TraceAnalysis -> RankTrace, for every view that compares ranks (see rank_compare.h).
#include "core/engine/analysis/rank_compare.h"

#include "core/engine/analysis/trace_analysis.h"

#include <optional>
#include <set>
#include <utility>

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

bool tracesOfOneProgram(const std::vector<const TraceAnalysis*>& analyses) {
    std::optional<std::set<std::pair<std::string, std::string>>> first;
    int traces = 0;
    for (const TraceAnalysis* a : analyses) {
        if (!a) continue;
        std::set<std::pair<std::string, std::string>> programs;
        for (const SessionSummary& s : a->summary.sessions) programs.emplace(s.runtime, s.command);
        if (programs.empty()) return false;
        if (first && *first != programs) return false;
        if (!first) first = std::move(programs);
        ++traces;
    }
    return traces >= 2;
}

std::int64_t rankMisses(const RankTrace& rank) {
    std::int64_t misses = 0;
    if (rank.replay)
        for (const LookupOutcome& o : rank.replay->outcomes) misses += o.hit ? 0 : 1;
    return misses;
}

}  // namespace cs::engine
