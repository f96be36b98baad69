// The Invalidations view's tree over the SnoopCompile-style forest (core/engine/invalidation_trees.h):
// each inserted / deleted method, its mt_backedges and backedges, and the caller tree under each,
// with children counts and the recompile cost joined in by the engine. What each count is, and why
// a root's "Invalidated" is its finding's number: docs/invalidations.md, "What is counted".
#pragma once

#include "table_model.h"
#include "trace_document.h"

namespace cs::gui {

struct InvalidationItem {
    QString label;
    qlonglong children = 0;
    qlonglong recompileNs = 0;
    QString module;  // the module of this row's own method ("" when Julia printed it unqualified)
    int forestNode = -1;  // index into forest.nodes, -1 for method and edge rows
    qlonglong invalidated = -1;  // roots: distinct MethodInstances the tree invalidated (its finding's); else -1
    // Roots of the whole forest: the tree's keys in TraceFigures ("invalidations.tree.2"), whose
    // values the row shows; "" for other rows and for a forest filtered by module.
    std::string figureKey{};
};
using InvalidationTree = Tree<InvalidationItem>;
using InvalidationsModel = TreeModel<InvalidationItem>;
struct InvalidationTreeSnapshot : InvalidationTree {
    std::shared_ptr<const engine::InvalidationForest> forest;
    std::vector<int> itemOfNode;  // forest node -> tree node (the first occurrence)
    std::vector<int> itemOfTree;  // forest tree -> its root row
};
// With `figures` (the analysis's, for its whole forest), each root row shows its tree's keyed figures
// (engine/analysis/trace_figures.h: one number per tree in trees, the CLI, this view and the report).
std::shared_ptr<const InvalidationTreeSnapshot> buildInvalidationTree(std::shared_ptr<const engine::InvalidationForest> forest,
                                                                      const engine::TraceFigures* figures = nullptr);
InvalidationsModel* makeInvalidationsModel(QObject* parent);

}  // namespace cs::gui
