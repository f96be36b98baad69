#include "core/engine/cache/poisoning.h"

namespace cs::engine {

void ClosureGuard::onMethodEvent(const MethodEvent& e, size_t order) {
    if (e.event == CS_METHOD_DEFINE) return;  // a first definition changes no closure already captured
    m_latest[e.method] = {order, e.world, e.id};
    m_pending = true;
}

const Redefinition* ClosureGuard::drift(const ClosureMethod& m, size_t createdOrder) const {
    auto it = m_latest.find(m.method);
    if (it == m_latest.end()) return nullptr;
    const auto& r = it->second;
    // Compiled after the redefinition: the entry already saw the new method.
    if (r.order <= createdOrder) return nullptr;
    // Both worlds known: only a newer world than the one compiled against drifts the entry.
    if (r.world && m.world && *r.world <= *m.world) return nullptr;
    return &r;
}

std::string cacheLevelMessage(size_t poisoned, const std::vector<std::string>& drifted) {
    std::string names;
    for (const auto& d : drifted) names += (names.empty() ? "" : ", ") + d;
    return "ReactantNitro: " + std::to_string(poisoned) +
           " cached program(s) had dependency methods redefined after compile (" + names +
           "). Entries poisoned: a new Nitro recompiles against current dispatch, and an existing Nitro "
           "keeps its compiled programs, now stale, and is told so in the report.";
}

}  // namespace cs::engine
