// Importer for JAX's cache and compile-time log lines: jax_explain_cache_misses blocks, persistent
// compilation cache hit / miss / write lines, and jax_log_compiles durations.
//
// Why: JAX users ask "how to detect recompilation reason?" (jax#4274) and the answer JAX gives is a
// log: a TRACING CACHE MISS block per miss, saying what differs from the closest previous key, and
// one line per persistent-cache hit, miss and write with the key. This importer turns them into the
// same facts the engine replays for every runtime:
//   TRACING CACHE MISS block  -> cache_lookups (cache "jax tracing cache", program "f (file:line)",
//                                handle = call site), verdict miss; one key component per difference
//                                it names, with the value "now" ("type of x" = f32[8], "tracing
//                                context [6]" = raise, "static argument power" = 3; the names in
//                                jax_log_lines.h), or "function id" for a never-seen function;
//                                plus a span (category inference, the miss's cost) whose args are the
//                                reasons as printed ("different input types: x now f32[8] and before f32[4]")
//   persistent hit / miss     -> cache_lookups (cache "jax persistent compilation cache", program =
//                                the module name, handle = key), one component "key"
//   persistent write          -> a span (jit_event persistent_cache_write, args key, function)
//   Finished tracing / MLIR /  -> spans (inference / codegen / compile) ending at the line's time
//     XLA compilation lines
// Lines are related by key, not by order: logs collected from several processes or pasted out of
// order (jax#22556 shows one) still join, because the engine groups persistent-cache rows by key.
// A line without a time takes the last time seen (a block's reason lines have none).
#pragma once

#include "core/ingest/importer.h"

namespace cs::ingest {

class JaxLogImporter final : public Importer {
public:
    std::string_view id() const override { return "jax-log"; }
    std::string_view description() const override {
        return "JAX log: explain_cache_misses, persistent compilation cache, log_compiles";
    }
    int sniff(std::string_view head, std::string_view fileName) const override;
    int maxSniffScore() const override { return 90; }
    ImportSummary run(std::istream& in, ImportContext& ctx) const override;
};

}  // namespace cs::ingest
