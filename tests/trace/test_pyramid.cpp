// The span pyramid (issue 41, core/trace/pyramid.h): its buckets equal a brute-force aggregation of
// the spans on random traces, an older (v1) trace is migrated and reads the same, and a live
// recording's pyramid, after every commit and in the follower's mirror, matches the finalized one.
#include "core/engine/timeline/pyramid_view.h"
#include "core/trace/page_seal.h"
#include "core/trace/pyramid.h"
#include "core/trace/pyramid_migrate.h"
#include "core/trace/reader.h"
#include "core/trace/sqlite_util.h"
#include "core/trace/trace_follower.h"
#include "core/trace/writer.h"
#include "test_util.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <map>
#include <random>
#include <string>
#include <tuple>
#include <vector>

using namespace cs::trace;

namespace {

struct Span {
    std::int64_t track, start;
    OptInt dur;
    int category;
};

// Random spans on `tracks` lanes: clustered and scattered starts, negative times, out of order,
// durations from none (NULL) to hours, some negative (a damaged row).
std::vector<Span> randomSpans(std::mt19937_64& rng, int count, int tracks) {
    std::vector<Span> out;
    std::uniform_int_distribution<int> track(1, tracks), cat(0, 12), shape(0, 9);
    std::int64_t clock = static_cast<std::int64_t>(rng() % 1'000'000'000) - 500'000'000;
    for (int i = 0; i < count; ++i) {
        Span s{track(rng), 0, OptInt{}, cat(rng)};
        switch (shape(rng)) {
        case 0: s.start = static_cast<std::int64_t>(rng() % 4'000'000'000'000ull) - 1'000'000'000'000; break;  // anywhere
        case 1: s.start = clock - static_cast<std::int64_t>(rng() % 10'000'000); break;                    // late
        default: s.start = clock += static_cast<std::int64_t>(rng() % 200'000); break;                     // in order
        }
        switch (shape(rng)) {
        case 0: break;  // never ended
        case 1: s.dur = -static_cast<std::int64_t>(rng() % 1000); break;
        case 2: s.dur = static_cast<std::int64_t>(rng() % 7'200'000'000'000ull); break;
        default: s.dur = static_cast<std::int64_t>(rng() % 3'000'000); break;
        }
        out.push_back(s);
    }
    return out;
}

// The definition of a bucket, summed span by span at every level without the builder's arithmetic.
std::vector<PyramidBucket> bruteForce(const std::vector<Span>& spans) {
    std::map<std::tuple<std::int64_t, int, std::int64_t>, PyramidBucket> m;
    for (const Span& s : spans) {
        const std::int64_t d = s.dur && *s.dur > 0 ? *s.dur : 0;
        for (int level = 0; level < kPyramidLevels; ++level) {
            const std::int64_t width = std::int64_t{1} << (18 + 2 * level);
            std::int64_t bucket = s.start / width;
            if (s.start % width != 0 && s.start < 0) --bucket;  // floor
            auto [it, fresh] = m.try_emplace({s.track, level, bucket});
            PyramidBucket& b = it->second;
            if (fresh) {
                b.trackId = s.track;
                b.level = level;
                b.bucket = bucket;
                b.category = s.category;
            }
            ++b.count;
            b.busyNs += d;
            if (d > b.longestNs || (fresh && d == 0)) {
                b.longestNs = d;
                b.category = s.category;
            } else if (d == b.longestNs && s.category < b.category) {
                b.category = s.category;
            }
        }
    }
    std::vector<PyramidBucket> out;
    for (auto& [k, b] : m) out.push_back(b);
    return out;
}

void addSpans(TraceWriter& w, const std::vector<Span>& spans) {
    for (const Span& s : spans) {
        SpanRecord r;
        r.trackId = s.track;
        r.startNs = s.start;
        r.durNs = s.dur;
        r.category = s.category;
        w.addSpan(r);
    }
}

void writeSpans(TraceWriter& w, const std::vector<Span>& spans, int tracks) {
    SessionRecord sr;
    sr.pid = 1;
    const auto sess = w.addSession(sr);
    for (int t = 1; t <= tracks; ++t) {
        TrackRecord tr;
        tr.sessionId = sess;
        tr.tid = t;
        EXPECT_EQ(w.addTrack(tr), t);
    }
    addSpans(w, spans);
}

std::string dumpTable(const TraceReader& r, const std::string& table) {
    std::string out;
    Statement st(r.db(), "SELECT * FROM " + table + " ORDER BY rowid");
    while (st.step()) {
        for (int c = 0; c < sqlite3_column_count(st.get()); ++c) {
            const unsigned char* t = sqlite3_column_text(st.get(), c);
            out += t ? reinterpret_cast<const char*>(t) : "NULL";
            out += '|';
        }
        out += '\n';
    }
    return out;
}

void expectSame(const std::vector<PyramidBucket>& got, const std::vector<PyramidBucket>& want) {
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
        const auto &g = got[i], &w = want[i];
        ASSERT_EQ(std::tie(g.trackId, g.level, g.bucket, g.count, g.busyNs, g.longestNs, g.category),
                  std::tie(w.trackId, w.level, w.bucket, w.count, w.busyNs, w.longestNs, w.category))
            << "bucket " << i;
    }
}

}  // namespace

TEST(SpanPyramid, BucketsEqualABruteForceAggregationOnRandomTraces) {
    cs::test::TempDir dir;
    for (std::uint64_t seed : {1u, 2u, 3u, 4u}) {
        SCOPED_TRACE(seed);
        std::mt19937_64 rng(seed);
        const int tracks = 1 + static_cast<int>(seed % 4);
        // Over a writer batch (8192 rows) for some seeds: deltas of several batches add up.
        const auto spans = randomSpans(rng, seed % 2 ? 30000 : 700, tracks);
        const std::string path = dir.file("random" + std::to_string(seed) + ".cstrace");
        WriterOptions o;
        o.bulkImport = seed == 3;  // the import path as well as the recording one
        {
            TraceWriter w(path, o);
            writeSpans(w, spans, tracks);
            w.finalize();
        }
        const auto want = bruteForce(spans);
        auto reader = TraceReader::open(path);
        EXPECT_EQ(reader->formatVersion(), 2);
        ASSERT_TRUE(hasPyramid(*reader));
        expectSame(readWholePyramid(*reader), want);
        expectSame(sumPyramid(*reader), want);  // the in-memory sum a v1 trace gets

        // A range read and a count over any range, against the spans themselves.
        auto view = cs::engine::PyramidView::open(*reader);
        ASSERT_TRUE(view->stored());
        for (int q = 0; q < 40; ++q) {
            const std::int64_t w0 = pyramidWidthNs(0);
            std::int64_t a = (spans[rng() % spans.size()].start >> 18) - static_cast<std::int64_t>(rng() % 3000);
            std::int64_t b = a + 1 + static_cast<std::int64_t>(rng() % 2'000'000);
            a *= w0;
            b *= w0;
            const std::int64_t track = 1 + static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(tracks));
            std::int64_t n = 0;
            for (const Span& s : spans) n += s.track == track && s.start >= a && s.start < b;
            EXPECT_EQ(view->spansStartingIn(track, a, b), n) << a << " " << b;
            const int level = cs::engine::PyramidView::levelFor((b - a) / 1000);
            std::int64_t inBuckets = 0;
            for (const auto& bk : view->buckets(track, level, a, b)) {
                EXPECT_EQ(bk.level, level);
                EXPECT_LT(bk.startNs(), b);
                EXPECT_GT(bk.endNs(), a);
                inBuckets += bk.count;
            }
            EXPECT_GE(inBuckets, n);
        }
    }
}

