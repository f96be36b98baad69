// The viewer's level-of-detail index and loaders: folding, nesting, clipping, marks, the compile
// summary of a known trace, and cancellation.
#include "core/engine/accounting/compile_summary.h"
#include "core/engine/timeline/lanes.h"
#include "core/engine/timeline/timeline_data.h"
#include "core/engine/timeline/timeline_digest.h"
#include "core/engine/timeline/timeline_index.h"
#include "core/engine/timeline/timeline_search.h"
#include "core/trace/reader.h"
#include "demo_trace_builder.h"
#include "test_util.h"

#include <compilescope/trace_constants.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <numeric>
#include <set>

using namespace cs::engine;
namespace demo = cs::test::demo;

namespace {
std::vector<TimelineItem> run(const TimelineIndex& idx, std::int64_t t0, std::int64_t t1, std::int64_t bucket) {
    std::vector<TimelineItem> out;
    idx.query(t0, t1, bucket, out);
    return out;
}
std::uint64_t totalCount(const std::vector<TimelineItem>& v) {
    return std::accumulate(v.begin(), v.end(), std::uint64_t{0}, [](std::uint64_t a, const TimelineItem& i) { return a + i.count; });
}
}  // namespace

TEST(TimelineIndex, NestedSpansGoToDeeperRows) {
    TimelineIndex idx;
    idx.add(0, 100, 1, CS_CAT_COMPILE, 10);
    idx.add(10, 50, 2, CS_CAT_INFERENCE, 11);
    idx.add(20, 30, 3, CS_CAT_CODEGEN, 12);
    idx.add(60, 90, 4, CS_CAT_CODEGEN, 13);
    idx.finish();
    EXPECT_EQ(idx.depthCount(), 3);
    EXPECT_EQ(idx.spanCount(), 4u);
    auto items = run(idx, 0, 100, 1);
    ASSERT_EQ(items.size(), 4u);
    auto hit = idx.spanAt(1, 70);
    ASSERT_TRUE(hit.has_value());
    EXPECT_EQ(hit->rowId, 13);
    EXPECT_FALSE(idx.spanAt(2, 70).has_value());
}

TEST(TimelineIndex, NarrowSpansFoldIntoCountedMarks) {
    TimelineIndex idx;
    for (int i = 0; i < 1000; ++i) idx.add(i * 20, i * 20 + 10, 1, CS_CAT_COMPILE, i);
    idx.finish();
    // One bucket per span or finer: every span comes back on its own.
    EXPECT_EQ(run(idx, 0, 20000, 10).size(), 1000u);
    // 1 us buckets over 20 us: spans of 10 ns fold; nothing is lost, and the adjacent runs merge.
    auto folded = run(idx, 0, 20000, 1000);
    EXPECT_LT(folded.size(), 21u);
    EXPECT_EQ(totalCount(folded), 1000u);
    EXPECT_GT(folded.front().count, 1u);
}

TEST(TimelineIndex, WideSpanBreaksAFoldAndStaysItself) {
    TimelineIndex idx;
    for (int i = 0; i < 50; ++i) idx.add(i * 2, i * 2 + 1, 1, CS_CAT_COMPILE, i);
    idx.add(100, 5000, 2, CS_CAT_LINK, 99);  // wide at a 100 ns bucket
    for (int i = 0; i < 50; ++i) idx.add(5000 + i * 2, 5000 + i * 2 + 1, 1, CS_CAT_COMPILE, 100 + i);
    idx.finish();
    auto items = run(idx, 0, 6000, 100);
    ASSERT_EQ(items.size(), 3u);
    EXPECT_EQ(items[0].count, 50u);
    EXPECT_EQ(items[1].rowId, 99);
    EXPECT_EQ(items[1].count, 1u);
    EXPECT_EQ(items[2].count, 50u);
}

