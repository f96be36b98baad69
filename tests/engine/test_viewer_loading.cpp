// The viewer's fast loading path checked against brute force on small traces: the parallel span
// scan (per-track start order, ties, never-ended spans, any worker count), the index built from it
// (the same rows as add() + finish(), every span found by a query), and the compile summary folded
// from the same scan (the same unions as sorting every interval, the old way).
#include "core/engine/accounting/compile_summary.h"
#include "core/engine/timeline/span_scan.h"
#include "core/engine/timeline/timeline_data.h"
#include "core/engine/timeline/timeline_index.h"
#include "core/trace/reader.h"
#include "core/trace/writer.h"
#include "demo_trace_builder.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <random>

using namespace cs::engine;
namespace demo = cs::test::demo;

namespace {

// Sessions with and without an end, tracks with nested spans written children first (as a runtime
// records them), equal starts, zero and negative durations, never-ended spans, non-compile spans,
// a track of an unknown session, and the small tables' compile facts.
void writeMessyTrace(const std::string& path, std::uint32_t seed) {
    using namespace cs::trace;
    std::mt19937 rng(seed);
    TraceWriter w(path, {.overwrite = true});
    auto rt = w.intern("rt"), other = w.intern("other"), mono = w.intern("CLOCK_MONOTONIC");
    // Sessions 1 and 2 share a machine clock (one domain); session 3 counts from its own zero.
    std::int64_t sessions[3] = {w.addSession({.pid = 1, .runtime = rt, .clock = mono, .startNs = 0, .endNs = 5000000}),
                                w.addSession({.pid = 2, .runtime = other, .clock = mono, .startNs = 100}),
                                w.addSession({.pid = 3, .runtime = rt})};
    StringId names[4] = {w.intern("a"), w.intern("b"), w.intern("c"), w.intern("d")};
    const int cats[] = {CS_CAT_COMPILE, CS_CAT_INFERENCE, CS_CAT_CODEGEN, CS_CAT_OTHER, CS_CAT_LINK, CS_CAT_CACHE_LOAD};
    std::vector<std::int64_t> tracks;
    for (int t = 0; t < 6; ++t) tracks.push_back(w.addTrack({.sessionId = sessions[t % 3], .tid = t}));
    tracks.push_back(w.addTrack({.sessionId = 99, .tid = 99}));  // no such session
    for (std::int64_t track : tracks) {
        std::int64_t t = std::uniform_int_distribution<std::int64_t>(0, 1000)(rng);
        for (int k = 0; k < 300; ++k) {
            // A parent with up to 3 children (the first may start with it), children written first.
            std::int64_t len = std::uniform_int_distribution<std::int64_t>(10, 3000)(rng);
            int children = std::uniform_int_distribution<int>(0, 3)(rng);
            std::int64_t c = t;
            for (int i = 0; i < children; ++i) {
                std::int64_t cl = std::uniform_int_distribution<std::int64_t>(0, len / 4)(rng);
                w.addSpan({.trackId = track, .startNs = c, .durNs = cl, .category = cats[rng() % 6], .name = names[rng() % 4]});
                c += cl + std::uniform_int_distribution<std::int64_t>(0, 20)(rng);
            }
            OptInt dur = len;
            if (rng() % 50 == 0) dur = OptInt{};  // never ended
            else if (rng() % 60 == 0) dur = -5;   // malformed
            w.addSpan({.trackId = track, .startNs = t, .durNs = dur, .category = cats[rng() % 6], .name = names[rng() % 4]});
            t += std::uniform_int_distribution<std::int64_t>(-len / 2, len * 2)(rng);  // overlaps now and then
            t = std::max<std::int64_t>(t, 0);
        }
    }
    w.addModuleLoad({.sessionId = sessions[0], .startNs = 200, .durNs = 5000, .name = names[0], .result = CS_MODULE_COMPILED});
    w.addModuleLoad({.sessionId = sessions[1], .durNs = 700, .name = names[1], .result = CS_MODULE_COMPILED});
    w.addCudaProgram({.sessionId = sessions[2], .api = CS_CUDA_NVRTC, .startNs = 50, .durNs = 90000, .name = names[2]});
    w.addPhaseTiming({.sessionId = sessions[0], .tool = CS_PHASE_TOOL_NVCC, .phase = names[3], .durNs = 333});
    w.addModuleLoad({.sessionId = sessions[2], .startNs = 400, .durNs = 800, .name = names[2], .result = CS_MODULE_CACHED});
    w.addCacheLookup({.sessionId = sessions[1], .tsNs = 7000, .cache = names[0], .program = names[1],
                      .verdict = CS_VERDICT_MISS, .compileNs = 4000});
    w.finalize();  // sealed: an unsealed trace is refused (issue 40)
}

struct Iv {
    std::int64_t start, end;
};
std::int64_t unionOf(std::vector<Iv> v) {
    std::sort(v.begin(), v.end(), [](const Iv& a, const Iv& b) { return a.start < b.start; });
    std::int64_t total = 0, s = 0, e = 0;
    bool open = false;
    for (const Iv& i : v) {
        if (open && i.start <= e) {
            e = std::max(e, i.end);
            continue;
        }
        if (open) total += e - s;
        s = i.start;
        e = i.end;
        open = true;
    }
    return total + (open ? e - s : 0);
}

// The summary the slow way (docs/accounting.md): every interval from SQL, sorted and unioned within
// its clock domain (a shared clock, or the session itself; facts of unknown sessions apart), the
// domains added; compile work and cache loads apart; durations without a timestamp added as they are.
struct Reference {
    std::int64_t compileNs = 0, cacheLoadNs = 0, wallNs = 0;
    std::map<std::string, std::int64_t> byCategory, cacheLoads, byRuntime;
};

Reference referenceSummary(const cs::trace::TraceReader& r) {
    auto i64 = [](const cs::trace::Row& st, int i) -> std::int64_t { return st.integer(i); };
    auto isNull = [](const cs::trace::Row& st, int i) { return st.isNull(i); };
    struct Ses {
        std::string runtime, domain;
        std::optional<std::int64_t> start, end;
        bool any = false;
        std::int64_t lo = 0, hi = 0;
        void extend(std::int64_t a, std::int64_t b) {
            lo = any ? std::min(lo, a) : a;
            hi = any ? std::max(hi, b) : b;
            any = true;
        }
    };
    std::map<std::int64_t, Ses> ses;
    r.query("SELECT s.id, coalesce(rt.str, ''), coalesce(c.str, ''), s.start_ns, s.end_ns FROM sessions s "
            "LEFT JOIN strings rt ON rt.id = s.runtime_sid LEFT JOIN strings c ON c.id = s.clock_sid",
            [&](const cs::trace::Row& st) {
                Ses& x = ses[i64(st, 0)];
                x.runtime = st.text(1);
                if (x.runtime.empty()) x.runtime = "unknown";
                std::string clock = st.text(2);
                x.domain = clock == "CLOCK_MONOTONIC" ? clock : "session " + std::to_string(i64(st, 0));
                if (!isNull(st, 3)) x.start = i64(st, 3);
                if (!isNull(st, 4)) x.end = i64(st, 4);
            });
    auto domainOf = [&](std::int64_t id) { return ses.count(id) ? ses[id].domain : std::string("unknown"); };
    const std::set<std::string> cacheLabels = {"cache load", "cached module load", "driver JIT cache load"};
    std::map<std::string, std::vector<Iv>> compileByDomain, cacheByDomain, byLabelDomain;
    std::map<std::int64_t, std::vector<Iv>> bySes;
    std::map<std::string, std::int64_t> untimedLabel;
    std::map<std::int64_t, std::int64_t> untimedSes;
    std::set<std::string> labels;
    auto timed = [&](std::int64_t s, const std::string& label, std::int64_t start, std::int64_t dur) {
        if (dur <= 0) return;
        const bool cache = cacheLabels.count(label) > 0;
        labels.insert(label);
        (cache ? cacheByDomain : compileByDomain)[domainOf(s)].push_back({start, start + dur});
        byLabelDomain[label + "\n" + domainOf(s)].push_back({start, start + dur});
        if (!cache) bySes[s].push_back({start, start + dur});
        if (ses.count(s)) ses[s].extend(start, start + dur);
    };
    auto untimed = [&](std::int64_t s, const std::string& label, std::int64_t dur) {
        if (dur <= 0) return;
        labels.insert(label);
        untimedLabel[label] += dur;
        if (!cacheLabels.count(label)) untimedSes[s] += dur;
    };
    const std::map<std::int64_t, std::string> spanLabel = {
        {CS_CAT_COMPILE, "compile"}, {CS_CAT_CACHE_LOAD, "cache load"}, {CS_CAT_INFERENCE, "inference"},
        {CS_CAT_CODEGEN, "codegen"}, {CS_CAT_LINK, "link"},             {CS_CAT_PHASE, "compiler phase"}};
    r.query("SELECT t.session_id, s.category, s.start_ns, s.dur_ns FROM spans s JOIN tracks t ON t.id = s.track_id",
            [&](const cs::trace::Row& st) {
                const std::int64_t start = i64(st, 2), dur = isNull(st, 3) ? 0 : std::max<std::int64_t>(i64(st, 3), 0);
                if (ses.count(i64(st, 0))) ses[i64(st, 0)].extend(start, start + dur);
                auto it = spanLabel.find(i64(st, 1));
                if (it != spanLabel.end() && !isNull(st, 3)) timed(i64(st, 0), it->second, start, i64(st, 3));
            });
    r.query("SELECT session_id, start_ns, result, coalesce(compile_ns, dur_ns), dur_ns FROM module_loads", [&](const cs::trace::Row& st) {
        const bool compiled = i64(st, 2) == CS_MODULE_COMPILED, cached = i64(st, 2) == CS_MODULE_CACHED;
        if (!compiled && !cached) return;
        const std::string label = compiled ? "module build" : "cached module load";
        const std::int64_t dur = compiled ? i64(st, 3) : i64(st, 4);
        if (isNull(st, 1)) untimed(i64(st, 0), label, dur);
        else timed(i64(st, 0), label, i64(st, 1), dur);
    });
    r.query("SELECT session_id, api, start_ns, dur_ns FROM cuda_programs WHERE dur_ns IS NOT NULL", [&](const cs::trace::Row& st) {
        timed(i64(st, 0), i64(st, 1) == CS_CUDA_NVJITLINK ? "nvJitLink" : "NVRTC", i64(st, 2), i64(st, 3));
    });
    r.query("SELECT session_id, start_ns, dur_ns FROM phase_timings WHERE parent_id IS NULL", [&](const cs::trace::Row& st) {
        if (isNull(st, 1)) untimed(i64(st, 0), "compiler phase", i64(st, 2));
        else timed(i64(st, 0), "compiler phase", i64(st, 1), i64(st, 2));
    });
    r.query("SELECT session_id, ts_ns, compile_ns FROM cache_lookups WHERE verdict = " + std::to_string(CS_VERDICT_MISS) +
                " AND compile_ns IS NOT NULL",
            [&](const cs::trace::Row& st) { timed(i64(st, 0), "program compile", i64(st, 1), i64(st, 2)); });
    Reference ref;
    for (auto& [d, v] : compileByDomain) ref.compileNs += unionOf(v);
    for (auto& [d, v] : cacheByDomain) ref.cacheLoadNs += unionOf(v);
    for (const auto& label : labels) {
        std::int64_t ns = untimedLabel[label];
        for (auto& [key, v] : byLabelDomain)
            if (key.substr(0, key.find('\n')) == label) ns += unionOf(v);
        (cacheLabels.count(label) ? ref.cacheLoads : ref.byCategory)[label] = ns;
        if (cacheLabels.count(label)) ref.cacheLoadNs += untimedLabel[label];
        else ref.compileNs += untimedLabel[label];
    }
    std::map<std::string, std::vector<Iv>> lives;
    for (auto& [id, x] : ses) {
        std::int64_t ns = unionOf(bySes[id]) + untimedSes[id];
        if (ns > 0) ref.byRuntime[x.runtime] += ns;
        if (x.start) x.extend(*x.start, *x.start);
        if (x.end && x.any) x.extend(*x.end, *x.end);
        if (x.any && x.hi > x.lo) lives[x.domain].push_back({x.lo, x.hi});
    }
    for (auto& [d, v] : lives) ref.wallNs += unionOf(v);
    return ref;
}

void expectSummaryMatches(const CompileSummary& s, const Reference& ref) {
    EXPECT_EQ(s.compileNs, ref.compileNs);
    EXPECT_EQ(s.cacheLoadNs, ref.cacheLoadNs);
    EXPECT_EQ(s.wallNs, ref.wallNs);
    std::map<std::string, std::int64_t> cats, runtimes, loads;
    for (const TimeShare& t : s.byCategory) cats[t.name] = t.ns;
    for (const TimeShare& t : s.cacheLoads) loads[t.name] = t.ns;
    EXPECT_EQ(loads, ref.cacheLoads);
    for (const TimeShare& t : s.byRuntime) runtimes[t.name] = t.ns;
    EXPECT_EQ(cats, ref.byCategory);
    EXPECT_EQ(runtimes, ref.byRuntime);
    for (std::size_t i = 1; i < s.byCategory.size(); ++i) EXPECT_GE(s.byCategory[i - 1].ns, s.byCategory[i].ns);
}

// Every span of every listed track, sorted by spanBefore, straight from SQL.
std::map<std::int64_t, std::vector<ScannedSpan>> bruteForceTracks(const cs::trace::TraceReader& r) {
    std::map<std::int64_t, std::vector<ScannedSpan>> out;
    r.query("SELECT track_id, id, start_ns, dur_ns, category, name_sid FROM spans", [&](const cs::trace::Row& st) {
        bool ended = !st.isNull(3);
        out[st.integer(0)].push_back({st.integer(1), st.integer(2),
                                                     ended ? st.integer(3) : 0,
                                                     static_cast<std::uint32_t>(st.integer(5)),
                                                     static_cast<std::int16_t>(st.integer(4)), ended});
    });
    for (auto& [id, v] : out) std::sort(v.begin(), v.end(), spanBefore);
    return out;
}

}  // namespace

