// The one place that lists the importers of this build. Add a line per new importer.
#include "core/ingest/importer_registry.h"
#include "core/ingest/jax/jax_log_importer.h"
#include "core/ingest/julia/julia_collector_importer.h"
#include "core/ingest/julia/julia_invalidations_importer.h"
#include "core/ingest/julia/julia_timing_importer.h"
#include "core/ingest/julia/julia_trees_importer.h"
#include "core/ingest/ninja_log_importer.h"
#include "core/ingest/nvcc_time_importer.h"
#include "core/ingest/warp/warp_log_importer.h"
#include "core/ingest/warp/warp_probe_importer.h"
#include "core/ingest/tef/tef_importer.h"
#include "core/ingest/torch/torch_recompiles_importer.h"
#include "core/ingest/torch/torch_trace_importer.h"

namespace cs::ingest {

void registerBuiltinImporters(ImporterRegistry& registry) {
    registry.add(std::make_unique<NvccTimeImporter>());
    registry.add(std::make_unique<WarpLogImporter>());
    registry.add(std::make_unique<WarpProbeImporter>());
    registry.add(std::make_unique<JuliaInvalidationsImporter>());
    registry.add(std::make_unique<JuliaTreesImporter>());
    registry.add(std::make_unique<JuliaTimingImporter>());
    registry.add(std::make_unique<JuliaCollectorImporter>());
    registry.add(std::make_unique<TefImporter>());
    registry.add(std::make_unique<TorchTraceImporter>());
    registry.add(std::make_unique<TorchRecompilesImporter>());
    registry.add(std::make_unique<JaxLogImporter>());
    registry.add(std::make_unique<NinjaLogImporter>());
}

}  // namespace cs::ingest
