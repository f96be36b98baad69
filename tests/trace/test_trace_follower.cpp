// TraceFollower: each poll reads exactly the rows committed since the last one (appended tables) plus
// the small tables the writer changes in place, and the mirror equals the recording after each poll.
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
    m->query("SELECT s.str FROM tracks t JOIN strings s ON s.id=t.name_sid", [&](sqlite3_stmt* st) {
        trackName = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
    });
    EXPECT_EQ(trackName, "main thread");
    EXPECT_EQ(m->rowCount("stats"), 1);

    // The session's end, written with UPDATE, reaches the mirror; after finalize the file is still followed.
    w.endSession(s, 9999, 0);
    w.finalize();
    auto last = f.poll();
    EXPECT_EQ(last.appendedRowsRead, 0);
    std::int64_t endNs = -1;
    trace::TraceReader::open(mirror)->query("SELECT end_ns FROM sessions", [&](sqlite3_stmt* st) { endNs = sqlite3_column_int64(st, 0); });
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
