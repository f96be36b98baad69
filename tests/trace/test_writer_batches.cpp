// The writer's batching and its SQLite thread: same rows in both modes, errors that keep the rows
// before them, commits visible to readers, and the job queue's ordering and error rules.
#include "core/trace/reader.h"
#include "core/trace/trace_error.h"
#include "core/trace/unsealed_policy.h"
#include "core/trace/write_queue.h"
#include "core/trace/writer.h"
#include "test_util.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <atomic>
#include <string>
#include <vector>

using namespace cs::trace;

namespace {

// Rows of every kind of value: text of many lengths (empty too), reals, NULLs; counts that are not
// multiples of the batch or statement sizes.
void writeMixed(TraceWriter& w, int spans) {
    auto sess = w.addSession({.pid = 1, .startNs = 0});
    auto track = w.addTrack({.sessionId = sess, .kind = CS_TRACK_THREAD, .tid = 1});
    const StringId key = w.intern("detail");
    for (int i = 0; i < spans; ++i) {
        const StringId name = w.intern("name-" + std::to_string(i % 97));
        auto span = w.addSpan({.trackId = track, .startNs = i * 10, .durNs = i % 5 ? OptInt(i) : OptInt{},
                               .category = CS_CAT_COMPILE, .name = i % 7 ? name : 0});
        if (i % 3 == 0) w.addSpanArg(span, key, std::string(static_cast<std::size_t>(i % 300), 'a' + i % 26));
        if (i % 3 == 1) w.addSpanArg(span, key, 0.25 * i);
        if (i % 3 == 2) w.addSpanArg(span, key, std::int64_t{i} * 1000003);
    }
    w.endSession(sess, spans * 10, 0);
}

// A digest of a table's content in rowid order, to compare two traces.
std::string digest(const TraceReader& r, const std::string& table) {
    std::string out;
    r.query("SELECT * FROM " + table + " ORDER BY rowid", [&](const cs::trace::Row& st) {
        for (int i = 0; i < st.columnCount(); ++i) {
            out += std::to_string(static_cast<int>(st.type(i)));
            out += ':';
            if (!st.isNull(i)) out += st.text(i);
            out += '|';
        }
        out += '\n';
    });
    return out;
}

// One session with one thread track; returns the track.
std::int64_t sessionAndTrack(TraceWriter& w) {
    return w.addTrack({.sessionId = w.addSession({.startNs = 0}), .tid = 1});
}

class WriterModes : public ::testing::TestWithParam<bool> {};

}  // namespace

TEST_P(WriterModes, ManyRowsArriveExactlyAndInOrder) {
    cs::test::TempDir dir;
    const int spans = 20011;  // several batches, with remainders
    auto path = dir.file("m.cstrace");
    {
        TraceWriter w(path, {.background = GetParam()});
        writeMixed(w, spans);
        w.finalize();
    }
    auto r = TraceReader::open(path);
    EXPECT_EQ(r->rowCount("spans"), spans);
    EXPECT_EQ(r->rowCount("span_args"), spans);
    EXPECT_EQ(r->integrityCheck(), "ok");
    // Ids are assigned in arrival order and rows are stored in it.
    std::int64_t outOfOrder = -1;
    r->query("SELECT count(*) FROM spans WHERE start_ns != (id - 1) * 10",
                   [&](const cs::trace::Row& st) { outOfOrder = st.integer(0); });
    EXPECT_EQ(outOfOrder, 0);
    std::int64_t sessionEnd = 0;
    r->query("SELECT end_ns FROM sessions", [&](const cs::trace::Row& st) { sessionEnd = st.integer(0); });
    EXPECT_EQ(sessionEnd, spans * 10);  // the UPDATE ran after the session's INSERT
}

TEST(WriterBatches, BothModesWriteTheSameRows) {
    cs::test::TempDir dir;
    for (bool background : {false, true}) {
        TraceWriter w(dir.file(background ? "bg.cstrace" : "fg.cstrace"), {.background = background});
        writeMixed(w, 9000);
        w.finalize();
    }
    auto a = TraceReader::open(dir.file("fg.cstrace"));
    auto b = TraceReader::open(dir.file("bg.cstrace"));
    for (const char* table : {"strings", "sessions", "tracks", "spans", "span_args"})
        EXPECT_EQ(digest(*a, table), digest(*b, table)) << table;
}

