// The icicle of the invalidation forest: one band per depth (tree, edge, caller, ...), each block as
// wide as its recompile cost, or its number of MethodInstances when the trace joined no timings.
//
// Why an icicle: SnoopCompile users read invalidation cost as a flame graph; a tree table sorted by
// children cannot show that one inserted method's 2723 callers are cheap and another's 7 cost 20 s.
// The layout works on the same tree snapshot the table shows (invalidation_models.h), so a block's
// figure is its row's Recompile (or Invalidated / Children + 1) figure, never a second computation.
// Children share their parent's width in proportion to their figures; a caller reached along two
// paths counts on both, so children may add up to more than the parent's distinct figure and are
// then scaled to fit (docs/invalidations.md, "Icicle"). Blocks narrower than `minWidth` (a pixel)
// and their descendants are left out, so a million-node forest draws what the screen can show.
#pragma once

#include "invalidation_models.h"

#include <vector>

namespace cs::gui {

struct IcicleBlock {
    int node = -1;    // node id in the InvalidationTreeSnapshot (the table's row)
    int depth = 0;    // 0 = the inserted / deleted method
    double x0 = 0, x1 = 0;  // in [0, 1] of the whole forest's width
    qlonglong weight = 0;   // the row's own figure (ns of recompilation, or MethodInstances)
};

struct IcicleLayout {
    std::vector<IcicleBlock> blocks;  // parents before children
    int depths = 0;
    bool byCost = false;  // weights are recompile ns; false: MethodInstances
    qlonglong total = 0;  // sum of the trees' weights (the full width)
};

// A row's figure in the icicle (byCost: its Recompile ns; else its MethodInstances).
qlonglong icicleWeight(const InvalidationItem& item, bool byCost);
IcicleLayout layoutIcicle(const InvalidationTreeSnapshot& tree, double minWidth = 0.0);
// The block at x in [0, 1] in band `depth`, or -1.
int icicleBlockAt(const IcicleLayout& layout, double x, int depth);

}  // namespace cs::gui