TEST(SpanScan, EveryWorkerCountDeliversEachTrackInStartOrder) {
    cs::test::TempDir dir;
    writeMessyTrace(dir.file("t.cstrace"), 1);
    auto reader = cs::trace::TraceReader::open(dir.file("t.cstrace"));
    auto expected = bruteForceTracks(*reader);
    std::vector<std::int64_t> ids;
    for (auto& [id, v] : expected) ids.push_back(id);
    for (unsigned threads : {1u, 2u, 3u}) {
        std::vector<std::vector<ScannedSpan>> got(ids.size());
        std::int64_t rows = scanSpansByTrack(*reader, ids, {}, [&](std::size_t t, const TrackSpans& spans) {
            spans.forEach([&](const ScannedSpan& s) { got[t].push_back(s); });
        }, nullptr, threads);
        std::size_t total = 0;
        for (std::size_t t = 0; t < ids.size(); ++t) {
            const auto& want = expected[ids[t]];
            ASSERT_EQ(got[t].size(), want.size()) << "track " << ids[t] << ", " << threads << " threads";
            total += want.size();
            for (std::size_t i = 0; i < want.size(); ++i) {
                EXPECT_EQ(got[t][i].id, want[i].id) << "track " << ids[t] << " position " << i;
                EXPECT_EQ(got[t][i].durNs, want[i].durNs);
                EXPECT_EQ(got[t][i].ended, want[i].ended);
            }
        }
        EXPECT_EQ(rows, static_cast<std::int64_t>(total));
    }
}

