#include "core/engine/cache/rank_divergence.h"

#include "core/engine/cache/miss_attribution.h"
#include "core/util/saturating.h"

#include <map>
#include <set>

namespace cs::engine {

std::string keyText(const CacheFacts& facts, const Lookup& l) {
    std::string s = facts.str(l.program) + "(";
    bool first = true;
    for (const auto& c : l.components) {
        if (!c.inKey()) continue;
        s += (first ? "" : ", ") + facts.str(c.name) + "=" + componentValue(facts, c);
        first = false;
    }
    return s + ")";
}

namespace {
void split(const std::vector<std::string>& ranks, const std::set<std::string>& have, std::vector<std::string>& with,
           std::vector<std::string>& without) {
    for (const auto& r : ranks) (have.count(r) ? with : without).push_back(r);
}
}  // namespace

RankDivergence compareRanks(const std::vector<RankTrace>& ranks) {
    RankDivergence d;
    // Ordered maps: output order is the keys' text order, identical across runs.
    std::map<std::string, std::set<std::string>> keyRanks;
    std::map<std::string, std::vector<RankCompile>> keyCompiles;
    std::map<std::pair<std::string, std::int64_t>, std::set<std::string>> missRanks;
    for (const auto& r : ranks) {
        d.ranks.push_back(r.label);
        for (size_t i = 0; i < r.facts->lookups.size(); ++i) {
            if (r.replay->outcomes[i].hit) continue;
            const auto& l = r.facts->lookups[i];
            auto key = keyText(*r.facts, l);
            if (keyRanks[key].insert(r.label).second)
                keyCompiles[key].push_back({r.label, l.id, l.compileNs.value_or(0)});
            if (l.step) missRanks[{r.facts->str(l.program), *l.step}].insert(r.label);
        }
    }
    // A key every rank compiled is agreement; anything else names who paid and who did not.
    for (const auto& [key, have] : keyRanks) {
        if (have.size() == ranks.size()) continue;
        RankProgramDivergence p{.key = key, .compiles = keyCompiles[key]};
        split(d.ranks, have, p.compiledBy, p.notBy);
        d.programs.push_back(std::move(p));
    }
    for (const auto& [ps, have] : missRanks) {
        if (have.size() == ranks.size()) continue;
        RankStepDivergence s{.program = ps.first, .step = ps.second};
        split(d.ranks, have, s.missedBy, s.notBy);
        d.steps.push_back(std::move(s));
    }
    return d;
}

std::vector<Finding> rankDivergenceFindings(const RankDivergence& d) {
    std::vector<Finding> out;
    auto list = [](const std::vector<std::string>& v) {
        std::string s;
        for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
        return s;
    };
    for (const auto& p : d.programs) {
        Finding f;
        f.kind = "cache.rank_divergence";
        f.severity = Severity::Warning;
        f.title = "ranks diverge: " + p.key + " compiled by " + list(p.compiledBy) + ", not by " + list(p.notBy);
        f.mechanism = "The ranks of one job should compile the same programs. A rank that compiles a key the "
                      "others do not (a ragged shard, a rank-local GraphConst) pays the compile while the others "
                      "wait for it at the next collective.";
        f.costNs = 0;
        for (const auto& c : p.compiles) {
            *f.costNs = util::satAdd(*f.costNs, c.compileNs);
            f.evidence.push_back({"cache_lookups", c.lookupId, "in " + c.rank});
        }
        f.fix = "Give every rank the same batch shapes and GraphConst values (pad or drop the ragged shard tail).";
        out.push_back(std::move(f));
    }
    return out;
}

}  // namespace cs::engine
