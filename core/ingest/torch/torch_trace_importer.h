// Importer for PyTorch structured trace logs (TORCH_TRACE=<dir>, the input of tlparse).
//
// Why: a TORCH_TRACE log is the richest record PyTorch keeps of torch.compile: every compile with its
// id `[frame/compile_attempt]`, the user stack that triggered it, its phases (chromium_event begin /
// end pairs), its metrics (phase times, guard count, graph sizes, failure and restart reasons), and
// every FX graph / AOT autograd cache lookup with its key's per-component hashes. Users run tlparse to
// read it as HTML; we turn it into the trace so the cache replay can say which key component moved.
//
// Format (docs/formats.md section 3.1, tlparse src/lib.rs): each record is one glog line whose message is
// a JSON envelope, then zero or more payload lines that start with a TAB; `has_payload` is the MD5 of
// the payload (its lines without the TAB, joined by newlines). `{"str": [path, id]}` records intern
// the file names that stack frames refer to by id. What each record becomes:
//   dynamo_start                 -> opens the compile (span, category compile, arg stack)
//   chromium_event B / E         -> phase spans (category phase) inside the compile, same compile_id
//   compilation_metrics          -> closes the compile: args for each metric, status ok / failed
//   artifact fx_graph_cache_* /  -> cache_lookups (cache "fx graph cache (persistent)" / "aot autograd cache (persistent)",
//     aotautograd_cache_*           program "frame N", handle = compile id), one key component per
//                                   "[hash] name: value" entry; a bypass is a span (jit_event
//                                   cache_bypass) with its reason, not a lookup
// Losses are counted, never fatal: an envelope that is not JSON (stat malformed_record), a payload
// whose MD5 differs from has_payload (stat payload_hash_mismatch; the payload is not used), payload
// lines with no record. A compile still open at the end of the file (a log cut mid-compile) is
// written with status "incomplete", never "failed".
#pragma once

#include "core/ingest/importer.h"

namespace cs::ingest {

class TorchTraceImporter final : public Importer {
public:
    std::string_view id() const override { return "torch-trace"; }
    std::string_view description() const override { return "PyTorch structured trace (TORCH_TRACE, tlparse input)"; }
    int sniff(std::string_view head, std::string_view fileName) const override;
    int maxSniffScore() const override { return 95; }
    ImportSummary run(std::istream& in, ImportContext& ctx) const override;
};

}  // namespace cs::ingest