// A worker's part of a track grows its first block by doubling (a build's thousands of ~800-span
// tracks must not each map a 2 MiB block), then adds full blocks: every span stays where it was pushed,
// at each boundary.
TEST(SpanScan, APartKeepsEverySpanAcrossItsBlockBoundaries) {
    using Part = cs::engine::TrackSpans::Part;
    const std::size_t block = cs::engine::TrackSpans::kBlock;
    for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{511}, std::size_t{512}, std::size_t{513}, std::size_t{1025},
                          block - 1, block, block + 1, 2 * block + 7}) {
        Part p;
        for (std::size_t i = 0; i < n; ++i)
            p.push({.id = static_cast<std::int64_t>(i), .startNs = static_cast<std::int64_t>(i) * 3, .durNs = 1, .name = 7,
                    .category = 1, .ended = true});
        ASSERT_EQ(p.size, n);
        if (n > 0 && n <= 1024) {
            EXPECT_LE(p.first, std::size_t{1024}) << "a small part stays small";
        }
        for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(p[i].id, static_cast<std::int64_t>(i)) << "n " << n << " at " << i;
        Part moved(std::move(p));
        EXPECT_EQ(moved.size, n);
        if (n) {
            EXPECT_EQ(moved[n - 1].startNs, static_cast<std::int64_t>(n - 1) * 3);
        }
    }
}