TEST(TimelineIndex, ItemsStayBoundedByPixelsAtAnyZoom) {
    TimelineIndex idx;
    for (int i = 0; i < 200000; ++i) idx.add(i * 100, i * 100 + 40 + (i % 7) * 10, 1, CS_CAT_COMPILE, i);
    idx.finish();
    const std::int64_t span = 200000LL * 100;
    for (std::int64_t width = span; width >= 1000; width /= 10) {
        std::int64_t bucket = std::max<std::int64_t>(1, width / 1000);  // a 1000-pixel view
        auto items = run(idx, 0, width, bucket);
        EXPECT_LE(items.size(), 2000u) << "width " << width;
    }
}

TEST(TimelineIndex, TooDeepNestingIsClippedAndCounted) {
    TimelineIndex idx;
    for (int i = 0; i < TimelineIndex::kMaxDepth + 5; ++i) idx.add(i, 1000 - i, 1, CS_CAT_COMPILE, i);
    idx.finish();
    EXPECT_EQ(idx.depthCount(), TimelineIndex::kMaxDepth);
    EXPECT_EQ(idx.clipped(), 5u);
    EXPECT_EQ(run(idx, 0, 1000, 1).size(), static_cast<std::size_t>(TimelineIndex::kMaxDepth));
}

TEST(TimelineIndex, FoldSummaryEqualsABruteForceCount) {
    // Narrow spans of varied widths and gaps on one row; every fold's summary is the brute-force sum of its spans.
    TimelineIndex idx;
    std::vector<std::array<std::int64_t, 3>> spans;  // start, end, name
    std::int64_t t = 0;
    for (int i = 0; i < 5000; ++i) {
        // Every 500th span is wide and ends a fold.
        const std::int64_t dur = i % 500 == 499 ? 10000 : 1 + (i * 7919) % 50, gap = (i * 104729) % 30;
        spans.push_back({t, t + dur, 1 + i % 5});
        idx.add(t, t + dur, static_cast<std::uint32_t>(1 + i % 5), CS_CAT_COMPILE, i);
        t += dur + gap;
    }
    idx.finish();
    int folds = 0;
    for (const TimelineItem& f : run(idx, 0, t, 4096)) {
        if (f.count < 2) continue;
        ++folds;
        std::size_t count = 0;
        std::int64_t busy = 0;
        std::map<std::uint32_t, std::int64_t> byName;
        for (const auto& s : spans)
            if (s[0] >= f.startNs && s[1] <= f.endNs) {
                ++count;
                busy += s[1] - s[0];
                byName[static_cast<std::uint32_t>(s[2])] += s[1] - s[0];
            }
        const auto sum = idx.summarize(f.depth, f.startNs, f.endNs, 2);
        EXPECT_EQ(sum.count, f.count);
        EXPECT_EQ(sum.count, count);
        EXPECT_EQ(sum.scanned, count);
        EXPECT_EQ(sum.busyNs, busy);
        ASSERT_EQ(sum.top.size(), 2u);
        std::int64_t longest = 0;
        for (const auto& [name, ns] : byName) longest = std::max(longest, ns);
        EXPECT_EQ(sum.top[0].ns, longest);
        EXPECT_GE(sum.top[0].ns, sum.top[1].ns);
    }
    EXPECT_GT(folds, 5);
    // The scan limit: names of the first spans only, the count still whole.
    const auto capped = idx.summarize(0, 0, t, 3, 100);
    EXPECT_EQ(capped.count, spans.size());
    EXPECT_EQ(capped.scanned, 100u);
}

TEST(MarkIndex, FoldsPerBucketAndCountsFlags) {
    MarkIndex m;
    for (int i = 0; i < 100; ++i) m.add(i * 10, 1, i % 4 == 0, i);
    m.finish();
    std::vector<MarkItem> out;
    m.query(0, 1000, 100, out);
    ASSERT_EQ(out.size(), 10u);
    EXPECT_EQ(out[0].count, 10u);
    EXPECT_EQ(out[0].flagged, 3u);  // 0, 40, 80
    out.clear();
    m.query(0, 1000, 1, out);
    EXPECT_EQ(out.size(), 100u);
}

