#include "core/engine/cache/cache_analysis.h"
#include "core/engine/common/analysis_counters.h"

namespace cs::engine {

std::shared_ptr<const CacheAnalysis> analyseCache(CacheFacts facts, const AcceptanceOptions& options) {
    ++analysisCounters().cacheReplays;
    return analyseCacheUncounted(std::move(facts), options);
}

std::shared_ptr<const CacheAnalysis> analyseCacheUncounted(CacheFacts facts, const AcceptanceOptions& options) {
    auto a = std::make_shared<CacheAnalysis>();
    a->facts = std::move(facts);
    a->replay = replayCache(a->facts);
    a->attribution = attributeMisses(a->facts, a->replay);
    a->acceptance = checkAcceptance(a->facts, a->replay, a->attribution, options);
    a->holes = findHoles(a->facts, a->replay);
    return a;
}

std::shared_ptr<const CacheAnalysis> analyseCache(const trace::TraceReader& reader, const AcceptanceOptions& options) {
    return analyseCache(loadCacheFacts(reader), options);
}


}  // namespace cs::engine