// A trace written before the pyramid (format v1) reads, gets the same pyramid summed in memory,
// and once migrated holds it, stays sealed and reads the same rows.
TEST(SpanPyramid, AnOlderTraceIsMigratedAndReadsTheSame) {
    cs::test::TempDir dir;
    const std::string path = dir.file("old.cstrace");
    std::mt19937_64 rng(7);
    const auto spans = randomSpans(rng, 12000, 3);
    {  // what the writer of format v1 wrote: the same rows, no span_pyramid
        WriterOptions v1;
        v1.spanPyramid = false;
        TraceWriter w(path, v1);
        writeSpans(w, spans, 3);
        w.finalize();
    }
    const std::vector<std::string> tables = {"meta", "strings", "sessions", "tracks", "spans", "stats"};
    std::map<std::string, std::string> before;
    {
        auto r = TraceReader::open(path);
        EXPECT_EQ(r->formatVersion(), 1);
        EXPECT_FALSE(hasPyramid(*r));
        for (const auto& t : tables) before[t] = dumpTable(*r, t);
        int lastPercent = -1;
        cs::engine::LoadControl control;
        control.progress = [&](int percent, std::string_view) { lastPercent = percent; };
        auto view = cs::engine::PyramidView::open(*r, control);
        EXPECT_FALSE(view->stored());
        EXPECT_EQ(lastPercent, 100);
        EXPECT_EQ(view->spansStartingIn(2, -(std::int64_t{1} << 50), std::int64_t{1} << 50),
                  std::count_if(spans.begin(), spans.end(), [](const Span& s) { return s.track == 2; }));
    }
    double progress = 0;
    EXPECT_TRUE(migrateToPyramid(path, [&](double p) { progress = p; }));
    EXPECT_EQ(progress, 1.0);
    auto r = TraceReader::open(path);
    EXPECT_EQ(r->formatVersion(), 2);
    EXPECT_EQ(r->meta("format_version"), "2");
    EXPECT_EQ(r->pageCheck().rfind("ok", 0), 0u) << r->pageCheck();
    ASSERT_TRUE(hasPyramid(*r));
    expectSame(readWholePyramid(*r), bruteForce(spans));
    for (const auto& t : tables) {
        if (t == "meta") continue;
        EXPECT_EQ(dumpTable(*r, t), before[t]) << t;
    }
    r.reset();
    EXPECT_FALSE(migrateToPyramid(path));  // once
}

