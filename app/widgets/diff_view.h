// Diff view: what changed between a baseline run and the trace shown, as `compilescope diff` says it
// (File > Compare with baseline…). A headline gives compiles, compile time and the check verdict of
// both runs; the table lists each change (new, gone, recompiled, slower, faster, findings, verdict)
// with its numbers in both runs, coloured by whether it is a regression. The timeline shows both
// runs aligned at their start, the baseline dimmed.
#pragma once

#include "app/models/diff_model.h"

#include <QWidget>

class QLabel;

namespace cs::gui {

class FilteredTable;

class DiffView : public QWidget {
    Q_OBJECT
public:
    explicit DiffView(QWidget* parent = nullptr);
    // Waiting for the diff of `baseLabel` against `headLabel`.
    void setPending(const QString& baseLabel, const QString& headLabel);
    // The diff asked for by the last setPending.
    void setDiff(const TraceDiffPtr& diff);
    void setError(const QString& message);
    QString headline() const;
    bool pending() const { return m_pending; }  // asked for, not arrived
    DiffModel* model() const { return m_model; }
    FilteredTable* table() const { return m_table; }
    const TraceDiffPtr& diff() const { return m_diff; }

private:
    DiffModel* m_model;
    FilteredTable* m_table;
    QLabel* m_headline;
    QLabel* m_notes;
    TraceDiffPtr m_diff;
    QString m_baseLabel, m_headLabel;
    bool m_pending = false;
};

}  // namespace cs::gui
