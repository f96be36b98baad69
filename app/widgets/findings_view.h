// Findings view: every finding (mechanism, evidence, cost, fix); activating one jumps to its
// evidence rows and its timeline range, activating an evidence row opens that row in its view.
#pragma once

#include "app/models/findings_model.h"

#include <QWidget>

class QTextBrowser;

namespace cs::gui {

class FilteredTable;

class FindingsView : public QWidget {
    Q_OBJECT
public:
    explicit FindingsView(QWidget* parent = nullptr);
    void setFindings(FindingsPtr findings);
    FindingsModel* model() const { return m_model; }
    FilteredTable* table() const { return m_table; }
    QString details() const;
    // Selects finding `index` and shows its details (used by the Overview's top findings).
    void showFinding(int index);

signals:
    void findingActivated(int findingIndex);
    // An evidence row that a view lists (evidenceView) was activated.
    void evidenceActivated(int findingIndex, int evidenceIndex);

private:
    FindingsModel* m_model;
    FilteredTable* m_table;
    QTextBrowser* m_details;
    std::shared_ptr<const FindingTree> m_tree;
};

}  // namespace cs::gui
