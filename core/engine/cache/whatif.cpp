#include "core/engine/cache/whatif.h"
#include "core/util/saturating.h"

#include <algorithm>
#include <map>
#include <set>

namespace cs::engine {

WhatIfResult whatIf(const CacheFacts& facts, const ReplayResult& baseline, const KeyRule& rule) {
    WhatIfResult r{.rule = rule, .baseline = baseline.total};
    auto changed = replayCache(facts, rule);
    r.changed = changed.total;

    std::set<std::string> seen;
    std::map<Sid, std::pair<std::int64_t, std::int64_t>> compileTime;  // program -> (sum, n)
    for (const auto& l : facts.lookups) {
        for (const auto& c : l.components) {
            seen.insert(facts.str(c.name));
            seen.insert(roleName(c.role));
        }
        if (l.compileNs) {
            auto& [sum, n] = compileTime[l.program];
            sum = util::satAdd(sum, *l.compileNs);
            ++n;
        }
    }
    // A name that matches nothing is almost always a typo; the CLI refuses it rather than report
    // "0 saved" for a component the trace never had.
    for (const auto* names : {&rule.exclude, &rule.include})
        for (const auto& n : *names)
            if (!seen.count(n)) r.unknownNames.push_back(n);

    // Compare verdicts lookup by lookup: the flips are the compiles the changed rule saves or adds.
    for (size_t i = 0; i < facts.lookups.size(); ++i) {
        const auto& l = facts.lookups[i];
        bool before = baseline.outcomes[i].hit, after = changed.outcomes[i].hit;
        if (before == after) continue;
        VerdictFlip f{.lookup = i, .nowHit = after};
        if (after) {
            f.costNs = l.compileNs.value_or(0);
            const auto& o = changed.outcomes[i];
            const auto& creator = facts.lookups[changed.entries[static_cast<size_t>(o.entry)].createdBy];
            f.unsafe = l.fingerprint && creator.fingerprint && l.fingerprint != creator.fingerprint;
            if (f.unsafe) ++r.unsafeHits;
            r.nsSaved = util::satAdd(r.nsSaved, f.costNs);
        } else {
            auto it = compileTime.find(l.program);
            f.costNs = it == compileTime.end() ? 0 : it->second.first / it->second.second;
            f.estimated = true;
            r.nsSaved -= f.costNs;
        }
        r.flips.push_back(f);
    }
    r.compilesSaved = r.baseline.misses - r.changed.misses;
    return r;
}

}  // namespace cs::engine
