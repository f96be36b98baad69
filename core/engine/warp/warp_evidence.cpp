#include "core/engine/warp/warp_evidence.h"

#include "core/util/saturating.h"

#include <compilescope/trace_constants.h>

#include <algorithm>
#include <cstdio>

namespace cs::engine::warp {

std::string formatMs(std::int64_t ns) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.2f ms", static_cast<double>(ns) / 1e6);
    return buf;
}

// A module's loads are in id order (groupLoads): a binary search, so a module loaded 10,000 times
// does not cost 10,000 scans of its loads; a hand-built summary out of order is still searched.
const ModuleLoad* loadById(const ModuleSummary& m, std::int64_t id) {
    auto it = std::lower_bound(m.loads.begin(), m.loads.end(), id, [](const ModuleLoad& l, std::int64_t v) { return l.id < v; });
    if (it != m.loads.end() && it->id == id)
        return &*it;
    for (const auto& l : m.loads)
        if (l.id == id)
            return &l;
    return nullptr;
}

std::string loadResultName(int r) {
    switch (r) {
    case CS_MODULE_COMPILED:
        return "compiled";
    case CS_MODULE_CACHED:
        return "cached";
    case CS_MODULE_ERROR:
        return "error";
    default:
        return "loaded";
    }
}

Evidence loadEvidence(const ModuleSummary& m, std::int64_t loadId, const std::string& extra) {
    const ModuleLoad* l = loadById(m, loadId);
    std::string note = m.name;
    if (l) {
        note += " " + (l->hash.empty() ? std::string("(no hash)") : shortHash(l->hash));
        if (!l->device.empty())
            note += " " + l->device;
        if (l->blockDim)
            note += " block_dim=" + std::to_string(*l->blockDim);
        note += " " + loadResultName(l->result) + " " + formatMs(l->durNs.value_or(0));
        if (!l->origin.empty())
            note += " (" + l->origin + ")";
    }
    if (!extra.empty())
        note += "; " + extra;
    return {"module_loads", loadId, note};
}

void setRange(Finding& f, const ModuleSummary& m) {
    for (const auto& e : f.evidence) {
        const ModuleLoad* l = loadById(m, e.rowId);
        if (!l || !l->startNs)
            continue;
        std::int64_t end = util::satAdd(*l->startNs, l->durNs.value_or(0));
        if (!f.startNs || *l->startNs < *f.startNs)
            f.startNs = *l->startNs;
        if (!f.endNs || end > *f.endNs)
            f.endNs = end;
    }
    f.sessionId = m.sessionId;
}

} // namespace cs::engine::warp
