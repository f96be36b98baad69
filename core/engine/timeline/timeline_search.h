// Search over every name of a loaded timeline: span, module, program and kernel names, and the
// details of time-trace spans (the header of a clang "Source", the template of an instantiation).
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

// Case-insensitive substring search of names and details; at most `limit` hits, lanes in order.
std::vector<SearchHit> searchTimeline(const TimelineData& data, std::string_view needle, std::size_t limit = 1000);

}  // namespace cs::engine
