// One immutable snapshot of every cache analysis of a trace: what the CLI prints, the GUI shows and
// the HTML report renders.
//
// Why one snapshot: the analyses build on each other (attribution needs the replay, the acceptance
// check needs both, the holes need the replay's key ids), and the GUI must receive them whole from a
// worker thread (docs/practices.md 5). Computed once, never mutated, shared by const pointer.
#pragma once

#include "core/engine/cache/acceptance.h"
#include "core/engine/cache/cache_facts.h"
#include "core/engine/cache/cache_replay.h"
#include "core/engine/common/finding.h"
#include "core/engine/cache/holes.h"
#include "core/engine/cache/miss_attribution.h"

#include <memory>
#include <vector>

namespace cs::trace {
class TraceReader;
}

namespace cs::engine {

struct CacheAnalysis {
    CacheFacts facts;
    ReplayResult replay;
    Attribution attribution;
    AcceptanceResult acceptance;
    Holes holes;
};

std::shared_ptr<const CacheAnalysis> analyseCache(CacheFacts facts, const AcceptanceOptions& options = {});
// The same, not counted as a replay of the recorded lookups (the Warp module cache counts its own).
std::shared_ptr<const CacheAnalysis> analyseCacheUncounted(CacheFacts facts, const AcceptanceOptions& options = {});
std::shared_ptr<const CacheAnalysis> analyseCache(const trace::TraceReader& reader,
                                                  const AcceptanceOptions& options = {});

// Every finding of the cache analyses (cache_findings.cpp), most severe and costly first.
std::vector<Finding> cacheFindings(const CacheAnalysis& analysis);

}  // namespace cs::engine