TEST(CompileSummary, DemoTraceTotalsAreUnionsOfCompileWork) {
    cs::test::TempDir dir;
    demo::writeDemoTrace(dir.file("demo.cstrace"));
    auto reader = cs::trace::TraceReader::open(dir.file("demo.cstrace"));
    CompileSummary s = summarizeCompileTime(*reader);
    EXPECT_EQ(s.compileNs, demo::kTotalCompileNs);
    EXPECT_EQ(s.cacheLoadNs, demo::kCacheLoadNs);
    EXPECT_EQ(s.wallNs, demo::kWallNs);
    EXPECT_TRUE(s.wallClock);
    EXPECT_EQ(s.spanNs(), demo::kWallNs);
    EXPECT_EQ(s.untimedCompiles, 0);
    ASSERT_FALSE(s.byRuntime.empty());
    EXPECT_EQ(s.byRuntime[0].name, "julia");
    EXPECT_EQ(s.byRuntime[0].ns, demo::kJuliaCompileNs);
    EXPECT_EQ(s.byRuntime[1].name, "warp");
    EXPECT_EQ(s.byRuntime[1].ns, demo::kWarpCompileNs);
    EXPECT_EQ(s.byCategory[0].name, "compile");
    EXPECT_EQ(s.byCategory[0].ns, demo::kJuliaCompileNs);
    EXPECT_EQ(s.sessions.size(), 3u);
    EXPECT_EQ(s.sessions[0].label, "julia pid 100");
}

// The GUI's timeline, its outline and the report's digest name a runtime lane from the one list
// (timeline/lanes.h); the report only adds what it splits a lane by ("module loads: compiled").
TEST(TimelineData, RuntimeLanesAreNamedFromTheOneList) {
    cs::test::TempDir dir;
    demo::writeDemoTrace(dir.file("demo.cstrace"));
    auto reader = cs::trace::TraceReader::open(dir.file("demo.cstrace"));
    std::set<std::pair<std::int64_t, std::string>> full, outline;
    for (const auto& l : loadTimeline(*reader).lanes)
        if (l.trackKind == CS_TRACK_RUNTIME) {
            EXPECT_EQ(l.name, laneName(l.source));
            full.insert({l.sessionId, l.name});
        }
    for (const auto& l : loadTimelineOutline(*reader).lanes)
        if (l.trackKind == CS_TRACK_RUNTIME) outline.insert({l.sessionId, l.name});
    EXPECT_EQ(full.size(), 2u);  // warp module loads, NVRTC programs
    EXPECT_EQ(outline, full);
    int runtimeLanes = 0;
    for (const auto& l : digestTimeline(*reader, summarizeCompileTime(*reader), 50).lanes) {
        if (l.name.find(" spans") != std::string::npos || l.marks) continue;  // a category's spans, the miss ticks
        bool listed = false;
        for (const auto& k : kLaneKinds) listed = listed || (k.source != LaneSource::Spans && l.name.rfind(k.name, 0) == 0);
        EXPECT_TRUE(listed) << "the report's lane \"" << l.name << "\" is not named from timeline/lanes.h";
        runtimeLanes += listed;
    }
    EXPECT_GE(runtimeLanes, 1);
}

