// The one place that lists the importers of this build. Add a line per new importer.
#include "importer_registry.h"
#include "nvcc_time_importer.h"
#include "warp_log_importer.h"
#include "warp_probe_importer.h"

namespace cs::ingest {

void registerBuiltinImporters(ImporterRegistry& registry) {
    registry.add(std::make_unique<NvccTimeImporter>());
    registry.add(std::make_unique<WarpLogImporter>());
    registry.add(std::make_unique<WarpProbeImporter>());
}

}  // namespace cs::ingest
