// The forest once built: its counts and order (finishForest), the superseding methods a collector
// recorded, and the selections and searches the views ask for. Building it from the raw logs is in
// invalidation_log_builder.cpp and the two walks beside it; from printed trees, in
// invalidation_printed.cpp. Why the trees are rebuilt at all: invalidation_trees.h.
#include "core/engine/julia/invalidation_trees.h"

#include "core/formats/julia_signature.h"
#include "core/util/saturating.h"

#include <algorithm>
#include <charconv>
#include <unordered_map>
#include <unordered_set>

namespace cs::engine {

const char* reasonName(InvalidationReason r) {
    switch (r) {
    case InvalidationReason::Inserting: return "inserting";
    case InvalidationReason::Deleting: return "deleting";
    case InvalidationReason::Rebinding: return "rebinding";
    case InvalidationReason::Unknown: return "unknown";
    }
    return "unknown";
}

bool knownJuliaVersion(std::string_view version) {
    if (version.empty()) return true;
    int major = 0, minor = 0;
    auto dot = version.find('.');
    if (dot == std::string_view::npos) return false;
    auto r1 = std::from_chars(version.data(), version.data() + dot, major);
    auto rest = version.substr(dot + 1);
    auto r2 = std::from_chars(rest.data(), rest.data() + rest.size(), minor);
    if (r1.ec != std::errc() || r2.ec != std::errc()) return false;
    // 1.9 .. 1.13: the "logmeths" tags of gf.c since julia#46756 and, from 1.12, the StaticData list.
    return major == 1 && minor >= 9 && minor <= 13;
}

void finishForest(InvalidationForest& f) {
    // Joins may move children below lower-numbered parents; recompute in index order is then wrong,
    // so sort each child list and count with an explicit post-order walk instead.
    std::vector<std::int32_t> order;
    order.reserve(f.nodes.size());
    std::vector<std::int32_t> stack;
    for (size_t k = 0; k < f.nodes.size(); ++k) {
        if (f.nodes[k].parent >= 0) continue;
        stack.push_back(static_cast<std::int32_t>(k));
        while (!stack.empty()) {
            auto v = stack.back();
            stack.pop_back();
            order.push_back(v);
            for (auto c : f.nodes[static_cast<size_t>(v)].children) stack.push_back(c);
        }
    }
    for (auto& n : f.nodes) {
        n.descendants = n.hiddenChildren;
        n.subtreeRecompileNs = n.recompileNs;
    }
    for (size_t k = order.size(); k-- > 0;) {
        auto& n = f.nodes[static_cast<size_t>(order[k])];
        for (auto c : n.children) {
            n.descendants = util::satAdd(n.descendants, util::satAdd(1, f.nodes[static_cast<size_t>(c)].descendants));
            n.subtreeRecompileNs = util::satAdd(n.subtreeRecompileNs, f.nodes[static_cast<size_t>(c)].subtreeRecompileNs);
        }
    }
    auto byCount = [&](std::int32_t a, std::int32_t b) {
        return f.nodes[static_cast<size_t>(a)].descendants < f.nodes[static_cast<size_t>(b)].descendants;
    };
    for (auto& n : f.nodes) std::stable_sort(n.children.begin(), n.children.end(), byCount);
    for (auto& t : f.trees) {
        std::stable_sort(t.mtBackedges.begin(), t.mtBackedges.end(),
                         [&](const MtBackedge& a, const MtBackedge& b) { return byCount(a.root, b.root); });
        std::stable_sort(t.backedges.begin(), t.backedges.end(),
                         [&](const Backedge& a, const Backedge& b) { return byCount(a.root, b.root); });
        t.children = 0;
        t.invalidatedInstances = 0;
        t.recompileNs = 0;
        t.recompiledInstances = 0;
        // Distinct MethodInstances of the tree: each is counted, and costs, once.
        // Instance texts are pooled (one copy per distinct text), so identity of the characters is
        // identity of the instance: hashing pointers instead of a million strings.
        std::unordered_set<const char*> seen;
        std::vector<std::int32_t> walk;
        auto visitEntry = [&](std::int32_t root) {
            t.children = util::satAdd(t.children, f.nodes[static_cast<size_t>(root)].descendants);
            walk.push_back(root);
            while (!walk.empty()) {
                auto v = walk.back();
                walk.pop_back();
                const auto& n = f.nodes[static_cast<size_t>(v)];
                if (!n.isDummy() && seen.insert(n.mi.data()).second) {
                    // Counts come from printed text ((N children)): saturate, never overflow.
                    t.invalidatedInstances = util::satAdd(t.invalidatedInstances, util::satAdd(1, n.hiddenChildren));
                    t.recompileNs = util::satAdd(t.recompileNs, n.recompileNs);
                    if (n.recompileNs > 0) ++t.recompiledInstances;
                } else if (n.hiddenChildren) {
                    t.invalidatedInstances = util::satAdd(t.invalidatedInstances, n.hiddenChildren);
                }
                for (auto c : n.children) walk.push_back(c);
            }
        };
        for (const auto& e : t.mtBackedges) visitEntry(e.root);
        for (const auto& b : t.backedges) visitEntry(b.root);
        if (t.module.empty()) t.module = moduleOfText(t.method);
    }
    std::stable_sort(f.trees.begin(), f.trees.end(),
                     [](const MethodInvalidations& a, const MethodInvalidations& b) { return a.children < b.children; });
}

void fillSuperseded(const InvalidationInput& input, InvalidationForest& f) {
    // Fill in "superseding <method>" where a collector recorded each instance's Method.
    std::unordered_map<std::string_view, std::string_view> methodOf;
    for (const auto& [mi, m] : input.methodOfInstance) methodOf.emplace(mi, m);
    for (auto& t : f.trees)
        for (auto& b : t.backedges)
            if (b.superseded.empty()) {
                auto it = methodOf.find(f.nodes[static_cast<size_t>(b.root)].mi);
                if (it != methodOf.end()) b.superseded = std::string(it->second);
            }
}


std::shared_ptr<const InvalidationForest> filterTrees(const InvalidationForest& forest, std::string_view module,
                                                      std::int64_t minChildren) {
    auto out = std::make_shared<InvalidationForest>(forest);
    out->trees.clear();
    if (!module.empty() || minChildren > 0) out->declaredTrees.reset();  // a selection, not the printout
    for (const auto& t : forest.trees) {
        if (!module.empty() && t.module != module) continue;
        if (t.children < minChildren) continue;
        out->trees.push_back(t);
    }
    return out;
}

std::optional<CallerPath> findCaller(const InvalidationForest& f, std::string_view needle) {
    // Depth-first from each entry root, largest trees last as printed; the first match wins.
    for (size_t t = 0; t < f.trees.size(); ++t) {
        std::vector<std::int32_t> roots;
        for (const auto& e : f.trees[t].mtBackedges) roots.push_back(e.root);
        for (const auto& b : f.trees[t].backedges) roots.push_back(b.root);
        for (auto r : roots) {
            std::vector<std::pair<std::int32_t, size_t>> stack{{r, 0}};
            if (f.nodes[static_cast<size_t>(r)].mi.find(needle) != std::string::npos) return CallerPath{t, {r}};
            while (!stack.empty()) {
                auto& [v, next] = stack.back();
                const auto& kids = f.nodes[static_cast<size_t>(v)].children;
                if (next >= kids.size()) {
                    stack.pop_back();
                    continue;
                }
                auto c = kids[next++];
                stack.push_back({c, 0});
                if (f.nodes[static_cast<size_t>(c)].mi.find(needle) != std::string::npos) {
                    CallerPath p{t, {}};
                    for (auto& s : stack) p.nodes.push_back(s.first);
                    return p;
                }
            }
        }
    }
    return std::nullopt;
}

}  // namespace cs::engine
