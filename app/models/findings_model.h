// Findings as a tree: each finding, with its evidence rows as children.
#pragma once

#include "table_model.h"
#include "trace_document.h"

namespace cs::gui {

struct FindingItem {
    const engine::Finding* finding = nullptr;
    int evidence = -1;  // index into finding->evidence; -1 = the finding itself
    int findingIndex = 0;
};
using FindingTree = Tree<FindingItem>;
using FindingsModel = TreeModel<FindingItem>;

// The tree keeps `findings` alive.
struct FindingTreeSnapshot : FindingTree {
    FindingsPtr findings;
};
std::shared_ptr<const FindingTree> buildFindingTree(FindingsPtr findings, std::size_t limit = SIZE_MAX);
FindingsModel* makeFindingsModel(QObject* parent);
// The view an evidence row opens ("Cache", "Modules", "Invalidations"), or "" when no view lists
// its table: such rows are drawn as links (Tone::Link) and say so in their tooltip.
QString evidenceView(const engine::Evidence& e);
// Mechanism, evidence, cost and fix as rich text for the details pane.
QString findingHtml(const engine::Finding& f);

}  // namespace cs::gui
