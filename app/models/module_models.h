// The Modules view's tree over the Warp module report (core/engine/warp_modules.h): module names
// with their identities (hash, device, block_dim), each expandable to what differs from the
// previous identity of the same name.
#pragma once

#include "table_model.h"
#include "trace_document.h"

namespace cs::gui {

struct ModuleItem {
    const engine::warp::ModuleSummary* module = nullptr;
    int identity = -1;                         // index into module->identities, -1 for the module row
    const engine::warp::IdentityChange* change = nullptr;  // a difference row
};
using ModuleTree = Tree<ModuleItem>;
using ModulesModel = TreeModel<ModuleItem>;
struct ModuleTreeSnapshot : ModuleTree {
    std::shared_ptr<const engine::warp::ModuleReport> report;
};
std::shared_ptr<const ModuleTree> buildModuleTree(std::shared_ptr<const engine::warp::ModuleReport> report);
ModulesModel* makeModulesModel(QObject* parent);

}  // namespace cs::gui
