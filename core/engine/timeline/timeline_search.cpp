#include "core/engine/timeline/timeline_search.h"

#include <algorithm>
#include <cctype>

namespace cs::engine {

namespace {
bool containsNoCase(std::string_view hay, std::string_view needle) {
    auto it = std::search(hay.begin(), hay.end(), needle.begin(), needle.end(), [](char a, char b) {
        return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
    });
    return it != hay.end();
}
}  // namespace

std::vector<SearchHit> searchTimeline(const TimelineData& data, std::string_view needle, std::size_t limit) {
    std::vector<SearchHit> hits;
    if (needle.empty()) return hits;
    std::vector<bool> wanted(data.strings.size() + 1, false);
    bool any = false;
    for (std::size_t id = 1; id <= data.strings.size(); ++id)
        if (containsNoCase(data.strings.get(static_cast<std::int64_t>(id)), needle)) any = wanted[id] = true;
    if (!any) return hits;
    // Spans whose detail matches (a header, a template): their ids, ascending as detailSpans is.
    std::vector<std::int64_t> byDetail;
    for (std::size_t i = 0; i < data.detailSpans.size(); ++i)
        if (data.detailStrings[i] < wanted.size() && wanted[data.detailStrings[i]]) byDetail.push_back(data.detailSpans[i]);
    std::vector<TimelineItem> items;
    for (std::size_t l = 0; l < data.lanes.size() && hits.size() < limit; ++l) {
        items.clear();
        const TimelineIndex& spans = data.lanes[l].spans;
        spans.findByName(wanted, limit - hits.size(), items);
        if (data.lanes[l].source == LaneSource::Spans) spans.findByRowId(byDetail, wanted, limit - hits.size(), items);
        for (const TimelineItem& it : items) hits.push_back({static_cast<int>(l), it});
    }
    return hits;
}

}  // namespace cs::engine
