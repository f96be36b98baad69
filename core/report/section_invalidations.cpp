// Invalidation trees: which method insertion or deletion invalidated which compiled code, and what
// the recompilation cost (the Enzyme.jl #776 case (docs/invalidations.md): `show` on a Type invalidated Enzyme.__init__, ~18-30 s at load).
// The trees are the engine's (engine/invalidation_trees.h, SnoopCompile's semantics, costs joined
// from the trace's compile timings); a log the builder cannot read is listed raw, and its problems
// are named.
//
// Rendered as nested <details> elements, so the trees collapse without any script; each node shows
// its children count and the recompile time of its subtree. Cut at kMaxListedRows children per node
// and kNodeBudget nodes per trace, and the cut is stated.
#include "core/report/sections.h"

#include "core/engine/analysis/trace_analysis.h"
#include "core/util/units.h"

#include <algorithm>
#include <map>

namespace cs::report {

namespace {
InvalidationNode leafNode(std::string label, std::string kind) {
    InvalidationNode n;
    n.label = std::move(label);
    n.kind = std::move(kind);
    return n;
}

// Rendered nodes per report: trees of a million items still fit in a few megabytes.
constexpr std::int64_t kNodeBudget = 4000;

class TreeCopier {
public:
    explicit TreeCopier(const engine::InvalidationForest& f) : m_f(f) {}

    // A caller subtree of the forest, cut at the budget and at kMaxListedRows children per node.
    void subtree(std::int32_t index, std::string label, std::string kind, InvalidationNode& out) {
        const engine::InvalidationNode& n = m_f.nodes[static_cast<size_t>(index)];
        out.kind = std::move(kind);
        out.label = std::move(label);
        out.children = n.descendants;
        if (m_f.costJoined && n.subtreeRecompileNs > 0) out.costNs = n.subtreeRecompileNs;
        for (auto c : n.children) {
            if (out.kids.size() >= kMaxListedRows || m_used >= kNodeBudget) break;
            ++m_used;
            out.kids.emplace_back();
            const auto& child = m_f.nodes[static_cast<size_t>(c)];
            subtree(c, std::string(child.mi), "caller", out.kids.back());
        }
    }

