// Search over every name of a loaded timeline: span, module, program and kernel names (a module
// load's name carries its hash and outcome, "warp.sim bbbbbbb (compiled)"), categories, and the
// details of time-trace spans (the header of a clang "Source", the template of an instantiation),
// and the spans whose arguments the caller found by arg_search.h.
//
// Why two passes: names are interned, so the text match runs once per distinct string (usually
// thousands), and the scan of the spans compares integers only. A million spans scan in a few ms.
// No limit by default: the GUI's result model fetches rows lazily and sorts the whole result.
#pragma once

#include "core/engine/timeline/timeline_data.h"

#include <cstdint>
#include <limits>
#include <string_view>
#include <vector>

namespace cs::engine {

struct SearchHit {
    int lane = 0;  // index into TimelineData::lanes
    TimelineItem item;
};

// Case-insensitive substring search; returns at most `limit` hits, lanes in order. `categories`:
// the cs_category codes whose names the caller matched (categories[code]); their items match too.
// `argSpans`: ids (ascending) of spans whose arguments matched (arg_search.h); they match too.
std::vector<SearchHit> searchTimeline(const TimelineData& data, std::string_view needle,
                                      std::size_t limit = std::numeric_limits<std::size_t>::max(),
                                      const std::vector<bool>& categories = {},
                                      const std::vector<std::int64_t>& argSpans = {});

// The hits of one name, for the aggregate view: how many, their total and longest duration.
struct NameTotals {
    std::uint32_t name = 0;     // string id
    std::uint8_t category = 0;  // of its first hit
    std::int64_t count = 0, totalNs = 0, maxNs = 0;
};
// One row per distinct name of `hits`, the largest total first.
std::vector<NameTotals> totalsByName(const std::vector<SearchHit>& hits);

}  // namespace cs::engine
