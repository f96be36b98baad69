// RangeSummary: what a time range of some lanes holds, per span name (the timeline's Shift-drag
// selection, as Perfetto's area selection and Nsight's range summary give it).
//
// Why per name and clipped: a user who selects "the slow second" asks which compiles filled it. So
// each name gets the spans that intersect the range (count), the time they spent inside the range
// (clipped to it, so the column adds up to at most lanes x range), and the longest of them whole.
// Nested spans are counted at every depth: "compile" and the "infer" inside it are both listed, as
// a flame graph's self and total differ; the table says so rather than guessing which one is meant.
// The spans are visited through TimelineIndex::forEachIn: O(log n) per row plus the spans in range.
#pragma once

#include "core/engine/timeline/timeline_data.h"

#include <cstdint>
#include <vector>

namespace cs::engine {

struct RangeNameRow {
    std::uint32_t name = 0;      // string id in the TimelineData
    std::uint8_t category = 0;   // of the first span seen with this name
    std::size_t count = 0;       // spans intersecting the range
    std::int64_t inRangeNs = 0;  // their time inside the range (saturating)
    std::int64_t longestNs = 0;  // the longest of them, whole
};

struct RangeSummary {
    std::int64_t t0 = 0, t1 = 0;  // display time, [t0, t1)
    std::size_t lanes = 0, spans = 0;
    std::vector<RangeNameRow> rows;  // most time in range first, then by name id
};

// Spans of `lanes` (indices into data.lanes; out-of-range ones ignored) intersecting [t0, t1).
RangeSummary summarizeRange(const TimelineData& data, const std::vector<int>& lanes, std::int64_t t0, std::int64_t t1);

}  // namespace cs::engine
