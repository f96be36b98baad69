#include "core/engine/warp/warp_cache_lookups.h"

#include "core/engine/common/analysis_counters.h"

#include <compilescope/trace_constants.h>

#include <algorithm>
#include <limits>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace cs::engine::warp {

CacheFacts moduleLookups(const ModuleReport& report) {
    CacheFacts facts;
    // The report groups loads by module; the cache sees them in load order (ids follow it).
    std::vector<const ModuleLoad*> loads;
    for (const ModuleSummary& m : report.modules)
        for (const ModuleLoad& load : m.loads)
            if (load.result == CS_MODULE_COMPILED || load.result == CS_MODULE_CACHED) loads.push_back(&load);
    if (loads.empty()) return facts;
    std::sort(loads.begin(), loads.end(), [](const ModuleLoad* a, const ModuleLoad* b) {
        return std::tie(a->sessionId, a->id) < std::tie(b->sessionId, b->id);
    });
    std::unordered_map<std::string, Sid> interned;  // CacheFacts::intern scans every string
    auto sid = [&](const std::string& s) {
        auto [it, fresh] = interned.emplace(s, static_cast<Sid>(interned.size() + 1));
        if (fresh) facts.strings.emplace(it->second, s);
        return it->second;
    };
    const Sid cache = sid(kWarpKernelCache);
    const Sid hashName = sid("hash"), deviceName = sid("device"), blockDimName = sid("block_dim");
    for (const ModuleLoad* p : loads) {
        const ModuleLoad& load = *p;
        const bool compiled = load.result == CS_MODULE_COMPILED;
        Lookup l;
        // Minus the load id (a hostile file's INT64_MIN rowid has no negation: it keeps its sign).
        l.id = load.id == std::numeric_limits<std::int64_t>::min() ? load.id : -load.id;
        l.moduleLoad = load.id;
        l.sessionId = load.sessionId;
        l.tsNs = load.startNs.value_or(0);
        l.cache = cache;
        l.program = sid(load.name);
        l.verdict = compiled ? CS_VERDICT_MISS : CS_VERDICT_HIT;
        // The cost of a miss: the native compile when recorded, else the whole load.
        if (compiled) l.compileNs = load.compileNs ? load.compileNs : load.durNs;
        l.components.push_back(
            {.name = hashName, .role = CS_ROLE_OTHER, .digest = sid(load.hash), .value = sid(shortHash(load.hash))});
        const Sid device = sid(load.device.empty() ? "(not in log)" : load.device);
        l.components.push_back({.name = deviceName, .role = CS_ROLE_OTHER, .digest = device, .value = device});
        if (load.blockDim) {
            const Sid dim = sid(std::to_string(*load.blockDim));
            l.components.push_back({.name = blockDimName, .role = CS_ROLE_OTHER, .digest = dim, .value = dim});
        }
        facts.lookups.push_back(std::move(l));
    }
    std::stable_sort(facts.lookups.begin(), facts.lookups.end(), [](const Lookup& a, const Lookup& b) {
        return std::tie(a.sessionId, a.tsNs) < std::tie(b.sessionId, b.tsNs);
    });
    return facts;
}

std::shared_ptr<const CacheAnalysis> analyseModuleCache(const ModuleReport& report) {
    CacheFacts facts = moduleLookups(report);
    if (facts.empty()) return nullptr;
    ++analysisCounters().moduleCacheReplays;
    return analyseCacheUncounted(std::move(facts));
}

}  // namespace cs::engine::warp
