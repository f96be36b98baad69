#include "core/engine/warp/warp_unique.h"

#include "core/formats/warp_log_lines.h"

#include <algorithm>

namespace cs::engine::warp {

bool hashComparableWithUniqueName(const Identity& id) {
    return !id.hash.empty() && id.device != "cpu" && id.blockDim.value_or(kWarpDefaultBlockDim) == kWarpDefaultBlockDim;
}

namespace {
bool kernelsKnown(const ModuleSummary& m) {
    return std::any_of(m.identities.begin(), m.identities.end(), [](const Identity& id) { return !id.kernels.empty(); });
}
}  // namespace

bool hasUniqueShape(const ModuleSummary& m) {
    if (m.name.find('.') != std::string::npos || !ingest::warp::isUniqueModuleName(m.name, ""))
        return false;
    const std::string key = m.name.substr(0, m.name.rfind('_'));
    return std::all_of(m.identities.begin(), m.identities.end(), [&](const Identity& id) {
        return std::all_of(id.kernels.begin(), id.kernels.end(), [&](const ModuleKernel& k) { return k.name == key; });
    });
}

bool isUniqueModule(const ModuleSummary& m) {
    if (!hasUniqueShape(m))
        return false;
    if (kernelsKnown(m))
        return true;
    bool comparable = false;
    for (const auto& id : m.identities) {
        if (!hashComparableWithUniqueName(id))
            continue;
        comparable = true;
        if (ingest::warp::isUniqueModuleName(m.name, shortHash(id.hash)))
            return true;
    }
    return !comparable;
}

}  // namespace cs::engine::warp
