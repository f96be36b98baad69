// Importer for the JSON report of Warp's compile probe (`warp_compile_probe.py measure --json F`,
// skills/warp-compile-time-optimizer in NVIDIA/warp) and of `compilescope measure --json F`, which
// writes the same keys.
//
// Why: that report is the guide's measurement of record. It holds the module events of one cold
// sample (label, name, hash, device, block_dim, ms, status) and medians over all samples: cold and
// warm module work, native compile, cold / warm wall clock, compile elapsed, overlap factor,
// generated source bytes, LTO artifacts. Module events become module_loads (laid end to end, the
// probe keeps no start times); the medians become counters with scope "warp.probe", in integer ns
// (`*_ns_median`), bytes, counts, and `overlap_factor_milli` (factor x 1000), so the Warp analysis
// can judge cache reuse (warm vs cold), overlap and LTO from the same numbers the probe prints. The
// report is small (one sample's events), so it is parsed whole with the bounded JsonValue reader; a
// malformed document is one counted error, a malformed event is counted and skipped.
#pragma once

#include "core/ingest/importer.h"

namespace cs::ingest {

class WarpProbeImporter final : public Importer {
public:
    std::string_view id() const override { return "warp-probe"; }
    std::string_view description() const override { return "Warp compile probe / compilescope measure JSON report"; }
    int sniff(std::string_view head, std::string_view fileName) const override;
    int maxSniffScore() const override { return 95; }
    ImportSummary run(std::istream& in, ImportContext& ctx) const override;
};

}  // namespace cs::ingest
