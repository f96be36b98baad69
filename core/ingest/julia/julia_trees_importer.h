// Importer for SnoopCompile's printed `invalidation_trees` (REPL output pasted into an issue).
//
// Why: most reports of slow loads carry only this text. The grammar is SnoopCompile's
// `show(::MethodInvalidations)` (docs/formats.md 1.3, core/engine/julia/invalidation_printed.h): a tree header
// `inserting <method> invalidated:` (or `deleting`, `Invalidating methods: ...`), then
// `mt_backedges:` / `backedges:` entries with `(N children)`, continuation entries aligned under
// the first (indices padded to the width of the count: " 1:" .. "12:"), `mt_disable:` with
// `+k more`, `N mt_cache`; trees are separated by blank lines under a
// `N-element Vector{SnoopCompile.MethodInvalidations}:` header. Windows paths and both Method
// spellings (`@ Mod file:line`, `in Mod at file:line`) are kept verbatim.
// Each tree line is stored, colour codes removed, as one invalidation_items row of list "printed"
// (kind tree_line), in order; the engine parses them back with the same parser it prints with.
// Tree lines before any tree header (a paste that starts at " 68: superseding ...") are stored too:
// the engine keeps their entries as orphans with their children counts. Other lines are mixed-in
// text: counted as malformed and dropped, never fatal.
#pragma once

#include "core/ingest/importer.h"

namespace cs::ingest {

class JuliaTreesImporter final : public Importer {
public:
    std::string_view id() const override { return "julia-trees"; }
    std::string_view description() const override { return "SnoopCompile invalidation_trees as printed in the REPL"; }
    int sniff(std::string_view head, std::string_view fileName) const override;
    int maxSniffScore() const override { return 90; }
    ImportSummary run(std::istream& in, ImportContext& ctx) const override;
};

}  // namespace cs::ingest
