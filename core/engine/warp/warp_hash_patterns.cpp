#include "core/engine/warp/warp_hash_patterns.h"

#include "core/engine/warp/warp_evidence.h"
#include "core/engine/warp/warp_unique.h"
#include "core/formats/warp_log_lines.h"
#include "core/util/saturating.h"

#include <compilescope/trace_constants.h>

#include <algorithm>
#include <map>
#include <set>

namespace cs::engine::warp {

namespace {
// The loads of one device and block_dim, in trace order; loads without a hash and failed loads left out
// (neither says which identity was in use).
std::vector<std::vector<const ModuleLoad*>> lanes(const ModuleSummary& m) {
    std::map<std::pair<std::string, std::int64_t>, std::vector<const ModuleLoad*>> byLane;
    std::vector<std::pair<std::string, std::int64_t>> order;
    for (const auto& l : m.loads) {
        if (l.hash.empty() || l.result == CS_MODULE_ERROR)
            continue;
        auto key = std::make_pair(l.device, l.blockDim.value_or(-1));
        auto [it, fresh] = byLane.try_emplace(key);
        if (fresh)
            order.push_back(key);
        it->second.push_back(&l);
    }
    std::vector<std::vector<const ModuleLoad*>> out;
    for (const auto& k : order)
        out.push_back(byLane[k]);
    return out;
}

std::string hashList(const std::vector<std::string>& hashes, const char* sep) {
    std::string s;
    for (const auto& h : hashes)
        s += (s.empty() ? "" : sep) + shortHash(h);
    return s;
}
} // namespace

std::optional<HashCycle> findHashCycle(const ModuleSummary& m) {
    for (const auto& lane : lanes(m)) {
        const size_t n = lane.size();
        // The shortest period p >= 2 with p distinct hashes, every later load repeating the load p before,
        // and at least one load after the first round (the return to its first hash).
        for (size_t p = 2; p < n; ++p) {
            std::set<std::string> round;
            for (size_t i = 0; i < p; ++i)
                round.insert(lane[i]->hash);
            if (round.size() != p)
                continue;
            bool periodic = true;
            for (size_t i = p; i < n && periodic; ++i)
                periodic = lane[i]->hash == lane[i - p]->hash;
            if (!periodic)
                continue;
            HashCycle c;
            for (size_t i = 0; i < p; ++i)
                c.hashes.push_back(lane[i]->hash);
            for (size_t i = 0; i < n; ++i) {
                c.loadIds.push_back(lane[i]->id);
                if (i < p)
                    continue;
                ++c.repeats;
                c.repeatNs = util::satAdd(c.repeatNs, lane[i]->durNs.value_or(0));
            }
            return c;
        }
    }
    return std::nullopt;
}

std::optional<RisingBuilds> findRisingBuilds(const ModuleSummary& m) {
    for (const auto& lane : lanes(m)) {
        std::set<std::string> seen;
        std::vector<const ModuleLoad*> firsts;
        for (const auto* l : lane)
            if (seen.insert(l->hash).second)
                firsts.push_back(l);
        if (firsts.size() < kRisingMinBuilds)
            continue;
        bool rising = true;
        for (size_t i = 0; i < firsts.size() && rising; ++i) {
            rising = firsts[i]->result == CS_MODULE_COMPILED && firsts[i]->durNs.value_or(0) > 0;
            if (rising && i > 0)
                rising = *firsts[i]->durNs > *firsts[i - 1]->durNs;
        }
        if (!rising)
            continue;
        if (static_cast<double>(*firsts.back()->durNs) <
            kRisingMinGrowth * static_cast<double>(*firsts.front()->durNs))
            continue;
        RisingBuilds r;
        for (size_t i = 0; i < firsts.size(); ++i) {
            r.loadIds.push_back(firsts[i]->id);
            if (i + 1 < firsts.size())
                r.supersededNs = util::satAdd(r.supersededNs, *firsts[i]->durNs);
        }
        return r;
    }
    return std::nullopt;
}

void hashCycleFinding(const ModuleSummary& m, const HashCycle& c, std::vector<Finding>& out) {
    Finding f;
    f.kind = "warp.hash_cycle";
    const size_t p = c.hashes.size(), n = c.loadIds.size();
    f.title = "module " + m.name + " cycles through " + std::to_string(p) + " hashes in a fixed order (" +
              std::to_string(n) + " loads): " + hashList(c.hashes, " -> ") + " -> " +
              shortHash(c.hashes.front());
    f.mechanism =
        "The module is loaded under the same set of hashes again and again, always in the same order: a "
        "configuration toggles between values (a module option, a kernel re-created per call with "
        "alternating parameters, a generic overload switched per call), and every switch unloads the "
        "module and loads it again under the other hash. Each configuration is needed; the reloading is "
        "the waste. Cost = every load after the first round.";
    f.fix = "Give each configuration its own module (a named module per variant, or module=\"unique\" for "
            "kernels "
            "created per configuration) so all variants stay loaded, or create every variant's kernels once, "
            "before "
            "the first launch, and select between the kernel objects instead of re-creating them.";
    f.costNs = c.repeatNs;
    for (size_t i = 0; i < n && i < p + 1; ++i)
        f.evidence.push_back(
            loadEvidence(m, c.loadIds[i],
                         i < p ? "round 1, hash " + std::to_string(i + 1) + " of " + std::to_string(p)
                               : "round 2 starts again at " + shortHash(c.hashes.front())));
    if (n > p + 1)
        f.evidence.push_back(loadEvidence(m, c.loadIds.back(),
                                          "load " + std::to_string(n) + " of " + std::to_string(n) + "; " +
                                              std::to_string(c.repeats) + " loads after the first round"));
    setRange(f, m);
    out.push_back(std::move(f));
}

void risingBuildsFinding(const ModuleSummary& m, const RisingBuilds& r, std::vector<Finding>& out) {
    Finding f;
    f.kind = "warp.compile_time_rising";
    const ModuleLoad* first = loadById(m, r.loadIds.front());
    const ModuleLoad* last = loadById(m, r.loadIds.back());
    f.title = "module " + m.name + " compile time rose with each of its " + std::to_string(r.loadIds.size()) +
              " hashes (" + formatMs(first->durNs.value_or(0)) + " -> " + formatMs(last->durNs.value_or(0)) +
              "): kernels added after the first load";
    f.mechanism =
        "Every new hash of this module was compiled, and every build took longer than the one before: the "
        "module grows. Kernels of the module are defined after it first loaded (inside functions, "
        "factories or later imports), so each launch of a newly defined kernel rebuilds the whole module "
        "with everything defined so far. Only the last build, which holds all the kernels, was needed.";
    f.fix =
        "Define the module's kernels before its first launch: at module scope, or call the factories that "
        "create them at import time; or give late, per-call kernels their own module so the shared module is "
        "built once.";
    f.costNs = r.supersededNs;
    for (size_t i = 0; i < r.loadIds.size(); ++i)
        f.evidence.push_back(loadEvidence(
            m, r.loadIds[i], "build " + std::to_string(i + 1) + " of " + std::to_string(r.loadIds.size())));
    setRange(f, m);
    out.push_back(std::move(f));
}

void uniqueNameMismatchFinding(const ModuleSummary& m, std::vector<Finding>& out) {
    // Only loads at the block_dim the name was hashed at can contradict it (warp_unique.h): a CPU load
    // always hashes at block_dim 1 and never carries the name's digits.
    if (!hasUniqueShape(m))
        return;
    Finding f;
    std::vector<std::string> foreign;
    for (const auto& id : m.identities) {
        if (!hashComparableWithUniqueName(id) || ingest::warp::isUniqueModuleName(m.name, shortHash(id.hash)))
            continue;
        if (std::find(foreign.begin(), foreign.end(), id.hash) == foreign.end())
            foreign.push_back(id.hash);
        f.evidence.push_back(loadEvidence(m, id.loadIds.front(),
                                          "content hash " + shortHash(id.hash) + ", name says " +
                                              m.name.substr(m.name.rfind('_') + 1)));
    }
    if (foreign.empty())
        return;
    f.kind = "warp.unique_hash_mismatch";
    f.title = "unique module " + m.name + " loaded under " + (foreign.size() == 1 ? "hash " : "hashes ") +
              hashList(foreign, ", ") + ", not the " + m.name.substr(m.name.rfind('_') + 1) +
              " its name carries";
    f.mechanism =
        "With module=\"unique\" Warp names the module after the kernel's hash when the kernel is declared, "
        "and the module's content hash normally starts with the same digits. Here the content hashed at "
        "load differs from what named the module (something the kernel uses changed after it was declared, "
        "or the hashing bug of NVIDIA/warp#995), so the name no longer identifies the content: kernels of "
        "different content can share one name and its cache directory. No time cost is estimated; the risk "
        "is recompiles under one name and stale cache hits.";
    f.fix =
        "Check the Warp release against NVIDIA/warp#995 (hashing of unique modules, closed) and update; make "
        "everything the kernel uses (functions, constants, captured values) final before the kernel is "
        "declared; "
        "set options through the decorator's module_options rather than afterwards.";
    setRange(f, m);
    out.push_back(std::move(f));
}

} // namespace cs::engine::warp
