// The Modules view's tree over the Warp module report (core/engine/warp_modules.h): module names
// with their identities (hash, device, block_dim), each expandable to what differs from the
// previous identity of the same name. Names built under several identities come first (they are
// what the view is for); each name shows its load sequence of hashes, where a return to an earlier
// hash (A -> B -> A, a cycle) is marked; a fact the log does not hold says "not in log".
#pragma once

#include "table_model.h"
#include "trace_document.h"

namespace cs::gui {

struct ModuleItem {
    const engine::warp::ModuleSummary* module = nullptr;
    int identity = -1;                         // index into module->identities, -1 for the module row
    const engine::warp::IdentityChange* change = nullptr;  // a difference row
    bool diffUnknown = false;  // a row saying why what differs is not known (no kernel / option facts)
};
using ModuleTree = Tree<ModuleItem>;
using ModulesModel = TreeModel<ModuleItem>;
struct ModuleTreeSnapshot : ModuleTree {
    std::shared_ptr<const engine::warp::ModuleReport> report;
};
std::shared_ptr<const ModuleTree> buildModuleTree(std::shared_ptr<const engine::warp::ModuleReport> report);
ModulesModel* makeModulesModel(QObject* parent);
// "5e90a30 → cf9d851 → 5e90a30 ↺": a module's loads in order by short hash, repeats of one hash
// folded ("×3"), a return to an earlier hash marked ↺; at most `limit` steps, then "… +N".
QString loadSequenceText(const engine::warp::ModuleSummary& m, int limit = 12);
// Whether a module's hash returned to an earlier one after another (A -> B -> A).
bool hasHashCycle(const engine::warp::ModuleSummary& m);
// "not in log": how a fact the trace does not hold is written, in every module column.
QString notInLog();

}  // namespace cs::gui