TEST(TimelineData, DemoTraceBecomesLanesAndMarks) {
    cs::test::TempDir dir;
    demo::writeDemoTrace(dir.file("demo.cstrace"));
    auto reader = cs::trace::TraceReader::open(dir.file("demo.cstrace"));
    int lastPercent = -1;
    TimelineData d = loadTimeline(*reader, {.progress = [&](int p, std::string_view) { lastPercent = p; }});
    EXPECT_EQ(lastPercent, 100);
    ASSERT_EQ(d.lanes.size(), 3u);  // julia main thread, warp module loads, NVRTC programs
    EXPECT_EQ(d.lanes[0].name, "main");
    EXPECT_EQ(d.lanes[0].spans.depthCount(), 2);
    EXPECT_EQ(d.lanes[1].name, "module loads");
    EXPECT_EQ(d.lanes[1].spans.spanCount(), static_cast<std::size_t>(demo::kModuleLoads));
    ASSERT_EQ(d.marks.size(), 1u);
    EXPECT_EQ(d.marks[0].lookups.size(), static_cast<std::size_t>(demo::kLookups));
    EXPECT_EQ(d.marks[0].steps.size(), static_cast<std::size_t>(demo::kJuliaSteps));
    std::vector<MarkItem> marks;
    d.marks[0].lookups.query(d.minNs, d.maxNs + 1, 1, marks);
    std::uint32_t misses = 0;
    for (const auto& m : marks) misses += m.flagged;
    EXPECT_EQ(misses, static_cast<std::uint32_t>(demo::kMisses));
    // A module load is labelled with its identity and outcome, and coloured as a compile.
    const auto load = d.lanes[1].spans.spanAt(0, 1 * demo::kS);
    ASSERT_TRUE(load.has_value());
    EXPECT_EQ(d.str(load->name), "warp.sim aaaaaaa (compiled)");
    EXPECT_EQ(load->category, CS_CAT_COMPILE);
}

TEST(TimelineData, CancelStopsTheLoad) {
    cs::test::TempDir dir;
    demo::writeSyntheticTrace(dir.file("big.cstrace"), 200000, 2);
    auto reader = cs::trace::TraceReader::open(dir.file("big.cstrace"));
    std::atomic<bool> cancel{true};
    EXPECT_THROW(loadTimeline(*reader, {.cancel = &cancel}), LoadCancelled);
    EXPECT_THROW(summarizeCompileTime(*reader, {.cancel = &cancel}), LoadCancelled);
}

namespace {
TimelineData demoTimeline(const cs::test::TempDir& dir) {
    demo::writeDemoTrace(dir.file("demo.cstrace"));
    auto reader = cs::trace::TraceReader::open(dir.file("demo.cstrace"));
    return loadTimeline(*reader);
}
}  // namespace

TEST(TimelineSearch, FindsSpansAndModulesByAnyPartOfTheirName) {
    cs::test::TempDir dir;
    TimelineData d = demoTimeline(dir);
    auto hits = searchTimeline(d, "GRADIENT");
    EXPECT_EQ(hits.size(), 3u);  // two compiles and the inference of the gradient program
    auto sim = searchTimeline(d, "warp.sim");
    ASSERT_EQ(sim.size(), 2u);
    EXPECT_EQ(d.lanes[static_cast<std::size_t>(sim[0].lane)].name, "module loads");
    EXPECT_TRUE(searchTimeline(d, "no such name").empty());
    EXPECT_EQ(searchTimeline(d, "gradient", 1).size(), 1u);
}

// forEachIn (the range table's walk) against a brute-force filter of the same spans, at the edges.
TEST(TimelineIndex, ForEachInVisitsExactlyTheIntersectingSpans) {
    struct S {
        std::int64_t a, b, row;
    };
    const std::vector<S> spans = {{0, 100, 1}, {10, 50, 2}, {20, 30, 3}, {50, 50, 4}, {60, 90, 5}, {100, 120, 6}, {130, 130, 7}};
    TimelineIndex idx;
    for (const S& s : spans) idx.add(s.a, s.b, 0, CS_CAT_COMPILE, s.row);
    idx.finish();
    for (auto [t0, t1] : std::vector<std::pair<std::int64_t, std::int64_t>>{{0, 10}, {30, 50}, {50, 51}, {90, 100}, {100, 101}, {130, 131}, {121, 130}}) {
        std::vector<std::int64_t> got, want;
        idx.forEachIn(t0, t1, [&](const TimelineItem& it) { got.push_back(it.rowId); });
        for (const S& s : spans)
            if ((s.b > t0 || (s.a == s.b && s.a == t0)) && s.a < t1) want.push_back(s.row);
        std::sort(got.begin(), got.end());
        EXPECT_EQ(got, want) << "[" << t0 << ", " << t1 << ")";
    }
}

