// Ranks view: several traces open, read as the ranks of one job. A headline (do they diverge, the
// median rank's compile time, the slow ranks), the rank findings with their evidence (a divergent
// program's compiles, a slow rank's longest compiles), and every rank with its compile time against
// the median's, slowest first. Activating a rank shows it (its Overview, its group on the timeline);
// activating an evidence row opens that lookup in the rank's Cache view.
#pragma once

#include "app/models/findings_model.h"
#include "app/models/rank_models.h"

#include <QWidget>

class QLabel;

namespace cs::gui {

class FilteredTable;

class RanksView : public QWidget {
    Q_OBJECT
public:
    explicit RanksView(QWidget* parent = nullptr);
    void setRanks(RanksPtr ranks);
    const RanksPtr& ranks() const { return m_ranks; }
    RanksModel* model() const { return m_model; }
    FindingsModel* findingsModel() const { return m_findings; }
    FilteredTable* table() const { return m_table; }
    FilteredTable* findingsTable() const { return m_findingsTable; }
    QString headline() const;

signals:
    void rankActivated(int doc);
    void evidenceActivated(int doc, const cs::engine::Evidence& evidence);

private:
    RanksModel* m_model;
    FindingsModel* m_findings;
    FilteredTable* m_table;
    FilteredTable* m_findingsTable;
    QLabel* m_headline;
    RanksPtr m_ranks;
};

}  // namespace cs::gui
