// Sentences for a timeline row, built from the analysis (row_story.h says why).
#include "core/engine/analysis/row_story.h"

#include "core/engine/cache/cache_analysis.h"
#include "core/engine/analysis/trace_analysis.h"
#include "core/engine/warp/warp_modules.h"
#include "core/util/units.h"

#include <compilescope/trace_constants.h>

namespace cs::engine {

namespace {
const Lookup* findLookup(const CacheAnalysis& cache, std::int64_t lookupId, std::size_t* index) {
    for (std::size_t i = 0; i < cache.facts.lookups.size(); ++i) {
        const Lookup& l = cache.facts.lookups[i];
        if (!l.moduleLoad && l.id == lookupId) {
            *index = i;
            return &l;
        }
    }
    return nullptr;
}

const MissExplanation* explanationOf(const CacheAnalysis& cache, std::size_t index) {
    for (const MissExplanation& m : cache.attribution.misses)
        if (m.lookup == index) return &m;
    return nullptr;
}

std::string joinChanges(const std::vector<ComponentChange>& changes) {
    std::string out;
    for (const ComponentChange& c : changes)
        out += (out.empty() ? "" : ", ") + c.name + " moved " + c.before + " → " + c.after;
    return out;
}

// What made a miss, in one clause: "shape of arg 2 moved 128x64 → 100x64".
std::string missClause(const CacheAnalysis& cache, const Lookup& l, const MissExplanation* m) {
    const std::string program = cache.facts.str(l.program);
    if (!m) return "no earlier entry of " + program;
    switch (m->cause) {
    case MissCause::FirstCompile: return "first compile of " + program + " in this process";
    case MissCause::KeyMoved: return m->changes.empty() ? m->reason : joinChanges(m->changes);
    case MissCause::Poisoned: {
        std::string methods;
        for (const std::string& d : m->drifted) methods += (methods.empty() ? "" : ", ") + d;
        return "its entry went stale: " + (methods.empty() ? m->reason : methods + " redefined");
    }
    }
    return m->reason;
}

std::string stepText(const Lookup& l) { return l.step ? " at step " + std::to_string(*l.step) : std::string(); }
}  // namespace

std::string findingOf(const TraceAnalysis& analysis, const std::string& table, std::int64_t rowId) {
    for (const Finding& f : analysis.findings)
        for (const Evidence& e : f.evidence)
            if (e.table == table && e.rowId == rowId) return f.title;
    return {};
}

std::optional<RowStory> lookupStory(const TraceAnalysis& analysis, std::int64_t lookupId) {
    if (!analysis.cache) return std::nullopt;
    const CacheAnalysis& cache = *analysis.cache;
    std::size_t index = 0;
    const Lookup* l = findLookup(cache, lookupId, &index);
    if (!l) return std::nullopt;
    const LookupOutcome& outcome = cache.replay.outcomes[index];
    const bool miss = l->verdict == CS_VERDICT_MISS || (l->verdict == CS_VERDICT_UNKNOWN && !outcome.hit);
    const std::string program = cache.facts.str(l->program);
    RowStory story;
    if (miss) {
        const MissExplanation* m = explanationOf(cache, index);
        story.headline = "miss: " + missClause(cache, *l, m);
        story.headline += l->compileNs ? "; compile " + util::formatDuration(*l->compileNs) : "; compile time not recorded";
        if (m && m->against) story.lines.push_back("compared with " + lookupName(cache.facts.lookups[*m->against]) +
                                                    stepText(cache.facts.lookups[*m->against]));
        if (m && !m->unkeyed.empty()) story.lines.push_back("also changed, not in the key: " + joinChanges(m->unkeyed));
    } else {
        story.headline = outcome.loaded ? "hit: " + program + " loaded from a persistent cache, no compile"
                         : outcome.memo ? "hit: " + program + " served from the handle's own memo, no compile"
                                        : "hit: " + program + " served from the cache, no compile";
        if (outcome.stale) story.lines.push_back("the program it served was stale: its entry had been poisoned");
    }
    std::string where = "program " + program;
    if (const std::string& c = cache.facts.str(l->cache); !c.empty()) where += " in cache " + c;
    story.lines.insert(story.lines.begin(), where + stepText(*l));
    if (outcome.disagrees)
        story.lines.push_back(std::string("the runtime said ") + (miss ? "miss" : "hit") + "; replaying the keys says " +
                              (outcome.hit ? "hit" : "miss"));
    if (const std::string f = findingOf(analysis, "cache_lookups", lookupId); !f.empty()) story.lines.push_back("finding: " + f);
    return story;
}

std::optional<RowStory> moduleLoadStory(const TraceAnalysis& analysis, std::int64_t loadId) {
    if (!analysis.modules) return std::nullopt;
    for (const warp::ModuleSummary& m : analysis.modules->modules)
        for (const warp::ModuleLoad& load : m.loads) {
            if (load.id != loadId) continue;
            std::size_t identity = 0;
            for (std::size_t k = 0; k < m.identities.size(); ++k)
                for (std::int64_t id : m.identities[k].loadIds)
                    if (id == loadId) identity = k + 1;
            RowStory story;
            const std::string how = load.result == CS_MODULE_COMPILED ? "compiled"
                                    : load.result == CS_MODULE_CACHED ? "loaded from the kernel cache"
                                    : load.result == CS_MODULE_ERROR  ? "failed to load"
                                                                      : "loaded";
            story.headline = "module " + m.name + " " + how;
            if (load.durNs) story.headline += " in " + util::formatDuration(*load.durNs);
            std::string id = "hash " + warp::shortHash(load.hash);
            if (identity > 0) id += ", identity " + std::to_string(identity) + " of " + std::to_string(m.identities.size());
            story.lines.push_back(id);
            std::string target = load.device.empty() ? std::string() : "on " + load.device;
            if (load.blockDim) target += (target.empty() ? "" : ", ") + std::string("block_dim ") + std::to_string(*load.blockDim);
            if (!target.empty()) story.lines.push_back(target);
            if (load.compileNs) story.lines.push_back("native compile " + util::formatDuration(*load.compileNs));
            if (const std::string f = findingOf(analysis, "module_loads", loadId); !f.empty()) story.lines.push_back("finding: " + f);
            return story;
        }
    return std::nullopt;
}

std::optional<RowStory> compileCauseStory(const TraceAnalysis& analysis, std::int64_t sessionId, std::int64_t startNs,
                                          std::int64_t endNs) {
    if (!analysis.cache) return std::nullopt;
    const CacheAnalysis& cache = *analysis.cache;
    for (std::size_t i = 0; i < cache.facts.lookups.size(); ++i) {
        const Lookup& l = cache.facts.lookups[i];
        if (l.moduleLoad || l.sessionId != sessionId || l.tsNs < startNs || l.tsNs >= endNs) continue;
        if (l.verdict == CS_VERDICT_HIT || (l.verdict == CS_VERDICT_UNKNOWN && cache.replay.outcomes[i].hit)) continue;
        RowStory story;
        story.headline = "caused by the miss of " + cache.facts.str(l.program) + stepText(l) + " (" + lookupName(l) + ")";
        story.lines.push_back("why it missed: " + missClause(cache, l, explanationOf(cache, i)));
        if (const std::string f = findingOf(analysis, "cache_lookups", l.id); !f.empty()) story.lines.push_back("finding: " + f);
        return story;
    }
    return std::nullopt;
}

}  // namespace cs::engine
