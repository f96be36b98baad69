// The acceptance verdict of a trace, judged once for every view (`check`, the GUI, the report).
//
// Why one verdict: the rule comes from the ReactantNitro acceptance run (docs/cache-replay.md):
// "misses == entries" (a miss that is not a new entry is a program compiled twice), no miss after the
// first step, and the expected program count. With lookups the replay engine judges it; with only
// the runtime's cache_stats() counters, misses == entries is judged from the counters; with neither
// there is nothing to judge and the verdict is "not applicable", which passes a CI gate.
#pragma once

#include "core/engine/cache/cache_analysis.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cs::trace {
class TraceReader;
}

namespace cs::engine {

struct AcceptanceRule {
    std::string rule;    // "misses == entries"
    std::string scope;   // the cache or program the rule was judged on
    bool pass = true;
    std::string detail;  // the numbers behind the verdict
};

enum class VerdictState { NotApplicable, Pass, Fail };
// "not-applicable", "pass", "fail" (the machine-readable spelling of every view).
const char* verdictName(VerdictState state);

struct AcceptanceVerdict {
    VerdictState state = VerdictState::NotApplicable;
    std::vector<AcceptanceRule> rules;  // empty when not applicable
    std::string source;                 // what judged it, in words
    // Cache lookup rows (or their key components) left out as trace problems (issue 40): the rules
    // judged the rest of the run only, so every view says "incomplete", never pass (`check` exits 3).
    std::int64_t lookupsLeftOut = 0;
    bool passes() const { return state != VerdictState::Fail; }
    bool incomplete() const { return lookupsLeftOut > 0; }
};
// verdictName(state), or "incomplete" when lookups were left out.
inline const char* verdictName(const AcceptanceVerdict& v) { return v.incomplete() ? "incomplete" : verdictName(v.state); }

// The last hits / misses / entries snapshot of each cache_stats() scope, per session.
struct CacheCounters {
    std::int64_t sessionId = 0;
    std::string scope;
    std::optional<std::int64_t> hits, misses, entries;
};
std::vector<CacheCounters> readCacheCounters(const trace::TraceReader& reader);

// `cache` may be null (no lookups recorded).
AcceptanceVerdict judgeAcceptance(const CacheAnalysis* cache, const std::vector<CacheCounters>& counters);

}  // namespace cs::engine
