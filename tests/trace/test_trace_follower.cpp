// TraceFollower: each poll reads exactly the rows committed since the last one (appended tables) plus
// the small tables the writer changes in place, and the mirror equals the recording after each poll,
// value for value, also where rows are written many to a statement; a poll that fails keeps nothing.
#include "core/trace/reader.h"
#include "core/trace/trace_error.h"
#include "core/trace/trace_follower.h"
#include "core/trace/writer.h"
#include "test_util.h"

#include <compilescope/trace_constants.h>

#include <gtest/gtest.h>
#include <sqlite3.h>

using namespace cs;

namespace {
std::int64_t count(const std::string& path, const std::string& table) { return trace::TraceReader::open(path)->rowCount(table); }

// Every row of `table` with its rowid, each value with its SQLite type, in rowid order.
std::string dump(const std::string& path, const std::string& table) {
    std::string out;
    trace::TraceReader::open(path)->query("SELECT rowid, * FROM " + table + " ORDER BY rowid", [&](const trace::Row& st) {
        for (int c = 0; c < st.columnCount(); ++c) {
            out += std::to_string(static_cast<int>(st.type(c))) + ":";
            out += st.text(c);
            out += c + 1 < st.columnCount() ? "|" : "\n";
        }
    });
    return out;
}

std::int64_t appendedFor(const trace::TraceFollower::PollResult& r, const std::string& table) {
    for (const auto& t : r.appended)
        if (t.table == table) return t.rows;
    return 0;
}
}  // namespace

TEST(TraceFollower, EachPollReadsOnlyTheNewRows) {
    test::TempDir dir;
    const std::string rec = dir.file("rec.cstrace"), mirror = dir.file("mirror.cstrace");
    trace::TraceWriter w(rec, {});
    auto s = w.addSession({.pid = 42, .runtime = w.intern("numba"), .clock = w.intern("CLOCK_MONOTONIC"), .startNs = 0});
    auto t = w.addTrack({.sessionId = s, .tid = 42, .name = w.intern("main")});
    for (int i = 0; i < 100; ++i) w.addSpan({.trackId = t, .startNs = i * 10, .durNs = 5, .category = CS_CAT_COMPILE, .name = w.intern("f")});
    w.commit();

    trace::TraceFollower f(rec, mirror);
    auto first = f.poll();
    EXPECT_EQ(appendedFor(first, "spans"), 100);
    EXPECT_EQ(count(mirror, "spans"), 100);
    EXPECT_EQ(count(mirror, "sessions"), 1);
    // Strings and enums are appended tables too: everything the writer committed is there.
    EXPECT_EQ(count(mirror, "strings"), count(rec, "strings"));
    EXPECT_EQ(first.appendedRowsRead, count(rec, "strings") + count(rec, "enums") + 100);

    // Nothing new: nothing read from the appended tables.
    auto idle = f.poll();
    EXPECT_EQ(idle.appendedRowsRead, 0);
    EXPECT_TRUE(idle.appended.empty());
    EXPECT_EQ(idle.smallTableRowsRead, count(rec, "sessions") + count(rec, "tracks") + count(rec, "meta") + count(rec, "stats"));

    // Rows written but not committed are not read; once committed, exactly they are.
    for (int i = 0; i < 37; ++i) w.addSpan({.trackId = t, .startNs = 2000 + i, .durNs = 1, .category = CS_CAT_COMPILE, .name = w.intern("g")});
    w.addStat(s, "dropped_events", "collector", 3, "burst");
    w.setTrackName(t, w.intern("main thread"));
    w.commit();
    auto next = f.poll();
    EXPECT_EQ(appendedFor(next, "spans"), 37);
    EXPECT_EQ(appendedFor(next, "strings"), 2);  // "g", "main thread"
    EXPECT_EQ(next.appendedRowsRead, 39);
    EXPECT_EQ(count(mirror, "spans"), 137);
    // Changed in place: the renamed track and the new stat are in the mirror.
    auto m = trace::TraceReader::open(mirror);
    std::string trackName;
    m->query("SELECT s.str FROM tracks t JOIN strings s ON s.id=t.name_sid", [&](const trace::Row& st) {
        trackName = st.text(0);
    });
    EXPECT_EQ(trackName, "main thread");
    EXPECT_EQ(m->rowCount("stats"), 1);

    // The session's end, written with UPDATE, reaches the mirror; after finalize the file is still followed.
    w.endSession(s, 9999, 0);
    w.finalize();
    auto last = f.poll();
    EXPECT_EQ(last.appendedRowsRead, 0);
    std::int64_t endNs = -1;
    trace::TraceReader::open(mirror)->query("SELECT end_ns FROM sessions", [&](const trace::Row& st) { endNs = st.integer(0); });
    EXPECT_EQ(endNs, 9999);
    EXPECT_EQ(f.totalAppendedRowsRead(), first.appendedRowsRead + 39);
    EXPECT_EQ(f.polls(), 4);
    // Every table of the mirror has the recording's rows.
    for (const char* table : {"spans", "strings", "enums", "sessions", "tracks", "stats", "meta"})
        EXPECT_EQ(count(mirror, table), count(rec, table)) << table;
}

