// The one place that lists the importers of this build. Add a line per new importer.
#include "importer_registry.h"
#include "julia_collector_importer.h"
#include "julia_invalidations_importer.h"
#include "julia_timing_importer.h"
#include "julia_trees_importer.h"
#include "nvcc_time_importer.h"
#include "warp_log_importer.h"
#include "warp_probe_importer.h"

namespace cs::ingest {

void registerBuiltinImporters(ImporterRegistry& registry) {
    registry.add(std::make_unique<NvccTimeImporter>());
    registry.add(std::make_unique<WarpLogImporter>());
    registry.add(std::make_unique<WarpProbeImporter>());
    registry.add(std::make_unique<JuliaInvalidationsImporter>());
    registry.add(std::make_unique<JuliaTreesImporter>());
    registry.add(std::make_unique<JuliaTimingImporter>());
    registry.add(std::make_unique<JuliaCollectorImporter>());
}

}  // namespace cs::ingest
