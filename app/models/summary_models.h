// Small models of the Overview: compile-time shares, sessions, the trace's problem counters.
#pragma once

#include "table_model.h"
#include "trace_document.h"

#include "core/engine/analysis/trace_figures.h"

namespace cs::gui {

struct ShareRow {
    QString name;
    std::int64_t ns = 0;
    double ofCompile = 0;            // share of the total compile time
    std::optional<double> ofWall{};  // share of the wall time, when known
    std::int64_t items = 0;
};

// Rows for a "by category" or "by runtime" table of one summary.
// `nameOf` turns the core's names into what the user reads (runtimeDisplayName); null: as they are.
std::shared_ptr<const std::vector<ShareRow>> shareRows(const engine::CompileSummary& s,
                                                       const std::vector<engine::TimeShare>& shares,
                                                       QString (*nameOf)(std::string_view) = nullptr);

using ShareModel = TableModel<ShareRow>;
ShareModel* makeShareModel(const QString& firstHeader, QObject* parent);

using SessionModel = TableModel<engine::SessionSummary>;
SessionModel* makeSessionModel(QObject* parent);

using ProblemModel = TableModel<std::string>;
ProblemModel* makeProblemModel(QObject* parent);

// Every keyed figure of the trace (engine/analysis/trace_figures.h), as `compilescope info --json` and the
// report key them: label, the figure's own text (engine::figureText) and its key. Nothing here
// computes a figure. Empty until the document is analysed.
using FiguresModel = TableModel<engine::Figure>;
FiguresModel* makeFiguresModel(QObject* parent);
std::shared_ptr<const std::vector<engine::Figure>> figureRows(const TraceDocument& doc);

}  // namespace cs::gui
