// Search results over every name of every open trace: spans, module loads (whose names carry their
// hash and outcome), programs, kernels, and every item of a category whose name matches. All of
// them, fetched lazily and sorted whole (lazy_table_model.h); and per name: count, total, longest.
#pragma once

#include "lazy_table_model.h"
#include "table_model.h"
#include "trace_document.h"

#include "core/engine/timeline/arg_search.h"
#include "core/engine/timeline/timeline_search.h"

#include <limits>

namespace cs::gui {

struct SearchRow {
    int source = 0;  // index of the trace among the timeline's sources
    QString trace, lane, name;
    int lane_index = 0;
    engine::TimelineItem item;
    std::int64_t originNs = 0;  // the trace's first event, so times read as on the timeline
    bool untimed = false;  // a span the tool printed no time for (TimelineData::untimedSpans): no duration
};
using SearchModel = LazyTableModel<SearchRow>;
SearchModel* makeSearchModel(QObject* parent);

struct SearchInput {
    QString label;
    TimelinePtr timeline;
    std::vector<engine::ArgMatch> args;  // spans whose arguments matched (ArgSearchFetcher), ascending
};
// Runs the core search over each trace (names, categories whose name contains the needle, and the
// spans of `args`); at most `limit` rows in all (no limit by default). A span found by an argument
// shows it after its name: "Warp 1.10.0 initialized [device cuda:0=\"NVIDIA RTX A6000\" ...]".
std::shared_ptr<const std::vector<SearchRow>> searchNames(const std::vector<SearchInput>& traces, const QString& needle,
                                                          std::size_t limit = std::numeric_limits<std::size_t>::max());

// The aggregate mode: one row per (trace, name) with the engine's totals (timeline_search.h).
struct SearchTotalRow {
    QString trace, name, category;
    qlonglong count = 0, totalNs = 0, maxNs = 0;
    qlonglong untimed = 0;  // of `count`, items the tool printed no time for: not in the total
};
using SearchTotalsModel = TableModel<SearchTotalRow>;
SearchTotalsModel* makeSearchTotalsModel(QObject* parent);
// From the rows searchNames() found over `traces` (no second search).
std::shared_ptr<const std::vector<SearchTotalRow>> searchTotals(const std::vector<SearchInput>& traces, const std::vector<SearchRow>& rows);

}  // namespace cs::gui