TEST(TraceFollower, NotATraceIsAClearError) {
    test::TempDir dir;
    test::writeFile(dir.file("notes.txt"), "not a trace\n");
    try {
        trace::TraceFollower f(dir.file("notes.txt"), dir.file("m.cstrace"));
        FAIL() << "a text file was followed";
    } catch (const trace::TraceError& e) {
        EXPECT_NE(std::string(e.what()).find("notes.txt"), std::string::npos) << e.what();
    }
}

// Rows are written to the mirror many to a statement, the rest of a chunk one by one: every value
// (NULLs, integers, reals, text) and every rowid arrives as the recording has it, on both paths.
TEST(TraceFollower, MirrorRowsEqualTheRecordingsValueForValue) {
    test::TempDir dir;
    const std::string rec = dir.file("rec.cstrace"), mirror = dir.file("mirror.cstrace");
    trace::TraceWriter w(rec, {});
    auto s = w.addSession({.pid = 7, .startNs = 0});
    auto t = w.addTrack({.sessionId = s, .tid = 7, .name = w.intern("main")});
    trace::TraceFollower f(rec, mirror);
    for (int round = 0; round < 3; ++round) {
        for (int i = 0; i < 1000 + 37 * round; ++i) {
            const std::int64_t span = w.addSpan({.trackId = t, .startNs = round * 100000 + i, .durNs = i % 3 ? trace::OptInt(i) : trace::OptInt(),
                                                 .category = CS_CAT_COMPILE, .name = w.intern("k" + std::to_string(i % 50)),
                                                 .detail = i % 4 ? 0 : w.intern("detail " + std::to_string(i))});
            if (i % 5 == 0) w.addSpanArg(span, w.intern("bytes"), std::int64_t{i} * 1000);
            if (i % 7 == 0) w.addSpanArg(span, w.intern("ratio"), i / 7.0);
            if (i % 11 == 0) w.addSpanArg(span, w.intern("note"), std::string_view("n\xc3\xa4me " + std::to_string(i)));
        }
        w.commit();
        f.poll();
        for (const char* table : {"spans", "span_args", "strings", "enums", "sessions", "tracks"})
            EXPECT_EQ(dump(mirror, table), dump(rec, table)) << table << " after poll " << round;
    }
}

// A poll that fails part way (here: a row the mirror already holds) keeps nothing it copied, and the
// next poll starts from the same watermarks.
TEST(TraceFollower, AFailedPollKeepsNothingAndTheNextStartsWhereItDid) {
    test::TempDir dir;
    const std::string rec = dir.file("rec.cstrace"), mirror = dir.file("mirror.cstrace");
    trace::TraceWriter w(rec, {});
    auto t = w.addTrack({.sessionId = w.addSession({.startNs = 0})});
    auto name = w.intern("f");
    for (int i = 0; i < 100; ++i) w.addSpan({.trackId = t, .startNs = i, .durNs = 1, .category = CS_CAT_COMPILE, .name = name});
    w.commit();
    trace::TraceFollower f(rec, mirror);
    f.poll();
    ASSERT_EQ(count(mirror, "spans"), 100);

    // Another program puts span 150 into the mirror; the recording then commits spans 101..200.
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(mirror.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db, "INSERT INTO spans (id, track_id, start_ns, category) VALUES (150, 1, 0, 1)", nullptr, nullptr, nullptr), SQLITE_OK);
    for (int i = 100; i < 200; ++i) w.addSpan({.trackId = t, .startNs = i, .durNs = 1, .category = CS_CAT_COMPILE, .name = name});
    w.commit();
    EXPECT_THROW(f.poll(), trace::TraceError);
    EXPECT_EQ(count(mirror, "spans"), 101) << "rows of the failed poll were kept";
    EXPECT_EQ(f.totalAppendedRowsRead(), 100 + count(rec, "strings") + count(rec, "enums"));

    ASSERT_EQ(sqlite3_exec(db, "DELETE FROM spans WHERE id = 150", nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db);
    EXPECT_EQ(f.poll().appendedRowsRead, 100);
    EXPECT_EQ(dump(mirror, "spans"), dump(rec, "spans"));
}
