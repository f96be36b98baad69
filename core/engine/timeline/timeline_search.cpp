#include "core/engine/timeline/timeline_search.h"

#include "core/util/saturating.h"

#include <algorithm>
#include <cctype>
#include <unordered_map>
#include <unordered_set>

namespace cs::engine {

namespace {
bool containsNoCase(std::string_view hay, std::string_view needle) {
    auto it = std::search(hay.begin(), hay.end(), needle.begin(), needle.end(), [](char a, char b) {
        return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
    });
    return it != hay.end();
}
}  // namespace

std::vector<SearchHit> searchTimeline(const TimelineData& data, std::string_view needle, std::size_t limit,
                                      const std::vector<bool>& categories, const std::vector<std::int64_t>& argSpans) {
    std::vector<SearchHit> hits;
    if (needle.empty()) return hits;
    std::vector<bool> wanted(data.strings.size() + 1, false);
    bool any = std::find(categories.begin(), categories.end(), true) != categories.end();
    for (std::size_t id = 1; id <= data.strings.size(); ++id)
        if (containsNoCase(data.strings.get(static_cast<std::int64_t>(id)), needle)) any = wanted[id] = true;
    if (!any && argSpans.empty()) return hits;
    // Spans whose detail matches (a header, a template) or whose arguments did: ascending ids.
    std::vector<std::int64_t> byDetail;
    for (std::size_t i = 0; i < data.detailSpans.size(); ++i)
        if (data.detailStrings[i] < wanted.size() && wanted[data.detailStrings[i]]) byDetail.push_back(data.detailSpans[i]);
    if (!argSpans.empty()) {
        const std::size_t mid = byDetail.size();
        byDetail.insert(byDetail.end(), argSpans.begin(), argSpans.end());
        std::inplace_merge(byDetail.begin(), byDetail.begin() + static_cast<std::ptrdiff_t>(mid), byDetail.end());
        byDetail.erase(std::unique(byDetail.begin(), byDetail.end()), byDetail.end());
    }
    std::vector<TimelineItem> items;
    for (std::size_t l = 0; l < data.lanes.size() && hits.size() < limit; ++l) {
        items.clear();
        const TimelineIndex& spans = data.lanes[l].spans;
        const std::size_t room = limit - hits.size();
        spans.findByName(wanted, room, items, categories);
        if (data.lanes[l].source == LaneSource::Spans && !byDetail.empty() && items.size() < room) {
            // A span found by its category is not found again by its detail.
            const std::size_t byName = items.size();
            spans.findByRowId(byDetail, wanted, room - byName, items);
            if (!categories.empty() && byName > 0) {
                std::unordered_set<std::int64_t> seen;
                for (std::size_t i = 0; i < byName; ++i) seen.insert(items[i].rowId);
                items.erase(std::remove_if(items.begin() + static_cast<std::ptrdiff_t>(byName), items.end(),
                                           [&](const TimelineItem& it) { return seen.count(it.rowId) > 0; }),
                            items.end());
            }
        }
        for (const TimelineItem& it : items) hits.push_back({static_cast<int>(l), it});
    }
    return hits;
}

std::vector<NameTotals> totalsByName(const std::vector<SearchHit>& hits) {
    std::unordered_map<std::uint32_t, std::size_t> row;
    std::vector<NameTotals> out;
    for (const SearchHit& h : hits) {
        auto [it, fresh] = row.emplace(h.item.name, out.size());
        if (fresh) out.push_back({.name = h.item.name, .category = h.item.category});
        NameTotals& t = out[it->second];
        const std::int64_t ns = util::satSub(h.item.endNs, h.item.startNs);
        t.count += h.item.count;
        t.totalNs = util::satAdd(t.totalNs, ns);
        t.maxNs = std::max(t.maxNs, ns);
    }
    std::stable_sort(out.begin(), out.end(), [](const NameTotals& a, const NameTotals& b) { return a.totalNs > b.totalNs; });
    return out;
}

}  // namespace cs::engine
