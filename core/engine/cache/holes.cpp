#include "core/engine/cache/holes.h"
#include "core/util/saturating.h"

#include <algorithm>
#include <map>

namespace cs::engine {

Holes findHoles(const CacheFacts& facts, const ReplayResult& replay) {
    Holes holes;
    // Hole 1: one key, several fingerprints. Groups in first-seen order, so output is stable.
    std::map<std::uint32_t, size_t> byKey;
    for (size_t i = 0; i < facts.lookups.size(); ++i) {
        const auto& l = facts.lookups[i];
        if (!l.fingerprint) continue;
        auto key = replay.outcomes[i].key;
        auto [it, fresh] = byKey.emplace(key, holes.staleProgram.size());
        if (fresh) holes.staleProgram.push_back({facts.str(l.program)});
        auto& h = holes.staleProgram[it->second];
        const auto& fp = facts.str(l.fingerprint);
        if (std::find(h.fingerprints.begin(), h.fingerprints.end(), fp) == h.fingerprints.end()) {
            h.fingerprints.push_back(fp);
            h.lookups.push_back(i);
        }
        const auto& o = replay.outcomes[i];
        if (o.hit && o.entry >= 0) {
            const auto& creator = facts.lookups[replay.entries[static_cast<size_t>(o.entry)].createdBy];
            if (creator.fingerprint && creator.fingerprint != l.fingerprint) h.servedStale.push_back(i);
        }
    }
    std::erase_if(holes.staleProgram, [](const StaleProgramHole& h) { return h.fingerprints.size() < 2; });

    // Hole 2: one program and fingerprint compiled under several keys. A recompile under the same key
    // (after poisoning) is the closure guard doing its job, not a key that is too fine.
    std::map<std::tuple<Sid, Sid, Sid>, size_t> byGraph;  // (cache, program, fingerprint)
    std::vector<std::vector<std::uint32_t>> keysOf;
    for (size_t i = 0; i < facts.lookups.size(); ++i) {
        const auto& l = facts.lookups[i];
        const auto& o = replay.outcomes[i];
        if (o.hit || !l.fingerprint) continue;
        auto [it, fresh] = byGraph.emplace(std::make_tuple(l.cache, l.program, l.fingerprint), holes.needlessRecompile.size());
        if (fresh) {
            holes.needlessRecompile.push_back({facts.str(l.program), facts.str(l.fingerprint)});
            keysOf.emplace_back();
        }
        auto& h = holes.needlessRecompile[it->second];
        auto& keys = keysOf[it->second];
        if (std::find(keys.begin(), keys.end(), o.key) != keys.end()) continue;  // same key: poisoning, not a hole
        keys.push_back(o.key);
        if (!h.misses.empty()) {
            std::vector<ComponentChange> keyed, unkeyed;
            diffComponents(facts, facts.lookups[h.misses.back()], l, {}, keyed, unkeyed);
            for (auto& c : keyed)
                if (std::none_of(h.changes.begin(), h.changes.end(),
                                 [&](const ComponentChange& x) { return x.name == c.name; }))
                    h.changes.push_back(std::move(c));
            h.wastedNs = util::satAdd(h.wastedNs, l.compileNs.value_or(0));
        }
        h.misses.push_back(i);
    }
    std::vector<NeedlessRecompileHole> kept;
    for (size_t g = 0; g < holes.needlessRecompile.size(); ++g)
        if (keysOf[g].size() >= 2) kept.push_back(std::move(holes.needlessRecompile[g]));
    holes.needlessRecompile = std::move(kept);
    return holes;
}

}  // namespace cs::engine