    InvalidationNode tree(const engine::MethodInvalidations& t) {
        InvalidationNode root;
        root.kind = engine::reasonName(t.reason);
        root.label = t.multiMethodHeader && !t.methods.empty() ? "methods " + t.methods.front() : t.method;
        root.children = t.children;
        if (m_f.costJoined) root.costNs = t.recompileNs;
        ++m_used;
        for (const auto& e : t.mtBackedges) {
            if (m_used >= kNodeBudget || root.kids.size() >= kMaxListedRows) break;
            ++m_used;
            root.kids.emplace_back();
            std::string mi = e.root >= 0 ? std::string(m_f.nodes[static_cast<size_t>(e.root)].mi) : std::string();
            std::string label = e.signature + (e.formerly.empty() ? "" : " " + e.formerly) + " triggered " + mi;
            if (e.root >= 0) subtree(e.root, label, "mt_backedges", root.kids.back());
            else root.kids.back() = leafNode(label, "mt_backedges");
        }
        for (const auto& b : t.backedges) {
            if (m_used >= kNodeBudget || root.kids.size() >= kMaxListedRows) break;
            ++m_used;
            root.kids.emplace_back();
            std::string mi = b.root >= 0 ? std::string(m_f.nodes[static_cast<size_t>(b.root)].mi) : std::string();
            std::string label = "superseding " + b.superseded + " with " + mi;
            if (b.root >= 0) subtree(b.root, label, "backedges", root.kids.back());
            else root.kids.back() = leafNode(label, "backedges");
        }
        if (t.mtCacheCount) root.kids.push_back(leafNode(std::to_string(t.mtCacheCount) + " mt_cache", "mt_cache"));
        if (t.mtDisableCount)
            root.kids.push_back(leafNode(std::to_string(t.mtDisableCount) + " mt_disable", "mt_disable"));
        if (!t.note.empty()) root.kids.push_back(leafNode("note: " + t.note, "note"));
        return root;
    }
    bool exhausted() const { return m_used >= kNodeBudget; }

private:
    const engine::InvalidationForest& m_f;
    std::int64_t m_used = 0;
};

// Without trees (a log format the builder does not know): the items as recorded, per list.
void rawItems(const std::vector<engine::RawInvalidationList>& lists, Invalidations& inv) {
    inv.trees.clear();
    inv.source = "the items as recorded, in log order (the tree builder recognised no tree in them)";
    for (const auto& l : lists) {
        InvalidationNode root;
        root.kind = "list";
        root.label = "session " + std::to_string(l.sessionId) + ", " + l.list + " list";
        root.children = l.items;
        for (const auto& item : l.first) root.kids.push_back(leafNode(item.text, item.kind));
        inv.trees.push_back(std::move(root));
    }
    inv.roots = static_cast<std::int64_t>(inv.trees.size());
}
}  // namespace

void collectInvalidations(const engine::TraceAnalysis& analysis, TraceReport& r) {
    Invalidations& inv = r.invalidations;
    if (!analysis.invalidations) return;
    const engine::InvalidationForest* forest = analysis.invalidations.get();
    inv.items = forest->items + forest->printedLines;
    if (inv.items == 0) return;
    for (const auto& p : forest->problems)
        inv.problems.push_back(p.what + (p.items ? " (" + std::to_string(p.items) + " items)" : ""));
    if (forest->trees.empty()) {
        rawItems(analysis.facts.rawInvalidations, inv);
        return;
    }
    inv.source = "the tree builder (SnoopCompile's semantics" +
                 std::string(forest->costJoined ? "), costs joined from the trace's compile timings"
                                                : "); the trace has no compile timings, so no costs") +
                 (forest->juliaVersion.empty() ? "" : "; Julia " + forest->juliaVersion);
    std::vector<const engine::MethodInvalidations*> order;
    for (const auto& t : forest->trees) order.push_back(&t);
    // Costliest first (SnoopCompile prints ascending; a report reader wants the culprit on top).
    std::stable_sort(order.begin(), order.end(), [](auto* a, auto* b) {
        if (a->recompileNs != b->recompileNs) return a->recompileNs > b->recompileNs;
        return a->children > b->children;
    });
    inv.roots = static_cast<std::int64_t>(order.size());
    TreeCopier copy(*forest);
    for (const auto* t : order) {
        if (inv.trees.size() >= kMaxListedRows || copy.exhausted()) break;
        inv.trees.push_back(copy.tree(*t));
        InvalidationNode& root = inv.trees.back();
        root.figureKey = engine::invalidationTreeKey(static_cast<std::size_t>(t - forest->trees.data()));
        root.childrenText = engine::figureText(r.figures, root.figureKey + ".children");
        root.invalidatedText = engine::figureText(r.figures, root.figureKey + ".invalidated");
        root.costText = engine::figureText(r.figures, root.figureKey + ".recompile_ns");
    }
}

namespace {
void renderNode(HtmlBuilder& h, const InvalidationNode& n, int depth) {
    bool leaf = n.kids.empty();
    if (leaf) {
        h.open("div", {{"class", "inv-leaf"}, {"data-kind", n.kind}});
    } else {
        // Roots start closed, their first level open; "Expand all" (script) opens the rest.
        if (depth == 1)
            h.open("details", {{"class", "inv-node"}, {"data-kind", n.kind}, {"data-children", n.children}, {"open", ""}});
        else
            h.open("details", {{"class", "inv-node"}, {"data-kind", n.kind}, {"data-children", n.children}});
    }
    if (!leaf) h.open("summary");
    h.leaf("span", n.kind, {{"class", "kind"}});
    h.text(" ").open("code").shortText(n.label, 240).close();
    if (!n.figureKey.empty()) {
        // A tree's root: one number per count, each its keyed figure; children and invalidated
        // MethodInstances labelled apart (docs/invalidations.md, "What is counted").
        h.open("span", {{"class", "children"}}).leaf("span", n.childrenText, {{"data-figure", n.figureKey + ".children"}});
        h.text(" children").close();
        h.open("span", {{"class", "invalidated"}}).leaf("span", n.invalidatedText, {{"data-figure", n.figureKey + ".invalidated"}});
        h.text(" invalidated MethodInstances").close();
        if (n.costNs) h.leaf("span", n.costText, {{"class", "cost"}, {"data-figure", n.figureKey + ".recompile_ns"}});
    } else {
        if (n.children) h.leaf("span", std::to_string(n.children) + " children", {{"class", "children"}});
        if (n.costNs) h.leaf("span", util::formatDuration(*n.costNs), {{"class", "cost"}});
    }
    if (!leaf) {
        h.close();  // summary
        for (const auto& k : n.kids) renderNode(h, k, depth + 1);
        if (n.children > static_cast<std::int64_t>(n.kids.size()))
            h.leaf("div", std::to_string(n.children - static_cast<std::int64_t>(n.kids.size())) + " more not listed",
                   {{"class", "more"}});
    }
    h.close();
}
// The forest's counts under their keys (engine/analysis/trace_figures.h): children and invalidated
// MethodInstances are two figures, labelled apart (docs/invalidations.md, "What is counted").
void renderForestFigures(HtmlBuilder& h, const TraceReport& t) {
    h.open("p", {{"class", "hint forest-figures"}});
    bool first = true;
    for (const char* key : {"invalidations.trees", "invalidations.children", "invalidations.invalidated"}) {
        const engine::Figure* f = t.figures.find(key);
        if (!f) continue;
        if (!first) h.text(" \xC2\xB7 ");
        first = false;
        h.leaf("span", engine::figureText(*f), {{"data-figure", f->key}}).text(" " + f->label);
    }
    h.close();
}
}  // namespace

void renderInvalidations(HtmlBuilder& h, const std::vector<TraceReport>& traces) {
    std::int64_t roots = 0;
    for (const auto& t : traces) roots += t.invalidations.roots;
    openSection(h, "invalidations", "Invalidation trees", roots);
    for (const auto& t : traces) {
        traceHeading(h, traces, t);
        const Invalidations& inv = t.invalidations;
        if (inv.items == 0 && inv.trees.empty()) {
            emptyNote(h, "The trace records no Julia invalidations.");
            continue;
        }
        if (t.figures.find("invalidations.trees")) renderForestFigures(h, t);
        h.open("div", {{"class", "tree-tools"}});
        h.leaf("button", "Expand all", {{"type", "button"}, {"class", "expand-all"}});
        h.leaf("button", "Collapse all", {{"type", "button"}, {"class", "collapse-all"}});
        h.close();
        h.open("div", {{"class", "trees"}, {"data-trace", t.label}});
        for (size_t i = 0; i < inv.trees.size() && i < kMaxListedRows; ++i) renderNode(h, inv.trees[i], 0);
        h.close();
        moreRows(h, inv.roots, inv.trees.size());
        for (const auto& p : inv.problems) h.open("p", {{"class", "warnbox"}}).shortText(p, 300).close();
        sourceNote(h, inv.source);
    }
    h.close();
}

}  // namespace cs::report