TEST(SpanScan, RowsInReverseOrderAreSortedByTheFallback) {
    // Every row starts before all earlier ones: insertion sort would be quadratic, so past its
    // budget the scan hands the part to std::sort; the result must still be in start order. More
    // rows than one block holds (TrackSpans::kBlock), so blocks are crossed too.
    cs::test::TempDir dir;
    {
        cs::trace::TraceWriter w(dir.file("rev.cstrace"), {.overwrite = true});
        auto ses = w.addSession({.pid = 1, .runtime = w.intern("rt")});
        auto track = w.addTrack({.sessionId = ses, .tid = 1});
        for (int i = 0; i < 70000; ++i)
            w.addSpan({.trackId = track, .startNs = 1000000 - 10 * i, .durNs = 5, .category = CS_CAT_COMPILE});
        w.finalize();
    }
    auto reader = cs::trace::TraceReader::open(dir.file("rev.cstrace"));
    for (unsigned threads : {1u, 2u}) {
        std::vector<std::int64_t> starts;
        scanSpansByTrack(*reader, {1}, {}, [&](std::size_t, const TrackSpans& spans) {
            spans.forEach([&](const ScannedSpan& sp) { starts.push_back(sp.startNs); });
        }, nullptr, threads);
        ASSERT_EQ(starts.size(), 70000u);
        EXPECT_TRUE(std::is_sorted(starts.begin(), starts.end())) << threads << " threads";
    }
}