TEST_P(WriterModes, AFailingRowIsReportedLaterAndTheRowsBeforeItAreKept) {
    cs::test::TempDir dir;
    auto path = dir.file("e.cstrace");
    bool thrown = false;
    {
        TraceWriter w(path, {.background = GetParam()});
        auto track = sessionAndTrack(w);
        for (int i = 0; i < 100; ++i) w.addSpan({.trackId = track, .startNs = i, .category = CS_CAT_COMPILE});
        // track_id is NOT NULL: this row fails inside SQLite, after the call returned.
        w.insertRaw("spans", {std::int64_t{0}, std::monostate{}, std::int64_t{5}, std::monostate{}, std::int64_t{1},
                              std::monostate{}, std::monostate{}});
        try {
            for (int i = 0; i < 20000; ++i) w.addSpan({.trackId = track, .startNs = i, .category = CS_CAT_COMPILE});
            w.commit();
        } catch (const TraceError& e) {
            thrown = true;
            EXPECT_EQ(e.kind(), TraceErrorKind::Write);
            const std::string what = e.what();
            EXPECT_NE(what.find("spans"), std::string::npos) << what;
            EXPECT_NE(what.find("NOT NULL"), std::string::npos) << what;
            EXPECT_NE(what.find(path), std::string::npos) << what;
        }
        // Later calls keep failing the same way instead of writing past the hole.
        EXPECT_THROW(w.commit(), TraceError);
    }
    EXPECT_TRUE(thrown);
    cs::trace::TrustUnsealedScope trust;  // a failed writer never seals its trace (issue 40)
    auto r = TraceReader::open(path);
    EXPECT_EQ(r->rowCount("spans"), 100);
    EXPECT_EQ(r->integrityCheck(), "ok");
}

TEST_P(WriterModes, CommitMakesRowsVisibleToAReaderWhileWriting) {
    cs::test::TempDir dir;
    auto path = dir.file("v.cstrace");
    TraceWriter w(path, {.background = GetParam()});
    auto track = sessionAndTrack(w);
    for (int i = 0; i < 12345; ++i) w.addSpan({.trackId = track, .startNs = i, .category = CS_CAT_COMPILE});
    w.commit();
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
    sqlite3_stmt* st = nullptr;
    ASSERT_EQ(sqlite3_prepare_v2(db, "SELECT count(*) FROM spans", -1, &st, nullptr), SQLITE_OK);
    ASSERT_EQ(sqlite3_step(st), SQLITE_ROW);
    EXPECT_EQ(sqlite3_column_int64(st, 0), 12345);
    sqlite3_finalize(st);
    sqlite3_close(db);
    w.finalize();
}

TEST_P(WriterModes, ATextOver4GiBIsRefusedAndLeavesNoHalfRow) {
    cs::test::TempDir dir;
    auto path = dir.file("big.cstrace");
    {
        TraceWriter w(path, {.background = GetParam()});
        auto track = sessionAndTrack(w);
        auto span = w.addSpan({.trackId = track, .startNs = 1, .category = CS_CAT_COMPILE});
        const StringId key = w.intern("blob");
        // Only the length is looked at: the writer refuses before reading a byte.
        const char small[1] = {'x'};
        const std::string_view huge(small, std::size_t{5} << 30);
        EXPECT_THROW(w.addSpanArg(span, key, huge), TraceError);
        w.addSpanArg(span, key, std::int64_t{7});  // the writer goes on with whole rows
        w.finalize();
    }
    auto r = TraceReader::open(path);
    EXPECT_EQ(r->rowCount("span_args"), 1);
    EXPECT_EQ(r->integrityCheck(), "ok");
}

INSTANTIATE_TEST_SUITE_P(Writer, WriterModes, ::testing::Values(false, true),
                         [](const auto& p) { return p.param ? "Background" : "CallerThread"; });

TEST(WriteQueue, RunsJobsInOrderAndDrainWaitsForThem) {
    WriteQueue q(true, 2);
    std::vector<int> seen;
    for (int i = 0; i < 1000; ++i) q.post([&seen, i] { seen.push_back(i); });
    q.drain();
    ASSERT_EQ(seen.size(), 1000u);
    for (int i = 0; i < 1000; ++i) EXPECT_EQ(seen[static_cast<std::size_t>(i)], i);
    EXPECT_FALSE(q.error());
}

TEST(WriteQueue, TheFirstErrorIsKeptAndLaterJobsAreSkipped) {
    for (bool threaded : {false, true}) {
        WriteQueue q(threaded);
        std::atomic<int> ran{0};
        q.post([&] { ++ran; });
        q.post([] { throw std::runtime_error("disk full"); });
        q.post([] { throw std::runtime_error("second"); });
        q.post([&] { ++ran; });
        q.drain();
        EXPECT_EQ(ran.load(), 1) << threaded;
        ASSERT_TRUE(q.error());
        EXPECT_EQ(*q.error(), "disk full");
    }
}

TEST(WriteQueue, DestructionRunsWhatWasPosted) {
    std::atomic<int> ran{0};
    {
        WriteQueue q(true, 1);
        for (int i = 0; i < 50; ++i) q.post([&] { ++ran; });
    }
    EXPECT_EQ(ran.load(), 50);
}
