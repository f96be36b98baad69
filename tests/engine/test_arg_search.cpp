// Search over span arguments (arg_search.h) on the bundled demo, a trace recorded from a real Warp and
// Julia workload: the query's hits against a brute-force read of every argument, and the hits joining
// the timeline search.
#include "core/engine/timeline/arg_search.h"
#include "core/engine/timeline/timeline_data.h"
#include "core/engine/timeline/timeline_search.h"
#include "core/trace/reader.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <set>

using namespace cs::engine;

namespace {

const std::string kDemo = std::string(COMPILESCOPE_SOURCE_DIR) + "/resources/demo/demo.cstrace";

std::string lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// Every (span, key, value) of the trace, read plainly; the expected hits are filtered from it here.
struct Arg {
    std::int64_t span;
    std::string key, value;
};
std::vector<Arg> allArgs(const cs::trace::TraceReader& r) {
    std::vector<Arg> out;
    r.query("SELECT a.span_id, k.str, CAST(a.value AS TEXT) FROM span_args a JOIN strings k ON k.id = a.key_sid", [&](const cs::trace::Row& st) {
        out.push_back({st.integer(0), st.text(1), st.text(2)});
    });
    return out;
}

std::vector<std::int64_t> bruteForce(const std::vector<Arg>& args, const std::string& needle, bool withKey) {
    std::set<std::int64_t> ids;
    for (const Arg& a : args)
        if (lower(withKey ? a.key + "=" + a.value : a.value).find(lower(needle)) != std::string::npos) ids.insert(a.span);
    return {ids.begin(), ids.end()};
}

}  // namespace

TEST(ArgSearch, FindsExactlyTheSpansWhoseArgumentsHoldTheText) {
    auto reader = cs::trace::TraceReader::open(kDemo);
    const std::vector<Arg> args = allArgs(*reader);
    ASSERT_FALSE(args.empty()) << "the demo trace has span arguments";
    // A GPU model in Warp's init banner, a cache outcome in mixed case, a number, a key=value pair.
    for (auto [needle, withKey] : std::vector<std::pair<std::string, bool>>{
             {"a6000", false}, {"HiT", false}, {"1.10", false}, {"disk_cache=hit", true}, {"no such text", false}}) {
        const std::vector<ArgMatch> got = spansWithMatchingArgs(*reader, needle);
        EXPECT_EQ(spanIds(got), bruteForce(args, needle, withKey)) << needle;
        for (const ArgMatch& m : got) EXPECT_NE(lower(m.text).find(lower(needle)), std::string::npos) << m.text;
    }
    EXPECT_FALSE(spansWithMatchingArgs(*reader, "a6000").empty());
    EXPECT_FALSE(spansWithMatchingArgs(*reader, "disk_cache=hit").empty());
    // Without '=', a key alone does not match: "disk_cache" is a name, not a value.
    EXPECT_TRUE(spansWithMatchingArgs(*reader, "disk_cache").empty());
    EXPECT_EQ(spansWithMatchingArgs(*reader, "hit", 1).size(), 1u);
    EXPECT_TRUE(spansWithMatchingArgs(*reader, "").empty());
}

TEST(ArgSearch, ArgumentHitsJoinTheTimelineSearch) {
    auto reader = cs::trace::TraceReader::open(kDemo);
    const TimelineData data = loadTimeline(*reader);
    const std::vector<std::int64_t> ids = spanIds(spansWithMatchingArgs(*reader, "a6000"));
    ASSERT_FALSE(ids.empty());
    EXPECT_TRUE(searchTimeline(data, "a6000").empty()) << "no name holds the GPU model";
    std::vector<std::int64_t> found;
    for (const SearchHit& h : searchTimeline(data, "a6000", SIZE_MAX, {}, ids)) {
        EXPECT_EQ(data.lanes[static_cast<std::size_t>(h.lane)].source, LaneSource::Spans);
        found.push_back(h.item.rowId);
    }
    std::sort(found.begin(), found.end());
    EXPECT_EQ(found, ids);
    // A span found by its name and by an argument is listed once.
    const std::vector<SearchHit> byName = searchTimeline(data, "warp");
    std::vector<std::int64_t> nameIds;
    for (const SearchHit& h : byName)
        if (data.lanes[static_cast<std::size_t>(h.lane)].source == LaneSource::Spans) nameIds.push_back(h.item.rowId);
    std::sort(nameIds.begin(), nameIds.end());
    const std::vector<SearchHit> both = searchTimeline(data, "warp", SIZE_MAX, {}, nameIds);
    EXPECT_EQ(both.size(), byName.size());
}