TEST(SpanScan, AFailingConsumerStopsTheScanWithItsError) {
    cs::test::TempDir dir;
    writeMessyTrace(dir.file("t.cstrace"), 2);
    auto reader = cs::trace::TraceReader::open(dir.file("t.cstrace"));
    std::vector<std::int64_t> ids = {1, 2, 3, 4, 5, 6};
    EXPECT_THROW(scanSpansByTrack(*reader, ids, {}, [](std::size_t, const TrackSpans&) { throw std::runtime_error("boom"); }, nullptr, 2),
                 std::runtime_error);
}

TEST(TimelineIndex, BuildSortedGivesTheRowsOfAddAndFinishAndFindsEverySpan) {
    std::mt19937 rng(7);
    struct S {
        std::int64_t start, end, row;
    };
    std::vector<S> spans;
    for (int i = 0; i < 3000; ++i) {
        std::int64_t a = std::uniform_int_distribution<std::int64_t>(0, 100000)(rng);
        spans.push_back({a, a + std::uniform_int_distribution<std::int64_t>(0, 2000)(rng), i});
    }
    TimelineIndex slow, fast;
    for (const S& s : spans) slow.add(s.start, s.end, 1, CS_CAT_COMPILE, s.row);
    slow.finish();
    std::sort(spans.begin(), spans.end(), [](const S& a, const S& b) { return a.start != b.start ? a.start < b.start : a.end > b.end; });
    fast.buildSorted([&](const auto& f) {
        for (const S& s : spans) f(s.start, s.end, 1u, std::uint8_t{CS_CAT_COMPILE}, s.row);
    });
    fast.finish();  // a no-op after buildSorted
    ASSERT_EQ(fast.depthCount(), slow.depthCount());
    EXPECT_EQ(fast.spanCount(), spans.size());
    EXPECT_EQ(fast.minNs(), slow.minNs());
    EXPECT_EQ(fast.maxNs(), slow.maxNs());
    for (std::int64_t bucket : {1, 64, 4096, 1 << 20}) {
        std::vector<TimelineItem> a, b;
        slow.query(0, 200000, bucket, a);
        fast.query(0, 200000, bucket, b);
        ASSERT_EQ(a.size(), b.size()) << bucket;
        for (std::size_t i = 0; i < a.size(); ++i) {
            EXPECT_EQ(a[i].startNs, b[i].startNs);
            EXPECT_EQ(a[i].endNs, b[i].endNs);
            EXPECT_EQ(a[i].count, b[i].count);
            EXPECT_EQ(a[i].depth, b[i].depth);
        }
    }
    // Brute force: at 1 ns buckets a window returns exactly the spans that intersect it; folded,
    // the counts still cover every one of them.
    for (int q = 0; q < 50; ++q) {
        std::int64_t t0 = std::uniform_int_distribution<std::int64_t>(0, 100000)(rng);
        std::int64_t t1 = t0 + std::uniform_int_distribution<std::int64_t>(1, 20000)(rng);
        std::size_t want = 0;
        for (const S& s : spans) want += s.end > t0 && s.start < t1;
        std::vector<TimelineItem> exact, folded;
        fast.query(t0, t1, 1, exact);
        std::uint64_t found = 0;
        for (const TimelineItem& it : exact) found += it.count;  // 0-ns spans touching others may fold even at 1 ns
        EXPECT_EQ(found, want) << t0 << ".." << t1;
        fast.query(t0, t1, 1024, folded);
        std::uint64_t covered = 0;
        for (const TimelineItem& it : folded) covered += it.count;
        EXPECT_GE(covered, want);
    }
}

