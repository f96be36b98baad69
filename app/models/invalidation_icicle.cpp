#include "invalidation_icicle.h"

#include <algorithm>

namespace cs::gui {

qlonglong icicleWeight(const InvalidationItem& item, bool byCost) {
    if (byCost) return item.recompileNs;
    // A root: its distinct MethodInstances; an edge or caller: itself and every caller below it.
    return item.invalidated >= 0 ? item.invalidated : item.children + 1;
}

IcicleLayout layoutIcicle(const InvalidationTreeSnapshot& tree, double minWidth) {
    IcicleLayout out;
    out.byCost = tree.forest && tree.forest->costJoined;
    if (out.byCost) {
        qlonglong cost = 0;
        for (int r : tree.roots) cost += tree.nodes[static_cast<std::size_t>(r)].item.recompileNs;
        out.byCost = cost > 0;  // timings joined but nothing recompiled: count instead
    }
    auto weight = [&](int node) { return icicleWeight(tree.nodes[static_cast<std::size_t>(node)].item, out.byCost); };
    // Heaviest first within each parent, as a flame graph reads.
    auto sorted = [&](const std::vector<int>& ids) {
        std::vector<int> v(ids);
        std::stable_sort(v.begin(), v.end(), [&](int a, int b) { return weight(a) > weight(b); });
        return v;
    };
    for (int r : tree.roots) out.total += std::max<qlonglong>(0, weight(r));
    if (out.total <= 0) return out;
    struct Span {
        int node, depth;
        double x0, x1;
    };
    std::vector<Span> stack;
    {
        double x = 0;
        std::vector<Span> roots;
        for (int r : sorted(tree.roots)) {
            const double w = static_cast<double>(std::max<qlonglong>(0, weight(r))) / static_cast<double>(out.total);
            roots.push_back({r, 0, x, x + w});
            x += w;
        }
        stack.assign(roots.rbegin(), roots.rend());
    }
    // Depth first with an explicit stack: caller trees can be deeper than our own stack.
    while (!stack.empty()) {
        Span s = stack.back();
        stack.pop_back();
        if (s.x1 - s.x0 <= 0 || s.x1 - s.x0 < minWidth) continue;
        out.blocks.push_back({s.node, s.depth, s.x0, s.x1, weight(s.node)});
        out.depths = std::max(out.depths, s.depth + 1);
        const auto& kids = tree.nodes[static_cast<std::size_t>(s.node)].children;
        if (kids.empty()) continue;
        qlonglong sum = 0;
        for (int c : kids) sum += std::max<qlonglong>(0, weight(c));
        const qlonglong scale = std::max(sum, weight(s.node));
        if (scale <= 0) continue;
        double x = s.x0;
        std::vector<Span> next;
        for (int c : sorted(kids)) {
            const double w = (s.x1 - s.x0) * static_cast<double>(std::max<qlonglong>(0, weight(c))) / static_cast<double>(scale);
            next.push_back({c, s.depth + 1, x, x + w});
            x += w;
        }
        for (auto it = next.rbegin(); it != next.rend(); ++it) stack.push_back(*it);
    }
    return out;
}

int icicleBlockAt(const IcicleLayout& layout, double x, int depth) {
    for (std::size_t i = 0; i < layout.blocks.size(); ++i) {
        const IcicleBlock& b = layout.blocks[i];
        if (b.depth == depth && x >= b.x0 && x < b.x1) return static_cast<int>(i);
    }
    return -1;
}

}  // namespace cs::gui
