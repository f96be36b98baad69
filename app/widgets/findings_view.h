// Findings view: every finding (mechanism, evidence, cost, fix); activating one jumps to its
// evidence rows and its timeline range, activating an evidence row opens that row in its view.
// "Show the change" opens the diff or snippet `compilescope fix` writes for the selected finding
// (docs/fix.md), with Copy and Save.
#pragma once

#include "app/models/findings_model.h"
#include "core/engine/fix/fix_change.h"

#include <QWidget>

class QAction;
class QDialog;
class QTextBrowser;

namespace cs::gui {

class FilteredTable;

class FindingsView : public QWidget {
    Q_OBJECT
public:
    explicit FindingsView(QWidget* parent = nullptr);
    void setFindings(FindingsPtr findings);
    // The findings and, from the document's analysis, the change of each one with a mechanical fix.
    void setDocument(const TraceDocument& doc);
    FindingsModel* model() const { return m_model; }
    FilteredTable* table() const { return m_table; }
    QString details() const;
    // Selects finding `index` and shows its details (used by the Overview's top findings).
    void showFinding(int index);
    // "Show the change": enabled while the selected finding has a change.
    QAction* showChangeAction() const { return m_showChange; }
    const engine::fix::FixChange* currentChange() const;
    // Opens the change of the selected finding in a dialog (its text, Copy, Save); null without one.
    QDialog* showChange();

signals:
    void findingActivated(int findingIndex);
    // An evidence row that a view lists (evidenceView) was activated.
    void evidenceActivated(int findingIndex, int evidenceIndex);

private:
    void fill(FindingsPtr findings);
    void select(const engine::Finding* f);

    FindingsModel* m_model;
    FilteredTable* m_table;
    QTextBrowser* m_details;
    std::shared_ptr<const FindingTree> m_tree;
    QAction* m_showChange;
    std::shared_ptr<const engine::TraceAnalysis> m_analysis;
    std::shared_ptr<const engine::fix::FixPlan> m_plan;
    const engine::Finding* m_selected = nullptr;
};

}  // namespace cs::gui
