// The Build view's tables over the build report (core/engine/build/build_report.h): the files with
// their frontend / backend split, headers and templates across files, and the critical path.
//
// Why the report and not SQL: the one analysis computed it once (TraceAnalysis::build), and the CLI's
// `build-report` prints the same snapshot; the models only map its rows to text.
#pragma once

#include "table_model.h"
#include "trace_document.h"

namespace cs::gui {

using BuildReportPtr = std::shared_ptr<const engine::build::BuildReport>;

using BuildFilesModel = TableModel<engine::build::BuildFile>;
BuildFilesModel* makeBuildFilesModel(QObject* parent);
// The report's files, kept alive by the report (no copy).
std::shared_ptr<const std::vector<engine::build::BuildFile>> buildFileRows(const BuildReportPtr& report);

// Headers, templates, template sets, functions: `what` names the first column ("Header", ...).
using BuildCostModel = TableModel<engine::build::Cost>;
BuildCostModel* makeBuildCostModel(const QString& what, QObject* parent);
std::shared_ptr<const std::vector<engine::build::Cost>> buildCostRows(const BuildReportPtr& report,
                                                                      const std::vector<engine::build::Cost>& costs);

// One step of the critical path, numbered in build order, with its start from the build's start.
struct BuildPathRow {
    int step = 0;
    engine::build::PathStep path;
    std::int64_t offsetNs = 0;
};
using BuildPathModel = TableModel<BuildPathRow>;
BuildPathModel* makeBuildPathModel(QObject* parent);
std::shared_ptr<const std::vector<BuildPathRow>> buildPathRows(const engine::build::BuildReport& report);

// The headline: files, compiler time split frontend / backend, wall and parallelism, critical path.
QString buildHeadline(const engine::build::BuildReport& report);

}  // namespace cs::gui
