#include "invalidation_models.h"

#include "text.h"

#include "core/formats/julia_signature.h"

namespace cs::gui {

namespace {
// A root row's counts: the tree's keyed figures where the forest is the analysis's whole forest.
void keyedCounts(InvalidationItem& root, const engine::TraceFigures* figures, std::size_t tree) {
    if (!figures) return;
    root.figureKey = engine::invalidationTreeKey(tree);
    auto value = [&](const char* what, qlonglong fallback) {
        const engine::Figure* f = figures->find(root.figureKey + what);
        return f && f->value ? qlonglong(*f->value) : fallback;
    };
    root.children = value(".children", root.children);
    root.invalidated = value(".invalidated", root.invalidated);
    root.recompileNs = value(".recompile_ns", root.recompileNs);
}
}  // namespace

std::shared_ptr<const InvalidationTreeSnapshot> buildInvalidationTree(std::shared_ptr<const engine::InvalidationForest> forest,
                                                                      const engine::TraceFigures* figures) {
    auto tree = std::make_shared<InvalidationTreeSnapshot>();
    tree->forest = forest;
    if (!forest) return tree;
    tree->itemOfNode.assign(forest->nodes.size(), -1);
    const QString none;
    // Caller trees can be deep; an explicit stack keeps a hostile trace from overflowing ours.
    auto addSubtree = [&](std::int32_t root, int parent) {
        std::vector<std::pair<std::int32_t, int>> stack{{root, parent}};
        while (!stack.empty()) {
            auto [n, p] = stack.back();
            stack.pop_back();
            if (n < 0 || static_cast<std::size_t>(n) >= forest->nodes.size()) continue;
            const engine::InvalidationNode& node = forest->nodes[static_cast<std::size_t>(n)];
            QString label = node.isDummy() ? QStringLiteral("(caller not logged)") : qs(node.mi);
            if (node.hiddenChildren > 0) label += QStringLiteral("  (+%1 not listed)").arg(node.hiddenChildren);
            // The node's own method's module, not the inserting package's (a Base caller is Base's).
            int id = tree->add({label, node.descendants, node.subtreeRecompileNs, qs(engine::moduleOfText(node.mi)), n}, p);
            if (tree->itemOfNode[static_cast<std::size_t>(n)] < 0) tree->itemOfNode[static_cast<std::size_t>(n)] = id;
            for (auto it = node.children.rbegin(); it != node.children.rend(); ++it) stack.push_back({*it, id});
        }
    };
    for (std::size_t ti = 0; ti < forest->trees.size(); ++ti) {
        const engine::MethodInvalidations& t = forest->trees[ti];
        QString module = qs(t.module);
        QString method = t.methods.size() > 1 ? QStringList([&] {
                                                     QStringList l;
                                                     for (const std::string& m : t.methods) l << qs(m);
                                                     return l;
                                                 }())
                                                     .join(QStringLiteral(", "))
                                               : qs(t.method);
        QString label = QStringLiteral("%1 %2").arg(QString::fromLatin1(engine::reasonName(t.reason)), method);
        if (t.mtCacheCount > 0) label += QStringLiteral("  [%1 mt_cache]").arg(t.mtCacheCount);
        if (t.incomplete) label += QStringLiteral("  (log elided)");
        if (!t.note.empty()) label += QStringLiteral("  (%1)").arg(qs(t.note));
        InvalidationItem item{label, t.children, t.recompileNs, module, -1, t.invalidatedInstances, {}};
        keyedCounts(item, figures, ti);
        int root = tree->add(std::move(item));
        tree->itemOfTree.push_back(root);
        for (const engine::MtBackedge& e : t.mtBackedges) {
            // An edge row is a call signature, no method of its own: no module (not the inserting package's).
            int edge = tree->add({QStringLiteral("mt_backedge %1").arg(qs(e.signature)),
                                  e.root >= 0 ? forest->nodes[static_cast<std::size_t>(e.root)].descendants : 0,
                                  e.root >= 0 ? forest->nodes[static_cast<std::size_t>(e.root)].subtreeRecompileNs : 0, QString(), -1},
                                 root);
            addSubtree(e.root, edge);
        }
        for (const engine::Backedge& b : t.backedges) {
            QString superseded = b.superseded.empty() ? QStringLiteral("(method not in the log)") : qs(b.superseded);
            int edge = tree->add({QStringLiteral("backedge: superseding %1").arg(superseded),
                                  b.root >= 0 ? forest->nodes[static_cast<std::size_t>(b.root)].descendants : 0,
                                  b.root >= 0 ? forest->nodes[static_cast<std::size_t>(b.root)].subtreeRecompileNs : 0,
                                  b.superseded.empty() ? QString() : qs(engine::moduleOfText(b.superseded)), -1},
                                 root);
            addSubtree(b.root, edge);
        }
    }
    return tree;
}

InvalidationsModel* makeInvalidationsModel(QObject* parent) {
    using I = InvalidationItem;
    const auto right = Qt::AlignRight | Qt::AlignVCenter;
    return new InvalidationsModel(
        {{QStringLiteral("Invalidation"), [](const I& i) { return QVariant(i.label); }},
         {QStringLiteral("Children"), [](const I& i) { return QVariant(i.children); }, {}, right},
         {QStringLiteral("Invalidated"), [](const I& i) { return i.invalidated >= 0 ? QVariant(i.invalidated) : QVariant(); },
          [](const I& i) { return QVariant(i.invalidated); }, right,
          [](const I& i) {
              return i.invalidated >= 0 ? QVariant(QStringLiteral("%1 distinct MethodInstances: the entry points of its edges and "
                                                                  "all their callers, each once (the number its finding gives)")
                                                       .arg(i.invalidated))
                                        : QVariant();
          }},
         {QStringLiteral("Recompile"), [](const I& i) { return i.recompileNs > 0 ? QVariant(durationText(i.recompileNs)) : QVariant(); },
          [](const I& i) { return QVariant(i.recompileNs); }, right},
         {QStringLiteral("Module"), [](const I& i) { return QVariant(i.module); }}},
        parent);
}

}  // namespace cs::gui
