#include "rank_divergence.h"

#include "miss_attribution.h"

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
template <typename Key>
void split(const std::vector<std::string>& ranks, const std::set<std::string>& have, std::vector<std::string>& with,
           std::vector<std::string>& without) {
    for (const auto& r : ranks) (have.count(r) ? with : without).push_back(r);
}
}  // namespace

RankDivergence compareRanks(const std::vector<RankTrace>& ranks) {
    RankDivergence d;
    // Ordered maps: output order is the keys' text order, identical across runs.
    std::map<std::string, std::set<std::string>> keyRanks;
    std::map<std::pair<std::string, std::int64_t>, std::set<std::string>> missRanks;
    for (const auto& r : ranks) {
        d.ranks.push_back(r.label);
        for (size_t i = 0; i < r.facts->lookups.size(); ++i) {
            if (r.replay->outcomes[i].hit) continue;
            const auto& l = r.facts->lookups[i];
            keyRanks[keyText(*r.facts, l)].insert(r.label);
            if (l.step) missRanks[{r.facts->str(l.program), *l.step}].insert(r.label);
        }
    }
    for (const auto& [key, have] : keyRanks) {
        if (have.size() == ranks.size()) continue;
        RankProgramDivergence p{.key = key};
        split<std::string>(d.ranks, have, p.compiledBy, p.notBy);
        d.programs.push_back(std::move(p));
    }
    for (const auto& [ps, have] : missRanks) {
        if (have.size() == ranks.size()) continue;
        RankStepDivergence s{.program = ps.first, .step = ps.second};
        split<std::string>(d.ranks, have, s.missedBy, s.notBy);
        d.steps.push_back(std::move(s));
    }
    return d;
}

}  // namespace cs::engine
