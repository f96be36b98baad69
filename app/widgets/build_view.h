// Build view: a whole build's clang time traces (and .ninja_log) as ClangBuildAnalyzer answers them.
// The headline gives the compiler time split into frontend and backend, the build's wall time,
// average and peak parallelism and the critical path's length; below, the files (sortable by
// frontend, backend, total), the critical path, and one tab each for the headers, template
// instantiations, template sets (arguments folded) and functions (optimised, generated) that cost most
// over all files. Every row leads to its span on the timeline. It renders the one analysis's build report
// (TraceAnalysis::build), the snapshot `compilescope build-report` prints.
#pragma once

#include "app/models/build_models.h"

#include <QWidget>

#include <array>

class QLabel;
class QTabWidget;

namespace cs::gui {

class FilteredTable;

class BuildView : public QWidget {
    Q_OBJECT
public:
    explicit BuildView(QWidget* parent = nullptr);
    void setDocument(const TraceDocument& doc);
    // Whether the document shown has build data (time traces or a ninja log): the tab is shown only then.
    bool hasBuild() const { return m_report != nullptr; }
    const BuildReportPtr& report() const { return m_report; }
    QString headline() const;
    BuildFilesModel* files() const { return m_files; }
    BuildPathModel* criticalPath() const { return m_path; }
    // The cost tables, in tab order: headers, templates, template sets, functions optimised, generated.
    enum CostTable { Headers, Templates, TemplateSets, OptimisedFunctions, GeneratedFunctions, CostTableCount };
    BuildCostModel* costs(CostTable which) const { return m_costs[which]; }
    BuildCostModel* headers() const { return m_costs[Headers]; }
    BuildCostModel* templates() const { return m_costs[Templates]; }
    FilteredTable* costTable(CostTable which) const { return m_costTables[which]; }
    QTabWidget* costTabs() const { return m_costTabs; }
    FilteredTable* filesTable() const { return m_filesTable; }
    FilteredTable* pathTable() const { return m_pathTable; }

signals:
    // A row was activated: show span `spanId` on the timeline, or the range [startNs, endNs) of the
    // display axis when no lane holds that span (endNs == startNs: no range known).
    void spanRequested(std::int64_t spanId, std::int64_t startNs, std::int64_t endNs);

private:
    BuildFilesModel* m_files;
    BuildPathModel* m_path;
    std::array<BuildCostModel*, CostTableCount> m_costs{};
    std::array<FilteredTable*, CostTableCount> m_costTables{};
    QTabWidget* m_costTabs;
    FilteredTable* m_filesTable;
    FilteredTable* m_pathTable;
    QLabel* m_headline;
    BuildReportPtr m_report;
};

}  // namespace cs::gui
