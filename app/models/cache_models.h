// Models of the Cache view over the cache replay engine's snapshot (core/engine/cache_analysis.h):
// every lookup with the runtime's and the replay's verdict and the miss's cause, and the cache's
// problems (poisoned entries, stale handles, holes, verdict disagreements).
#pragma once

#include "table_model.h"
#include "trace_document.h"

namespace cs::gui {

struct CacheLookupRow {
    std::size_t lookup = 0;          // index into facts.lookups
    int miss = -1;                   // index into attribution.misses, -1 for a hit
    std::shared_ptr<const engine::CacheAnalysis> analysis;
    const engine::Lookup& l() const { return analysis->facts.lookups[lookup]; }
    const engine::LookupOutcome& o() const { return analysis->replay.outcomes[lookup]; }
};
using CacheLookupModel = TableModel<CacheLookupRow>;
CacheLookupModel* makeCacheLookupModel(QObject* parent);
std::shared_ptr<const std::vector<CacheLookupRow>> cacheLookupRows(std::shared_ptr<const engine::CacheAnalysis> a);
// The recorded lookups, then the Warp module loads (TraceAnalysis::moduleCache); either may be null.
std::shared_ptr<const std::vector<CacheLookupRow>> cacheLookupRows(std::shared_ptr<const engine::CacheAnalysis> recorded,
                                                                   std::shared_ptr<const engine::CacheAnalysis> modules);
// Components before and after a miss, the moved ones first, as rich text.
QString missDetailsHtml(const CacheLookupRow& row);

struct CacheIssueRow {
    QString kind;     // poisoned entries, stale handle, stale program, needless recompile, disagreement
    QString subject;  // program, handle or method
    QString detail;
    qlonglong count = 0;
    std::int64_t lookupId = 0;  // the Lookup::id to show for it
};
using CacheIssueModel = TableModel<CacheIssueRow>;
CacheIssueModel* makeCacheIssueModel(QObject* parent);
std::shared_ptr<const std::vector<CacheIssueRow>> cacheIssueRows(const engine::CacheAnalysis& a);
// Both caches' problems; either may be null.
std::shared_ptr<const std::vector<CacheIssueRow>> cacheIssueRows(const engine::CacheAnalysis* recorded,
                                                                 const engine::CacheAnalysis* modules);

}  // namespace cs::gui
