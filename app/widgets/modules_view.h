// Modules view: Warp's repeated hashes. Headline figures (loads by outcome, the probe's medians)
// on top; one row per module name, repeats first, with its identities, hashes, block_dims, device,
// compiled / cached counts, time and load sequence; expand a name for its identities, an identity
// for what differs from the previous one (or why that is not known); the Warp findings beside it.
#pragma once

#include "app/models/findings_model.h"
#include "app/models/module_models.h"

#include <QWidget>

class QLabel;

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
    QString headline() const;
    // Selects the identity that holds module_loads.id == id.
    bool showLoad(std::int64_t id);

signals:
    void findingActivated(int findingIndex);

private:
    ModulesModel* m_model;
    FindingsModel* m_findings;
    FilteredTable* m_table;
    QLabel* m_headline;
    std::shared_ptr<const ModuleTree> m_tree;
    std::shared_ptr<const engine::warp::ModuleReport> m_report;
};

// The headline of a module report: loads by outcome, names and repeats, and the probe's figures
// (cold / warm module medians, compiled / cached events) when the trace holds a probe report.
QString moduleHeadline(const engine::warp::ModuleReport* report, std::int64_t repeatedNames);

// The findings whose kind starts with `prefix`, keeping their index in the full list.
FindingsPtr findingsOfKind(const FindingsPtr& all, const std::string& prefix, std::vector<int>* indices = nullptr);

}  // namespace cs::gui
