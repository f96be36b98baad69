// One open trace as the GUI sees it: immutable snapshots from the core, published in stages.
//
// Why shared_ptr<const T>: a snapshot is built once on the loader thread, handed over by a queued
// signal, and then read by several models and the timeline at once; nobody may change it, and it
// lives as long as any view still shows it.
#pragma once

#include "core/engine/cache/cache_analysis.h"
#include "core/engine/accounting/compile_summary.h"
#include "core/engine/julia/invalidation_trees.h"
#include "core/engine/warp/warp_modules.h"
#include "core/engine/common/finding.h"
#include "core/engine/timeline/timeline_data.h"
#include "core/engine/analysis/trace_analysis.h"
#include "core/engine/analysis/trace_figures.h"

#include <QMetaType>
#include <QString>

#include <memory>
#include <vector>

namespace cs::gui {

using SummaryPtr = std::shared_ptr<const engine::CompileSummary>;
using TimelinePtr = std::shared_ptr<const engine::TimelineData>;
using FindingsPtr = std::shared_ptr<const std::vector<engine::Finding>>;

// The engine's analysis of the trace, and its parts the views use: cache replay, Warp module
// identities, Julia invalidation trees. Each part is null when the trace has no facts of that kind.
struct Analyses {
    std::shared_ptr<const engine::TraceAnalysis> trace;  // the whole analysis; the members below are parts of it
    std::shared_ptr<const engine::CacheAnalysis> cache;
    std::shared_ptr<const engine::warp::ModuleReport> modules;
    std::shared_ptr<const engine::InvalidationForest> invalidations;
    // Every keyed figure (engine/analysis/trace_figures.h), computed once per analysis: what the Overview lists.
    std::shared_ptr<const engine::TraceFigures> figures;
};
using AnalysesPtr = std::shared_ptr<const Analyses>;

struct TraceDocument {
    int id = 0;
    QString path;
    QString label;  // file name, shown on lanes and in the trace chooser
    SummaryPtr summary;
    TimelinePtr timeline;
    FindingsPtr findings;
    AnalysesPtr analyses;
    bool loading = true;
    // Opened by File > Compare with baseline…: dimmed on the timeline, never compared as a rank.
    bool baseline = false;
};

}  // namespace cs::gui

Q_DECLARE_METATYPE(cs::gui::SummaryPtr)
Q_DECLARE_METATYPE(cs::gui::TimelinePtr)
Q_DECLARE_METATYPE(cs::gui::FindingsPtr)
Q_DECLARE_METATYPE(cs::gui::AnalysesPtr)