// While recording: after every commit the pyramid a reader sees is the sum of the spans it sees,
// the follower's mirror sums the same, and the last live pyramid is the finalized one.
TEST(SpanPyramid, ALiveRecordingsPyramidMatchesTheFinalizedOne) {
    cs::test::TempDir dir;
    const std::string path = dir.file("live.cstrace"), mirror = dir.file("mirror.cstrace");
    std::mt19937_64 rng(11);
    const auto spans = randomSpans(rng, 20000, 2);
    std::vector<PyramidBucket> live;
    {
        TraceWriter w(path);
        writeSpans(w, {}, 2);
        w.commit();
        TraceFollower follower(path, mirror);
        std::vector<Span> written;
        for (std::size_t i = 0; i < spans.size(); i += 3000) {
            const std::vector<Span> part(spans.begin() + static_cast<std::ptrdiff_t>(i),
                                         spans.begin() + static_cast<std::ptrdiff_t>(std::min(spans.size(), i + 3000)));
            addSpans(w, part);
            written.insert(written.end(), part.begin(), part.end());
            w.commit();
            live = readWholePyramid(*TraceReader::open(path));
            expectSame(live, bruteForce(written));
            follower.poll();
            expectSame(readWholePyramid(*TraceReader::open(mirror)), live);
        }
        w.finalize();
    }
    expectSame(readWholePyramid(*TraceReader::open(path)), live);
}

TEST(SpanPyramid, LevelsAndBucketsAreFloorDivisions) {
    EXPECT_EQ(pyramidWidthNs(0), 262144);
    EXPECT_EQ(pyramidWidthNs(1), 4 * 262144);
    EXPECT_EQ(pyramidBucketOf(-1, 0), -1);
    EXPECT_EQ(pyramidBucketOf(262144, 0), 1);
    EXPECT_EQ(cs::engine::PyramidView::levelFor(1), 0);
    EXPECT_EQ(cs::engine::PyramidView::levelFor(262145), 1);
    EXPECT_EQ(cs::engine::PyramidView::levelFor(std::int64_t{1} << 62), kPyramidLevels - 1);
    // Saturating sums: two spans of the largest duration.
    PyramidBucket a = spanContribution(1, 0, 0, INT64_MAX, 3), b = spanContribution(1, 0, 5, INT64_MAX, 2);
    mergeBucket(a, b);
    EXPECT_EQ(a.busyNs, INT64_MAX);
    EXPECT_EQ(a.count, 2);
    EXPECT_EQ(a.category, 2);
}

// Bucket indexes come from the file: the extremes read as times saturated at the int64 limits,
// never as an overflow.
TEST(SpanPyramid, HostileBucketIndexesSaturate) {
    cs::test::TempDir dir;
    const std::string path = dir.file("hostile.cstrace");
    {
        TraceWriter w(path);
        writeSpans(w, {}, 1);
        w.finalize();
    }
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    execSql(db, "INSERT INTO span_pyramid VALUES (1, 0, 9223372036854775807, 1, 5, 5, 1), "
                "(1, 0, -9223372036854775808, 1, 5, 5, 1), (1, 11, 9223372036854775807, 2, 5, 5, 1)");
    sqlite3_close(db);
    ASSERT_TRUE(cs::trace::sealPages(path));
    auto reader = TraceReader::open(path);
    const auto extent = readPyramidExtent(*reader, 1);
    ASSERT_TRUE(extent);
    EXPECT_EQ(extent->first, INT64_MIN);
    EXPECT_EQ(extent->second, INT64_MAX);
    auto view = cs::engine::PyramidView::open(*reader);
    for (const auto& b : readWholePyramid(*reader)) {
        EXPECT_EQ(b.startNs(), b.bucket > 0 ? INT64_MAX : INT64_MIN);
        EXPECT_EQ(b.endNs(), b.bucket > 0 ? INT64_MAX : INT64_MIN);
    }
    // No stored index names a time inside [INT64_MIN, INT64_MAX): no range returns or counts one.
    EXPECT_TRUE(view->buckets(1, kPyramidLevels - 1, 0, INT64_MAX).empty());
    EXPECT_EQ(view->spansStartingIn(1, INT64_MIN, INT64_MAX), 0);
    EXPECT_EQ(view->spansStartingIn(1, 0, INT64_MAX), 0);
}
