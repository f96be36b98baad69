// SnoopCompile's printed form of invalidation trees: reading it back, and printing ours in it.
//
// Why both directions live together: users paste `trees = invalidation_trees(...)` REPL output into
// issues (Enzyme.jl #776 and many others); we import those pastes, and `compilescope trees` prints
// our trees in the very same text so the two can be compared line by line. The grammar follows
// SnoopCompile src/invalidations.jl `show(::MethodInvalidations)` and `showlist` (docs/formats.md 1.3):
//   <reason> <method> invalidated:
//      mt_backedges: <i>: signature <sig> triggered <MethodInstance> (<N> children)
//      backedges: <i>: superseding <method> with <MethodInstance> (<N> children)
//      mt_disable: <MethodInstance>
//                  +<k> more
//      <n> mt_cache
// with the index right-aligned to the width of the entry count and continuation lines aligned under
// the first entry. A printed tree lists entries, not their callers, so an entry read back is a root
// whose descendants are only counted (InvalidationNode::hiddenChildren).
#pragma once

#include "core/engine/julia/invalidation_trees.h"

#include <ostream>
#include <string>
#include <vector>

namespace cs::engine {

// Adds the trees found in `lines` (ANSI codes already removed) to `forest`. Lines before any tree
// header are counted in forest.orphanLines; lines it cannot read become problems. Never throws.
void parsePrintedTrees(const std::vector<std::string>& lines, InvalidationForest& forest);


struct TreePrintOptions {
    bool vectorHeader = true;  // "N-element Vector{SnoopCompile.MethodInvalidations}:" as the REPL shows
    bool costs = true;         // a "recompiled:" line under each tree that has a joined cost
    bool nodes = false;        // each entry's caller tree, SnoopCompile InstanceNode style
};

void printTrees(std::ostream& out, const InvalidationForest& forest, const TreePrintOptions& options);
// One tree in SnoopCompile's non-compact `show`, each line prefixed by `lead`.
void printTree(std::ostream& out, const InvalidationForest& forest, const MethodInvalidations& tree,
               const TreePrintOptions& options, const std::string& lead);
// A findCaller() result: the tree's header line, then the path as indented MethodInstance lines.
void printCallerPath(std::ostream& out, const InvalidationForest& forest, const CallerPath& path);

// "18012.3 ms"
std::string formatMs(std::int64_t ns);

}  // namespace cs::engine
