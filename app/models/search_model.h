// Search results over every name of every open trace: spans, module loads, programs, kernels.
#pragma once

#include "table_model.h"
#include "trace_document.h"

#include "core/engine/timeline/timeline_search.h"

namespace cs::gui {

struct SearchRow {
    int source = 0;  // index of the trace among the timeline's sources
    QString trace, lane, name;
    int lane_index = 0;
    engine::TimelineItem item;
    std::int64_t originNs = 0;  // the trace's first event, so times read as on the timeline
};
using SearchModel = TableModel<SearchRow>;
SearchModel* makeSearchModel(QObject* parent);

struct SearchInput {
    QString label;
    TimelinePtr timeline;
};
// Runs the core search over each trace; at most `limit` rows in all.
std::shared_ptr<const std::vector<SearchRow>> searchNames(const std::vector<SearchInput>& traces, const QString& needle,
                                                          std::size_t limit = 2000);

}  // namespace cs::gui
