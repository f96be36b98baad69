// Search over every name of a loaded timeline: span, module, program and kernel names.
//
// Why two passes: names are interned, so the text match runs once per distinct string (usually
// thousands), and the scan of the spans compares integers only. A million spans scan in a few ms.
#pragma once

#include "core/engine/timeline/timeline_data.h"

#include <string_view>
#include <vector>

namespace cs::engine {

struct SearchHit {
    int lane = 0;  // index into TimelineData::lanes
    TimelineItem item;
};

// Case-insensitive substring search; returns at most `limit` hits, lanes in order.
std::vector<SearchHit> searchTimeline(const TimelineData& data, std::string_view needle, std::size_t limit = 1000);

}  // namespace cs::engine
