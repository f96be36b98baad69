// Importer for the text file the CompileScope Julia collector writes (collectors/julia/CompileScope.jl,
// until its C ABI binding lands): "as our Julia collector writes it".
//
// Why a format of our own: the raw invalidation items are live Julia objects; only the collector,
// inside the process, can say which Julia version made the list, which Method each invalidated
// MethodInstance specializes, and what ReactantNitro's cache held. The file is UTF-8 text, one record
// per line, fields separated by TAB; in text fields TAB, newline and backslash are written \t \n \\.
//   # compilescope-julia 1                          first line, the format version
//   meta      <key> <value>                         e.g. julia_version 1.12.1 (stored in the trace's meta)
//   item      <methods|edges> <kind> <text>         one raw list item, in order; kind is mi, ci, int,
//                                                   tag, method, type, binding, vector, nothing, other
//   instance  <MethodInstance text> <Method text> <module> <file> <line>
//   compile   <a --trace-compile statement as Julia prints it>
//   import    <an @time_imports row as Julia prints it>
//   nitro_stats <t_ns> <where> <hits> <misses> <entries>      ReactantNitro.cache_stats()
//   nitro_key   <t_ns> <where> <ordinal> <key as repr>        a program-cache key new since the last look
//   nitro_closure <key ordinal> <method> <world>              that entry's dependency closure
// Unknown record types and short lines are counted as malformed and skipped.
#pragma once

#include "core/ingest/importer.h"

namespace cs::ingest {

class JuliaCollectorImporter final : public Importer {
public:
    std::string_view id() const override { return "julia-collector"; }
    std::string_view description() const override { return "CompileScope Julia collector text output"; }
    int sniff(std::string_view head, std::string_view fileName) const override;
    ImportSummary run(std::istream& in, ImportContext& ctx) const override;
};

}  // namespace cs::ingest
