#include "core/engine/cache/rank_divergence.h"

#include "core/engine/cache/miss_attribution.h"
#include "core/util/saturating.h"

#include "core/util/units.h"

#include <algorithm>
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
// The median of the ranks' compile times (the upper one of an even count), and each rank at least
// kSlowRankFactor times it and kSlowRankMinNs above it.
void findSlowRanks(const std::vector<RankTrace>& ranks, RankDivergence& d) {
    std::vector<std::int64_t> times;
    for (const auto& r : ranks)
        if (r.compileNs) times.push_back(std::max<std::int64_t>(0, *r.compileNs));
    if (times.size() < 3) return;  // two ranks have no majority to compare with
    std::nth_element(times.begin(), times.begin() + static_cast<std::ptrdiff_t>(times.size() / 2), times.end());
    const std::int64_t median = times[times.size() / 2];
    d.medianCompileNs = median;
    auto& out = d.slow;
    for (const auto& r : ranks) {
        if (!r.compileNs) continue;
        const std::int64_t ns = *r.compileNs;
        if (static_cast<double>(ns) < kSlowRankFactor * static_cast<double>(median) || util::satSub(ns, median) < kSlowRankMinNs)
            continue;
        RankSlow s{.rank = r.label, .compileNs = ns, .medianNs = median};
        for (size_t i = 0; i < r.facts->lookups.size() && i < r.replay->outcomes.size(); ++i) {
            const auto& l = r.facts->lookups[i];
            if (!r.replay->outcomes[i].hit && l.compileNs) s.longest.push_back({r.label, l.id, *l.compileNs});
        }
        std::stable_sort(s.longest.begin(), s.longest.end(), [](const RankCompile& a, const RankCompile& b) { return a.compileNs > b.compileNs; });
        if (s.longest.size() > 3) s.longest.resize(3);
        out.push_back(std::move(s));
    }
    std::stable_sort(out.begin(), out.end(), [](const RankSlow& a, const RankSlow& b) { return a.compileNs > b.compileNs; });
}
}  // namespace

std::string slowRankText(const RankSlow& s) {
    const double ratio = static_cast<double>(s.compileNs) / static_cast<double>(std::max<std::int64_t>(1, s.medianNs));
    return "rank " + s.rank + " compiled for " + util::formatDuration(s.compileNs) + ", " + util::formatFixed(ratio, 1) +
           "x the median rank's " + util::formatDuration(s.medianNs);
}

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
    findSlowRanks(ranks, d);
    return d;
}

std::vector<Finding> rankDivergenceFindings(const RankDivergence& d) {
    std::vector<Finding> out;
    for (const auto& p : d.programs) {
        Finding f;
        f.kind = "cache.rank_divergence";
        f.severity = Severity::Warning;
        f.title = "ranks diverge: " + p.key + " compiled by " + util::formatList(p.compiledBy) + ", not by " + util::formatList(p.notBy);
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
    for (const auto& s : d.slow) {
        Finding f;
        f.kind = "cache.rank_slow";
        f.severity = Severity::Warning;
        f.title = slowRankText(s);
        f.mechanism = "The ranks of one job meet at every collective, so the job moves at the pace of its slowest "
                      "rank: while one rank compiles far longer than the others (a cold compile cache on its node, "
                      "programs the others did not compile), every other rank waits.";
        f.costNs = util::satSub(s.compileNs, s.medianNs);
        for (const auto& c : s.longest) f.evidence.push_back({"cache_lookups", c.lookupId, "in " + c.rank});
        f.fix = "Compare what this rank compiled with the others (the divergent programs above); give every node the "
                "same persistent compile cache, or warm it before the job, so that no rank compiles what the others load.";
        out.push_back(std::move(f));
    }
    return out;
}

}  // namespace cs::engine