TEST(TimelineIndex, ShiftMovesEverySpanAndTheExtent) {
    TimelineIndex idx;
    idx.add(0, 100, 1, CS_CAT_COMPILE, 10);
    idx.add(10, 50, 2, CS_CAT_INFERENCE, 11);
    idx.finish();
    idx.shift(1000);
    EXPECT_EQ(idx.minNs(), 1000);
    EXPECT_EQ(idx.maxNs(), 1100);
    auto items = run(idx, 0, 2000, 1);
    ASSERT_EQ(items.size(), 2u);
    EXPECT_EQ(items[0].startNs, 1000);
    EXPECT_EQ(items[1].endNs, 1050);
    // Saturating at the limit, never wrapping.
    idx.shift(std::numeric_limits<std::int64_t>::max());
    EXPECT_EQ(idx.maxNs(), std::numeric_limits<std::int64_t>::max());
}

// A hash finds its module load; a category name finds every item of that category; no cap by
// default; the per-name totals add up the hits' durations.
TEST(TimelineSearch, FindsHashesAndCategoriesWithoutACapAndTotalsPerName) {
    cs::test::TempDir dir;
    TimelineData d = demoTimeline(dir);
    auto hash = searchTimeline(d, "bbbbbbb");
    ASSERT_EQ(hash.size(), 1u);
    EXPECT_EQ(std::string(d.str(hash[0].item.name)).rfind("warp.sim bbbbbbb", 0), 0u);
    // The cached Warp load is drawn as a cache load: found by its category's name, not by its own.
    std::vector<bool> cacheLoads(CS_CAT_COUNT, false);
    cacheLoads[CS_CAT_CACHE_LOAD] = true;
    auto byCategory = searchTimeline(d, "cache load", SIZE_MAX, cacheLoads);
    ASSERT_FALSE(byCategory.empty());
    for (const auto& h : byCategory) EXPECT_EQ(h.item.category, CS_CAT_CACHE_LOAD);
    EXPECT_GT(byCategory.size(), searchTimeline(d, "cache load").size());
    auto all = searchTimeline(d, "a");
    EXPECT_EQ(searchTimeline(d, "a", all.size() - 1).size(), all.size() - 1);
    auto totals = totalsByName(all);
    std::int64_t count = 0;
    for (std::size_t i = 0; i < totals.size(); ++i) {
        count += totals[i].count;
        EXPECT_LE(totals[i].maxNs, totals[i].totalNs);
        if (i > 0) {
            EXPECT_GE(totals[i - 1].totalNs, totals[i].totalNs);
        }
        std::int64_t total = 0, max = 0, n = 0;
        for (const auto& h : all)
            if (h.item.name == totals[i].name) total += h.item.endNs - h.item.startNs, max = std::max(max, h.item.endNs - h.item.startNs), ++n;
        EXPECT_EQ(totals[i].totalNs, total);
        EXPECT_EQ(totals[i].maxNs, max);
        EXPECT_EQ(totals[i].count, n);
    }
    EXPECT_EQ(count, static_cast<std::int64_t>(all.size()));
}

// findRow: the span of a source row at any depth (a Cache row's Warp load, found on its lane).
TEST(TimelineIndex, FindRowFindsTheSpanOfARowAtAnyDepth) {
    TimelineIndex idx;
    idx.add(0, 100, 1, CS_CAT_COMPILE, 10);
    idx.add(10, 50, 2, CS_CAT_INFERENCE, 11);
    idx.add(20, 30, 3, CS_CAT_CODEGEN, 12);
    idx.finish();
    auto deep = idx.findRow(12);
    ASSERT_TRUE(deep.has_value());
    EXPECT_EQ(deep->depth, 2);
    EXPECT_EQ(deep->startNs, 20);
    EXPECT_EQ(deep->endNs, 30);
    EXPECT_EQ(deep->name, 3u);
    EXPECT_FALSE(idx.findRow(13).has_value());
}
