// Importer for PyTorch's TORCH_LOGS=recompiles / recompiles_verbose output and the recompile-limit
// warning.
//
// Why: "Recompiling function f ... triggered by the following guard failure(s)" is what most PyTorch
// users have when a model recompiles, and each failed guard already says which cache entry rejected
// the call and what it expected ("0/0: tensor 'x' size mismatch at index 0. expected 3, actual 4").
// That is a cache key diff; this importer writes it as one:
//   each compile of a function    -> a cache_lookups row (cache "torch dynamo", program
//                                    "function (file:line)", handle = compile id "0/1", or "#1" when
//                                    the log has no ids), verdict miss. The first compile is never
//                                    logged by `recompiles`; the entry a failure names stands for it.
//   each failed guard             -> a key component of both entries: its subject ("size of L['x'] at
//                                    index 0", "L['t']") with the expected value on the entry that
//                                    rejected the call and the actual value on the new compile. A
//                                    value a log does not state is "(not logged at 0/1)", never equal
//                                    to anything, so the replay never invents a hit.
//   each Recompiling block        -> a compile span with args compile_id and one "guard failure N"
//                                    ("0/0: tensor 'x' ...") per failure, the entry it names first
//   the recompile-limit warning   -> a span (jit_event = recompile_limit) with the limit, function,
//                                    last reason; the engine turns it into a finding
// Failures without an entry id (before 2.5, the 2023 tuple form) name the most recent entries in the
// order dynamo checked them: the newest first. Lines are buffered per file (a recompiles log is small:
// one block per compile) so an entry can receive the values later failures reveal.
#pragma once

#include "core/ingest/importer.h"

namespace cs::ingest {

class TorchRecompilesImporter final : public Importer {
public:
    std::string_view id() const override { return "torch-recompiles"; }
    std::string_view description() const override {
        return "PyTorch TORCH_LOGS=recompiles / recompiles_verbose output and recompile-limit warnings";
    }
    int sniff(std::string_view head, std::string_view fileName) const override;
    int maxSniffScore() const override { return 85; }
    ImportSummary run(std::istream& in, ImportContext& ctx) const override;
};

}  // namespace cs::ingest
