#include "core/engine/timeline/range_summary.h"

#include "core/util/saturating.h"

#include <algorithm>
#include <unordered_map>

namespace cs::engine {

RangeSummary summarizeRange(const TimelineData& data, const std::vector<int>& lanes, std::int64_t t0, std::int64_t t1) {
    RangeSummary out;
    out.t0 = std::min(t0, t1);
    out.t1 = std::max(t0, t1);
    std::unordered_map<std::uint32_t, std::size_t> at;  // name id -> row
    for (int lane : lanes) {
        if (lane < 0 || static_cast<std::size_t>(lane) >= data.lanes.size()) continue;
        ++out.lanes;
        data.lanes[static_cast<std::size_t>(lane)].spans.forEachIn(out.t0, out.t1, [&](const TimelineItem& it) {
            auto [pos, added] = at.emplace(it.name, out.rows.size());
            if (added) out.rows.push_back({it.name, it.category, 0, 0, 0});
            RangeNameRow& r = out.rows[pos->second];
            ++r.count;
            const std::int64_t inside = util::satSub(std::min(it.endNs, out.t1), std::max(it.startNs, out.t0));
            r.inRangeNs = util::satAdd(r.inRangeNs, std::max<std::int64_t>(0, inside));
            r.longestNs = std::max(r.longestNs, util::satSub(it.endNs, it.startNs));
            ++out.spans;
        });
    }
    std::sort(out.rows.begin(), out.rows.end(), [](const RangeNameRow& a, const RangeNameRow& b) {
        return a.inRangeNs != b.inRangeNs ? a.inRangeNs > b.inRangeNs : a.name < b.name;
    });
    return out;
}

}  // namespace cs::engine