TEST(CompileSummary, FoldedScanEqualsSortingEveryInterval) {
    cs::test::TempDir dir;
    for (std::uint32_t seed : {3u, 4u}) {
        std::string path = dir.file("t" + std::to_string(seed) + ".cstrace");
        writeMessyTrace(path, seed);
        auto reader = cs::trace::TraceReader::open(path);
        Reference ref = referenceSummary(*reader);
        EXPECT_GT(ref.compileNs, 0);
        expectSummaryMatches(summarizeCompileTime(*reader), ref);
        // The GUI's path: the summary rides on the timeline's scan.
        CompileSummaryBuilder builder(*reader);
        SpanTracks kept;
        TimelineData d = loadTimeline(*reader, {}, &kept);
        builder.addAll(kept.ids, kept.tracks);
        expectSummaryMatches(builder.finish(), ref);
    }
    demo::writeDemoTrace(dir.file("demo.cstrace"));
    auto reader = cs::trace::TraceReader::open(dir.file("demo.cstrace"));
    expectSummaryMatches(summarizeCompileTime(*reader), referenceSummary(*reader));
}

TEST(TimelineData, LanesHoldEverySpanOfTheirTrackInNonOverlappingRows) {
    cs::test::TempDir dir;
    writeMessyTrace(dir.file("t.cstrace"), 5);
    auto reader = cs::trace::TraceReader::open(dir.file("t.cstrace"));
    TimelineData d = loadTimeline(*reader);
    auto expected = bruteForceTracks(*reader);
    std::size_t lanes = 0;
    for (const TimelineLane& lane : d.lanes) {
        if (lane.source != LaneSource::Spans) continue;
        ++lanes;
        const std::size_t want = expected[lane.trackId].size();
        std::vector<TimelineItem> all;
        lane.spans.query(d.minNs - 1, d.maxNs + 1, 1, all);
        std::uint64_t count = 0;
        for (const TimelineItem& it : all) count += it.count;
        EXPECT_EQ(count, want) << "lane " << lane.name;
        EXPECT_EQ(lane.spans.spanCount(), want);
        for (std::size_t i = 1; i < all.size(); ++i)
            if (all[i].depth == all[i - 1].depth) {
                EXPECT_LE(all[i - 1].endNs, all[i].startNs) << "overlap in row " << all[i].depth;
            }
    }
    EXPECT_EQ(lanes, 7u);  // the unknown session's track too
}

