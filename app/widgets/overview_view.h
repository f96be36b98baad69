// Overview: where did the compile time go? Total and share of wall time, by category and runtime,
// the acceptance verdict, the top findings, the sessions and what the trace counted as malformed.
#pragma once

#include "app/models/findings_model.h"
#include "app/models/summary_models.h"

#include <QWidget>

class QLabel;

namespace cs::gui {

class BarChart;
class FilteredTable;

class OverviewView : public QWidget {
    Q_OBJECT
public:
    explicit OverviewView(QWidget* parent = nullptr);
    void setDocument(const TraceDocument& doc);
    QString lossBanner() const;  // "" when the banner is hidden

    QString headline() const;
    QString verdict() const;
    ShareModel* categoryModel() const { return m_categories; }
    ShareModel* runtimeModel() const { return m_runtimes; }
    SessionModel* sessionModel() const { return m_sessions; }
    FindingsModel* topFindingsModel() const { return m_findings; }
    ProblemModel* problemModel() const { return m_problems; }
    FiguresModel* figuresModel() const { return m_figures; }  // every keyed figure (trace_figures.h)
    BarChart* chart() const { return m_chart; }

signals:
    void findingActivated(int findingIndex);

private:
    QLabel* m_loss;  // what the trace is missing, above everything else
    QLabel* m_headline;
    QLabel* m_verdict;
    BarChart* m_chart;
    ShareModel* m_categories;
    ShareModel* m_runtimes;
    SessionModel* m_sessions;
    FindingsModel* m_findings;
    ProblemModel* m_problems;
    FiguresModel* m_figures;
    FilteredTable* m_findingsTable;
    FilteredTable* m_categoryTable;
    FilteredTable* m_runtimeTable;
    FilteredTable* m_sessionTable;
};

// "5.35 s compiling, 53.5% of 10.0 s clocked wall time · 3 session(s)": every figure the text of its
// key in `figures` (engine/analysis/trace_figures.h); `s` only says whether the trace compiled at all.
QString compileHeadline(const engine::CompileSummary& s, const engine::TraceFigures& figures);

}  // namespace cs::gui
