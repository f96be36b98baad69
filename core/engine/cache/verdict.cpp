#include "core/engine/cache/verdict.h"

#include "core/trace/reader.h"
#include "core/trace/row.h"

#include <map>

namespace cs::engine {

const char* verdictName(VerdictState state) {
    switch (state) {
    case VerdictState::NotApplicable: return "not-applicable";
    case VerdictState::Pass: return "pass";
    case VerdictState::Fail: return "fail";
    }
    return "not-applicable";
}

std::vector<CacheCounters> readCacheCounters(const trace::TraceReader& reader) {
    std::map<std::pair<std::int64_t, std::string>, CacheCounters> last;
    reader.query("SELECT c.session_id, coalesce(sc.str, ''), n.str, c.value FROM counters c "
                 "JOIN strings n ON n.id = c.name_sid LEFT JOIN strings sc ON sc.id = c.scope_sid "
                 "WHERE n.str IN ('hits', 'misses', 'entries') ORDER BY c.session_id, c.ts_ns, c.id",
                 [&](const trace::Row& st) {
                     CacheCounters& c = last[{trace::colInt(st, 0), trace::colText(st, 1)}];
                     c.sessionId = trace::colInt(st, 0);
                     c.scope = trace::colText(st, 1);
                     const std::string name = trace::colText(st, 2);
                     (name == "hits" ? c.hits : name == "misses" ? c.misses : c.entries) = trace::colInt(st, 3);
                 });
    std::vector<CacheCounters> out;
    for (auto& [key, c] : last) out.push_back(std::move(c));
    return out;
}

namespace {
// The engine's verdict as rows: the three rules always, then every other broken rule (the replay
// disagreeing with the runtime, cache_stats() disagreeing).
void fromReplay(const CacheAnalysis& cache, AcceptanceVerdict& v) {
    const AcceptanceResult& a = cache.acceptance;
    std::map<std::string, std::vector<std::string>> failed;
    std::vector<std::string> order;
    for (const auto& f : a.failures) {
        if (!failed.count(f.rule)) order.push_back(f.rule);
        failed[f.rule].push_back(f.reason);
    }
    auto row = [&](const std::string& rule, const std::string& passDetail) {
        auto it = failed.find(rule);
        if (it == failed.end()) {
            v.rules.push_back({rule, "whole trace", true, passDetail});
            return;
        }
        std::string detail;
        for (size_t i = 0; i < it->second.size() && i < 5; ++i) detail += (i ? "; " : "") + it->second[i];
        if (it->second.size() > 5) detail += "; and " + std::to_string(it->second.size() - 5) + " more";
        v.rules.push_back({rule, "whole trace", false, detail});
    };
    row("misses == entries", "misses " + std::to_string(a.counts.misses) + ", entries " + std::to_string(a.counts.entries));
    row("no miss after the first step", "no program missed after the step it was first used at");
    if (a.expected)
        row("expected program count", "compiled " + std::to_string(a.counts.misses) + ", expected " +
                                          std::to_string(*a.expected) +
                                          (a.derived.basis.empty() ? "" : " (" + a.derived.basis + ")"));
    for (const auto& rule : order)
        if (rule != "misses == entries" && rule != "no miss after the first step" && rule != "expected program count")
            row(rule, "");
    v.source = "the replay engine: the trace's lookups replayed in order, checked against the runtime's own "
               "verdicts and cache counters";
}

// Without lookups the runtime's counters can still be judged: misses == entries per cache.
void fromCounters(const std::vector<CacheCounters>& counters, AcceptanceVerdict& v) {
    for (const CacheCounters& c : counters) {
        if (!c.misses || !c.entries) continue;
        std::string scope = c.scope.empty() ? "session " + std::to_string(c.sessionId)
                                            : c.scope + " (session " + std::to_string(c.sessionId) + ")";
        std::string detail = "misses " + std::to_string(*c.misses) + ", entries " + std::to_string(*c.entries);
        if (*c.misses > *c.entries) detail += ": " + std::to_string(*c.misses - *c.entries) + " program(s) compiled twice";
        v.rules.push_back({"misses == entries", scope, *c.misses == *c.entries, detail});
    }
    v.source = "the runtime's own cache counters (no lookups recorded to replay)";
}
}  // namespace

AcceptanceVerdict judgeAcceptance(const CacheAnalysis* cache, const std::vector<CacheCounters>& counters) {
    AcceptanceVerdict v;
    if (cache && !cache->facts.lookups.empty()) fromReplay(*cache, v);
    else fromCounters(counters, v);
    if (v.rules.empty()) {
        v.state = VerdictState::NotApplicable;
        v.source = "nothing to judge: the trace records no cache lookups and no cache counters";
        return v;
    }
    v.state = VerdictState::Pass;
    for (const auto& r : v.rules)
        if (!r.pass) v.state = VerdictState::Fail;
    return v;
}

}  // namespace cs::engine
