// Importer for raw Julia invalidation lists as the REPL prints them.
//
// Why: the raw list of `jl_debug_method_invalidation` (SnoopCompileCore `@snoop_invalidations`) is
// what people paste into issues, and it is the only thing that still parses when SnoopCompile does
// not run on their Julia. The REPL prints it as
//     202-element Vector{Any}:            (Julia < 1.6: "202-element Array{Any,1}:")
//       MethodInstance for f(::Int64)     items right of a column that holds the Int32 depths
//      1
//       "jl_method_table_insert"
//      ⋮                                  the middle elided when the list is long
//       f(x::Int) @ Pkg ~/Pkg/src/a.jl:3  a Method ("in Pkg at file:line" before Julia 1.9)
// Every item becomes one invalidation_items row (kind from julia_text.h, text as printed), in
// order. A list printed right after a line that names `logedges` (Julia >= 1.12:
// `invs.logedges`) is the edge-validation list; any other list is the method-table list.
// A fragment with no header (a paste that starts at an elision line, `⋮` or a typed `...`, as in
// julia PR #57999) is read too: its first tag decides the list - an edge tag
// ("insert_backedges_callee", "verify_methods", "method_globalref") the 1.12 edge list, a
// method-table tag the method list - and its first item may have lost its leading space.
// Lines that are not part of a printed list (prompts, other output) are counted as malformed, and
// so is a list with fewer items than its header announced (a truncated paste). Trees are built
// later, from the trace (core/engine/invalidation_trees.h).
#pragma once

#include "core/ingest/importer.h"

namespace cs::ingest {

class JuliaInvalidationsImporter final : public Importer {
public:
    std::string_view id() const override { return "julia-invalidations"; }
    std::string_view description() const override {
        return "Julia raw invalidation list (jl_debug_method_invalidation) as the REPL prints it";
    }
    int sniff(std::string_view head, std::string_view fileName) const override;
    int maxSniffScore() const override { return 85; }
    ImportSummary run(std::istream& in, ImportContext& ctx) const override;
};

}  // namespace cs::ingest
