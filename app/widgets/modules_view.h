// Modules view: Warp's repeated hashes. One row per module name with its identities, hashes,
// block_dims, compiled / cached counts and time; expand a name for its identities, an identity for
// what differs from the previous one; the Warp findings beside it.
#pragma once

#include "app/models/findings_model.h"
#include "app/models/module_models.h"

#include <QWidget>

namespace cs::gui {

class FilteredTable;

class ModulesView : public QWidget {
    Q_OBJECT
public:
    explicit ModulesView(QWidget* parent = nullptr);
    void setDocument(const TraceDocument& doc);
    ModulesModel* model() const { return m_model; }
    FindingsModel* findingsModel() const { return m_findings; }
    FilteredTable* table() const { return m_table; }
    // Selects the identity that holds module_loads.id == id.
    bool showLoad(std::int64_t id);

signals:
    void findingActivated(int findingIndex);

private:
    ModulesModel* m_model;
    FindingsModel* m_findings;
    FilteredTable* m_table;
    std::shared_ptr<const ModuleTree> m_tree;
    std::shared_ptr<const engine::warp::ModuleReport> m_report;
};

// The findings whose kind starts with `prefix`, keeping their index in the full list.
FindingsPtr findingsOfKind(const FindingsPtr& all, const std::string& prefix, std::vector<int>* indices = nullptr);

}  // namespace cs::gui
