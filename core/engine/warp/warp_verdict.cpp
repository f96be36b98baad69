#include "core/engine/warp/warp_verdict.h"

#include <map>
#include <set>
#include <tuple>

namespace cs::engine::warp {

void judgeModules(const ModuleReport& modules, AcceptanceVerdict& v) {
    if (modules.loadCount == 0) return;
    std::vector<std::string> rebuilt;
    std::int64_t names = 0;
    for (const ModuleSummary& m : modules.modules) {
        ++names;
        // Hashes compiled in this run, per (device, block_dim): another device or block_dim is another
        // build, not a rebuild; identities loaded from the kernel cache cost no compile here.
        std::map<std::tuple<std::string, std::int64_t>, std::set<std::string>> hashes;
        for (const Identity& id : m.identities)
            if (id.compiled > 0) hashes[{id.device, id.blockDim.value_or(-1)}].insert(id.hash);
        for (const auto& [where, set] : hashes) {
            if (set.size() < 2) continue;
            std::string s = m.name + " compiled under " + std::to_string(set.size()) + " hashes";
            if (!std::get<0>(where).empty()) s += " on " + std::get<0>(where);
            s += " (session " + std::to_string(m.sessionId) + ")";
            rebuilt.push_back(std::move(s));
        }
    }
    std::string detail;
    if (rebuilt.empty()) {
        detail = std::to_string(names) + " module(s), none compiled under a second hash: " + std::to_string(modules.compiled) +
                 " compiled, " + std::to_string(modules.cached) + " loaded from the kernel cache";
    } else {
        for (size_t i = 0; i < rebuilt.size() && i < 5; ++i) detail += (i ? "; " : "") + rebuilt[i];
        if (rebuilt.size() > 5) detail += "; and " + std::to_string(rebuilt.size() - 5) + " more";
    }
    v.rules.push_back({"one compiled hash per module", std::string(kModuleRuleScope), rebuilt.empty(), detail});
    v.source = v.source.empty() || v.state == VerdictState::NotApplicable
                   ? "Warp's module loads: each module's hashes per device and block_dim"
                   : v.source + "; Warp's module loads";
    v.state = VerdictState::Pass;
    for (const auto& r : v.rules)
        if (!r.pass) v.state = VerdictState::Fail;
}

}  // namespace cs::engine::warp