TEST(ViewerLoading, MixedClocksAreDrawnOverTheWorkNotTheUptime) {
    // The bundled demo merges recorded sessions (CLOCK_MONOTONIC, hours of uptime) with imports that
    // count from zero. Each recorded span keeps its distance to the others, shifted to start at 0.
    auto reader = cs::trace::TraceReader::open(std::string(COMPILESCOPE_SOURCE_DIR) + "/resources/demo/demo.cstrace");
    auto data = cs::engine::loadTimeline(*reader);
    ASSERT_TRUE(data.clocks.mixed());
    EXPECT_GE(data.minNs, 0);
    // The clocked work spans the longest session, not 3.4 hours; the Warp log's durations laid end to
    // end follow it after a gap of 5 % (TimelineData::sequenceFromNs), never under it.
    ASSERT_TRUE(data.sequenceFromNs.has_value());
    const std::int64_t clockedNs = (*data.sequenceFromNs - data.minNs) * 100 / 105;
    EXPECT_LT(clockedNs, std::int64_t{2100} * 1'000'000'000);
    EXPECT_LT(data.maxNs - data.minNs, 2 * clockedNs);
    // A recorded span is shown at raw + offset, and the offset moves its session's clock to zero.
    std::int64_t rawFirst = -1, session = 0;
    reader->query("SELECT sp.start_ns, t.session_id FROM spans sp JOIN tracks t ON t.id = sp.track_id JOIN sessions s "
                  "ON s.id = t.session_id JOIN strings c ON c.id = s.clock_sid WHERE c.str = 'CLOCK_MONOTONIC' "
                  "ORDER BY sp.start_ns LIMIT 1",
                  [&](const cs::trace::Row& st) { rawFirst = st.integer(0), session = st.integer(1); });
    ASSERT_GT(rawFirst, 0);
    const std::int64_t shown = data.displayNs(session, rawFirst);
    EXPECT_GE(shown, 0);
    EXPECT_LT(shown, std::int64_t{60} * 1'000'000'000);
    bool found = false;
    for (const auto& lane : data.lanes)
        if (lane.sessionId == session && lane.spans.minNs() == shown) found = true;
    EXPECT_TRUE(found) << "no lane of session " << session << " starts at " << shown;
}

// The outline (loadTimelineOutline) names the lanes the full load makes, and each session with the
// number of spans, runtime rows and lookups the full load draws for it, without reading one span.
void expectOutlineMatches(const cs::trace::TraceReader& reader) {
    const TimelineData full = loadTimeline(reader);
    const TimelineData outline = loadTimelineOutline(reader);
    EXPECT_TRUE(outline.outline);
    EXPECT_FALSE(full.outline);
    auto key = [](const TimelineLane& l) {
        return std::to_string(l.sessionId) + "/" + std::to_string(l.trackId) + "/" + std::to_string(static_cast<int>(l.source)) + "/" +
               l.process + "/" + l.name;
    };
    std::set<std::string> want, got;
    std::map<std::int64_t, std::size_t> eventsWant;
    for (const TimelineLane& l : full.lanes) {
        want.insert(key(l));
        eventsWant[l.sessionId] += l.spans.spanCount();
    }
    for (const TimelineLane& l : outline.lanes) {
        got.insert(key(l));
        EXPECT_EQ(l.spans.spanCount(), 0u) << "the outline read a span of " << l.name;
    }
    EXPECT_EQ(got, want);
    std::map<std::int64_t, std::size_t> lookupsWant, lookupsGot;
    std::size_t steps = 0;
    for (const SessionMarks& m : full.marks) {
        if (m.lookups.size()) lookupsWant[m.sessionId] = m.lookups.size();
        eventsWant[m.sessionId] += m.lookups.size();
        steps += m.steps.size();
    }
    for (const SessionMarks& m : outline.marks) {
        EXPECT_EQ(m.lookups.size(), 0u);
        if (m.outlineLookups) lookupsGot[m.sessionId] = m.outlineLookups;
    }
    EXPECT_EQ(lookupsGot, lookupsWant);
    std::erase_if(eventsWant, [](const auto& kv) { return kv.second == 0; });
    EXPECT_EQ(outline.outlineEvents, eventsWant);
    EXPECT_EQ(outline.events, full.events - steps);  // steps are labels, not counted in an outline
    EXPECT_GT(outline.events, 0u);
}

TEST(TimelineOutline, NamesEveryLaneAndSessionOfTheFullLoadWithItsEventCount) {
    cs::test::TempDir dir;
    writeMessyTrace(dir.file("t.cstrace"), 11);
    expectOutlineMatches(*cs::trace::TraceReader::open(dir.file("t.cstrace")));
    expectOutlineMatches(*cs::trace::TraceReader::open(std::string(COMPILESCOPE_SOURCE_DIR) + "/resources/demo/demo.cstrace"));
}

TEST(TimelineOutline, ExtentOfOneClockStartsWhereTheFullLoadsDoesAndEndsNoLater) {
    // One clock, as a rank's trace: the outline's extent runs from the first span to the end of each
    // track's last-starting span; a longer span that starts earlier may end later (the full extent).
    cs::test::TempDir dir;
    {
        cs::trace::TraceWriter w(dir.file("r.cstrace"), {.overwrite = true});
        auto s = w.addSession({.runtime = w.intern("bench"), .startNs = 0});
        auto a = w.addTrack({.sessionId = s}), b = w.addTrack({.sessionId = s, .tid = 2});
        auto n = w.intern("op");
        w.addSpan({.trackId = a, .startNs = 1000, .durNs = 50000, .category = CS_CAT_COMPILE, .name = n});  // ends last
        w.addSpan({.trackId = a, .startNs = 2000, .durNs = 10, .category = CS_CAT_OTHER, .name = n});
        w.addSpan({.trackId = b, .startNs = 500, .durNs = 100, .category = CS_CAT_OTHER, .name = n});
        w.addSpan({.trackId = b, .startNs = 3000, .durNs = 400, .category = CS_CAT_OTHER, .name = n});
        w.finalize();
    }
    auto reader = cs::trace::TraceReader::open(dir.file("r.cstrace"));
    const TimelineData full = loadTimeline(*reader);
    const TimelineData outline = loadTimelineOutline(*reader);
    EXPECT_EQ(outline.minNs, 500);
    EXPECT_EQ(outline.minNs, full.minNs);
    EXPECT_EQ(outline.maxNs, 3400);  // track b's last span; track a's ends at 2010
    EXPECT_EQ(full.maxNs, 51000);
    ASSERT_EQ(outline.lanes.size(), 2u);
    EXPECT_EQ(outline.outlineEventsOf(outline.lanes[0].sessionId), 4u);  // one session: counted by the highest id
    EXPECT_EQ(outline.events, full.events);
}
