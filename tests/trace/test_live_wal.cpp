// Reading never stalls the writer (issue 20): while a follower copies a recording that grows at 100,000
// events a second for 60 s, polling as the GUI does, the recording's WAL stays under twice the size at
// which SQLite checkpoints it automatically. A reader that held a long read transaction would stop the
// checkpoints from reaching the end of the WAL, and the WAL would grow with the job.
#include "core/trace/live_registry.h"
#include "core/trace/reader.h"
#include "core/trace/trace_error.h"
#include "core/trace/trace_follower.h"
#include "test_util.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <spawn.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>

extern char** environ;

namespace {
// SQLite's automatic checkpoint threshold in bytes for this trace: wal_autocheckpoint pages (the
// writer keeps SQLite's default) times the trace's page size.
std::int64_t autoCheckpointBytes(const std::string& trace) {
    sqlite3* db = nullptr;
    sqlite3_open_v2(trace.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
    std::int64_t pages = 0, pageSize = 0;
    auto one = [&](const char* sql) {
        sqlite3_stmt* st = nullptr;
        std::int64_t v = 0;
        if (sqlite3_prepare_v2(db, sql, -1, &st, nullptr) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) v = sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
        return v;
    };
    pages = one("PRAGMA wal_autocheckpoint");
    pageSize = one("PRAGMA page_size");
    sqlite3_close_v2(db);
    return pages * pageSize;
}
}  // namespace

TEST(LiveWal, StaysUnderTwiceTheAutoCheckpointWhileFollowedFor60s) {
    cs::test::TempDir dir;
    const std::string trace = dir.file("busy.cstrace"), log = dir.file("commits.log");
    std::string traceArg = trace, ms = "60000", rate = "100000", logArg = log, exe = LIVE_WRITER;
    char* argv[] = {exe.data(), traceArg.data(), ms.data(), rate.data(), logArg.data(), nullptr};
    pid_t pid = 0;
    ASSERT_EQ(posix_spawn(&pid, exe.c_str(), nullptr, nullptr, argv, environ), 0);
    auto liveNow = [&] {
        for (const auto& r : cs::trace::findLiveRecordings())
            if (r.pid == pid) return true;
        return false;
    };
    bool registered = false;
    for (int i = 0; i < 200 && !(registered = liveNow()); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    ASSERT_TRUE(registered) << "the writer did not register";
    const std::int64_t limit = 2 * autoCheckpointBytes(trace);
    ASSERT_GT(limit, 0);

    cs::trace::TraceFollower follower(trace, dir.file("mirror.cstrace"));
    std::int64_t maxWal = 0;
    int polls = 0;
    auto lastPoll = std::chrono::steady_clock::now() - std::chrono::seconds(1);
    int status = 0;
    bool exited = false;
    while (!exited) {
        exited = waitpid(pid, &status, WNOHANG) == pid;
        std::error_code ec;
        const auto wal = std::filesystem::file_size(trace + "-wal", ec);
        if (!ec) maxWal = std::max<std::int64_t>(maxWal, static_cast<std::int64_t>(wal));
        // Paced start to start, as the GUI refreshes: a slow poll does not push the next ones back.
        if (std::chrono::steady_clock::now() - lastPoll >= std::chrono::milliseconds(250)) {
            lastPoll = std::max(lastPoll + std::chrono::milliseconds(250), std::chrono::steady_clock::now() - std::chrono::milliseconds(250));
            try {
                follower.poll();
                ++polls;
            } catch (const cs::trace::TraceError&) {
                // The writer finalizing at the very end: the file leaves WAL mode.
            }
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    // (The writer finalizes while the follower may be polling: it waits for a gap, never fails.)
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "the writer failed (status " << status << ")";
    std::int64_t spans = 0;
    {
        std::ifstream in(log);
        std::string word;
        while (in >> word)
            if (word == "final") in >> spans;
    }
    std::printf("[ measure ] %lld spans in 60 s, %d polls, largest WAL %.1f MiB, limit %.1f MiB\n", static_cast<long long>(spans),
                polls, static_cast<double>(maxWal) / 1048576.0, static_cast<double>(limit) / 1048576.0);
    EXPECT_GE(spans, 5'400'000) << "the writer kept 100,000 events/s (within 10 %)";
    EXPECT_GE(polls, 200) << "the follower polled every 250 ms";
    EXPECT_GT(follower.totalAppendedRowsRead(), spans * 9 / 10) << "the follower kept up";
    EXPECT_GT(maxWal, 0) << "the WAL was observed";
    EXPECT_LT(maxWal, limit);
}
