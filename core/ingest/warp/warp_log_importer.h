// Importer for NVIDIA Warp's verbose output: module loads, native compile timers, the init banner.
//
// Why: a Warp log is often all a user has ("cold start takes 40 s"), and it already says which
// module identities were built: name, 7-digit hash, device, block_dim, compiled or cached, and how
// long. Every release's line shape is accepted (warp_log_lines.h lists them). What each line becomes:
//   Module ... took            -> module_loads (origin "file:line"), result compiled/cached/error/unknown
//   Compile x86/CUDA ... took  -> phase_timings (tool clang for x86, nvrtc for CUDA), input = module;
//                                 printed before the Module line it nests in (deeper indent), so it is
//                                 held until that line arrives and summed into module_loads.compile_ns
//   Warp <v> initialized: ...  -> a span (category init) with args version, cuda_toolkit, driver,
//                                 kernel_cache and one "device <alias>" arg per device line
//   hash-change debug lines    -> module_kernels of the two loads: the kernel with its old / new hash
// A log has no clock. Loads are laid end to end in log order (start = sum of earlier load times),
// which is right for Warp's default serial loading. When debug entry markers ("Module ... ...") are
// present, a load starts at its marker instead, so loads whose markers interleave overlap on the
// timeline; the number of markers is stored as counter warp.log/timer_entry_markers so analyses know
// whether the log could show overlap at all. Malformed module records are counted, never fatal.
#pragma once

#include "core/ingest/importer.h"

namespace cs::ingest {

class WarpLogImporter final : public Importer {
public:
    std::string_view id() const override { return "warp-log"; }
    std::string_view description() const override { return "NVIDIA Warp verbose log (module loads, compile timers)"; }
    int sniff(std::string_view head, std::string_view fileName) const override;
    int maxSniffScore() const override { return 80; }
    ImportSummary run(std::istream& in, ImportContext& ctx) const override;
};

}  // namespace cs::ingest
