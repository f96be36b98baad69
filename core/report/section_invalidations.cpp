// Invalidation trees: which method insertion or deletion invalidated which compiled code, and what
// the recompilation cost (seed 003: `show` on a Type invalidated Enzyme.__init__, ~18-30 s at load).
//
// Rendered as nested <details> elements, so the trees collapse without any script; each node shows
// its children count and, when known, the recompile time it caused. Deep or wide trees are cut at
// kMaxListedRows nodes per level and the cut is stated.
#include "sections.h"
#include "sql_row.h"

#include "core/trace/reader.h"
#include "core/trace/schema.h"
#include "core/util/units.h"

#include <map>

namespace cs::report {

void collectInvalidations(const trace::TraceReader& reader, TraceReport& r) {
    Invalidations& inv = r.invalidations;
    inv.source = "raw tables (invalidation_items in log order, grouped by session and list; not yet built into "
                 "SnoopCompile trees)";
    std::map<std::pair<std::int64_t, std::int64_t>, size_t> groups;
    reader.query("SELECT session_id, list, kind, coalesce(text_sid, 0) FROM invalidation_items "
                 "ORDER BY session_id, list, ordinal",
                 [&](sqlite3_stmt* st) {
                     ++inv.items;
                     std::pair<std::int64_t, std::int64_t> key{colInt(st, 0), colInt(st, 1)};
                     auto it = groups.find(key);
                     if (it == groups.end()) {
                         InvalidationNode root;
                         root.kind = "list";
                         root.label = "session " + std::to_string(key.first) + ", " +
                                      std::string(trace::enumName("invalidation_list", static_cast<int>(key.second))) +
                                      " list";
                         inv.trees.push_back(std::move(root));
                         it = groups.emplace(key, inv.trees.size() - 1).first;
                     }
                     InvalidationNode& root = inv.trees[it->second];
                     ++root.children;
                     if (root.kids.size() < kMaxListedRows) {
                         InvalidationNode item;
                         item.kind = trace::enumName("invalidation_item_kind", static_cast<int>(colInt(st, 2)));
                         item.label = reader.str(colInt(st, 3));
                         root.kids.push_back(std::move(item));
                     }
                 });
    inv.roots = static_cast<std::int64_t>(inv.trees.size());
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
    if (n.children) h.leaf("span", std::to_string(n.children) + " children", {{"class", "children"}});
    if (n.costNs) h.leaf("span", util::formatDuration(*n.costNs), {{"class", "cost"}});
    if (!leaf) {
        h.close();  // summary
        for (const auto& k : n.kids) renderNode(h, k, depth + 1);
        if (n.children > static_cast<std::int64_t>(n.kids.size()))
            h.leaf("div", std::to_string(n.children - static_cast<std::int64_t>(n.kids.size())) + " more not listed",
                   {{"class", "more"}});
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
        h.open("div", {{"class", "tree-tools"}});
        h.leaf("button", "Expand all", {{"type", "button"}, {"class", "expand-all"}});
        h.leaf("button", "Collapse all", {{"type", "button"}, {"class", "collapse-all"}});
        h.close();
        h.open("div", {{"class", "trees"}, {"data-trace", t.label}});
        for (size_t i = 0; i < inv.trees.size() && i < kMaxListedRows; ++i) renderNode(h, inv.trees[i], 0);
        h.close();
        moreRows(h, inv.roots, std::min(inv.trees.size(), kMaxListedRows));
        sourceNote(h, inv.source);
    }
    h.close();
}

}  // namespace cs::report
