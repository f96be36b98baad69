// Importer for the CSV tables that `nvcc --time FILE` and NVRTC's `--time=FILE` append.
//
// Why: nvcc and NVRTC say where a CUDA compile spends its time (cudafe++, cicc, ptxas, fatbinary,
// host gcc) only in these CSVs. The formats (docs/formats.md 5.3 and 5.4, checked against CUDA 13.0):
//   nvcc : "source file name , phase name , phase input files , phase output file , arch , tool, metric , unit"
//   NVRTC: "File name, phase name, metric, unit"
// Separators carry stray spaces, fields can be empty, and a header appears once per file (nvcc writes
// it only into an empty file), but a concatenation of several files repeats it, so a header line may
// come back at any point and switches the column layout. Rows become phase_timings; there are no
// start times in these files, so start_ns stays NULL.
#pragma once

#include "core/ingest/importer.h"

namespace cs::ingest {

class NvccTimeImporter final : public Importer {
public:
    std::string_view id() const override { return "nvcc-time"; }
    std::string_view description() const override { return "nvcc --time / NVRTC --time CSV"; }
    int sniff(std::string_view head, std::string_view fileName) const override;
    int maxSniffScore() const override { return 95; }
    ImportSummary run(std::istream& in, ImportContext& ctx) const override;
};

}  // namespace cs::ingest
