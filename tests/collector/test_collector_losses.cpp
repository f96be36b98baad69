// Losses of a recording that used to be counted nowhere (issue 40): a stalled recorder, a write
// failure, threads past the arena's slots, a child that outlives the job, a SIGTERM to the recorder.
//
// Each test makes the fault for real (SIGSTOP, `ulimit -f`, signals) through `compilescope record`
// and the collector_job program, then checks that what the trace kept plus what it counted is what
// the job emitted, and that the banners say so. No test measures time: a stall is a stopped process.
#include "test_util.h"

#include "core/trace/live_registry.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <vector>

namespace {

using cs::test::TempDir;

const std::string kCli = COMPILESCOPE_CLI;
const std::string kJob = COLLECTOR_JOB;

struct JobRun {
    int status;
    std::string out, err;
};

JobRun run(const TempDir& dir, const std::string& command) {
    const std::string out = dir.file("stdout.txt"), err = dir.file("stderr.txt");
    int st = std::system((command + " >" + out + " 2>" + err).c_str());
    return {WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st), cs::test::readFile(out), cs::test::readFile(err)};
}

// One integer from a trace (-1 when the query gives nothing).
std::int64_t one(const std::string& trace, const std::string& sql) {
    sqlite3* db = nullptr;
    std::int64_t v = -1;
    if (sqlite3_open_v2(trace.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
        sqlite3_stmt* st = nullptr;
        if (sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW &&
            sqlite3_column_type(st, 0) != SQLITE_NULL)
            v = sqlite3_column_int64(st, 0);
        else
            ADD_FAILURE() << sql << ": " << sqlite3_errmsg(db);
        sqlite3_finalize(st);
    }
    sqlite3_close(db);
    return v;
}

// Every event the trace counts as lost (the stats rows the loss line and `info` add up).
std::int64_t counted(const std::string& trace) {
    return one(trace, "SELECT coalesce(sum(count), 0) FROM stats WHERE name LIKE 'dropped\\_%' ESCAPE '\\' OR "
                      "name = 'lost_at_exit'");
}

// The pid of the only recorder registered under `runtimeDir` (XDG_RUNTIME_DIR), once it is there.
long recorderPid(const std::string& runtimeDir) {
    for (int i = 0; i < 1000; ++i) {
        auto live = cs::trace::listLiveRecordings(runtimeDir + "/compilescope");
        if (!live.empty()) return static_cast<long>(live[0].pid);
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return -1;
}

TEST(RecordingLosses, ARecorderStoppedTenSecondsDuringABurstLosesNothingUncounted) {
    // Issue 40: a recorder stopped for ~7 s lost 90 % of a burst, 22,559 events counted nowhere, and
    // the trace said "nothing dropped". The job's sends time out while the recorder is stopped.
    TempDir dir;
    const std::string runtime = dir.file("xdg"), trace = dir.file("t.cstrace");
    std::filesystem::create_directories(runtime);
    const long emitted = 8 * 200000;
    JobRun r{};
    std::thread job([&] {
        r = run(dir, "XDG_RUNTIME_DIR=" + runtime + " COLLECTOR_JOB_PRINT_DROPS=1 " + kCli + " record -o " + trace +
                         " -- " + kJob + " threads 8 200000");
    });
    const long pid = recorderPid(runtime);
    ASSERT_GT(pid, 0);
    ::kill(static_cast<pid_t>(pid), SIGSTOP);
    std::this_thread::sleep_for(std::chrono::seconds(10));  // the stall; nothing below depends on its length
    ::kill(static_cast<pid_t>(pid), SIGCONT);
    job.join();
    ASSERT_EQ(r.status, 0) << r.err;

    const std::int64_t kept = one(trace, "SELECT count(*) FROM spans"), lost = counted(trace);
    ASSERT_GT(lost, 0) << "a 10 s stall must cost part of a 1.6M-event burst";
    EXPECT_EQ(kept + lost, emitted) << "kept " << kept << ", counted " << lost;
    // The job's own count and the trace's agree.
    EXPECT_EQ(r.out, "dropped=" + std::to_string(lost) + "\n");
    // record's summary and info both say it.
    EXPECT_NE(r.err.find(" events dropped ("), std::string::npos) << r.err;
    JobRun info = run(dir, kCli + " info " + trace);
    EXPECT_EQ(info.out.find("nothing dropped"), std::string::npos) << info.out;
    EXPECT_NE(info.out.find("recorded events never reached the trace"), std::string::npos) << info.out;
}

// The last sequence number `collector_job steady` recorded (-1 before the first; the file is mmap'd).
std::int64_t lastRecorded(const std::string& progressFile) {
    const std::string text = cs::test::readFile(progressFile);
    std::int64_t last = -1;
    if (text.size() >= sizeof last) std::memcpy(&last, text.data(), sizeof last);
    return last;
}

// Waits until `done` holds (polled, no time limit but the test's own).
template <class Pred>
bool waitFor(Pred done) {
    for (int i = 0; i < 3000; ++i) {
        if (done()) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return false;
}

TEST(RecordingLosses, SigtermToTheRecorderKeepsTheJobsExitStatusAndCountsWhatFollows) {
    // Issue 40: SIGTERM to the recorder finished the trace at once, without the job's exit status.
    TempDir dir;
    const std::string runtime = dir.file("xdg"), trace = dir.file("t.cstrace"), pidFile = dir.file("pid"),
                      progress = dir.file("progress");
    std::filesystem::create_directories(runtime);
    JobRun r{};
    std::thread job([&] {
        r = run(dir, "XDG_RUNTIME_DIR=" + runtime + " " + kCli + " record -o " + trace + " -- sh -c 'echo $$ > " +
                         pidFile + "; exec " + kJob + " steady " + progress + " 10 0'");
    });
    const long recorder = recorderPid(runtime);
    ASSERT_GT(recorder, 0);
    ASSERT_TRUE(waitFor([&] { return lastRecorded(progress) >= 1000; }));
    ::kill(static_cast<pid_t>(recorder), SIGTERM);
    const std::int64_t atStop = lastRecorded(progress);
    // The job records on after the recorder stopped taking events, then is killed.
    ASSERT_TRUE(waitFor([&] { return lastRecorded(progress) >= atStop + 2000; }));
    ::kill(static_cast<pid_t>(std::stol(cs::test::readFile(pidFile))), SIGKILL);
    job.join();
    EXPECT_EQ(r.status, 128 + SIGKILL) << r.err;
    EXPECT_NE(r.err.find("stopped by a signal"), std::string::npos) << r.err;
    EXPECT_EQ(one(trace, "SELECT exit_status FROM sessions"), -SIGKILL) << "the job's end is stored";
    // Every counter the job recorded is in the trace or counted (at most one more: the call the
    // kill interrupted may have published its event before the progress file said so).
    const std::int64_t last = lastRecorded(progress), kept = one(trace, "SELECT count(*) FROM counters"),
                       lost = counted(trace);
    EXPECT_GT(lost, 0) << "what the job recorded after the stop is counted";
    EXPECT_GE(kept + lost, last + 1) << "kept " << kept << ", counted " << lost;
    EXPECT_LE(kept + lost, last + 2) << "kept " << kept << ", counted " << lost;
}

// The integer after `key=` in key=value text (-1 when absent).
std::int64_t valueOf(const std::string& text, const std::string& key) {
    const auto at = text.find(key + "=");
    return at == std::string::npos ? -1 : std::stoll(text.substr(at + key.size() + 1));
}

TEST(RecordingLosses, AWriteFailureIsCountedPerTableWithItsReasonAndTheJobCountsTheRest) {
    // Issue 40: with `ulimit -f` small, 42 of 400,000 spans survived, `info` said "nothing dropped"
    // and cs_dropped_count() stayed 0. The limit applies to the launcher, the recorder and the job.
    TempDir dir;
    const std::string trace = dir.file("t.cstrace");
    const JobRun r = run(dir, "bash -c 'ulimit -f 2048; COLLECTOR_JOB_PRINT_DROPS=1 " + kCli + " record -o " + trace +
                                  " -- " + kJob + " threads 2 400000'");
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string note = cs::test::readFile(trace + ".note");
    EXPECT_NE(note.find("write_failed=" + trace + ": "), std::string::npos) << note;
    EXPECT_NE(note.find("disk I/O error"), std::string::npos) << note;  // with the system's reason
    const std::int64_t notStored = valueOf(note, "not_stored.spans"), jobDropped = valueOf(r.out, "dropped");
    ASSERT_GE(notStored, 0) << note;
    EXPECT_GT(jobDropped, 0) << "the job's collector counts what it sends after the failure: " << r.out;
    const std::int64_t kept = one(trace, "SELECT count(*) FROM spans");
    EXPECT_EQ(kept + notStored + jobDropped, 800000) << "kept " << kept << ", not stored " << notStored << ", dropped "
                                                     << jobDropped;
    EXPECT_NE(r.err.find("events received were not stored (spans "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(trace + ".note"), std::string::npos) << r.err;
    // The counts went into the trace's own stats too, with the system's reason: the write-ahead log
    // takes a small transaction within the space it holds (issue 40). The note says so, and a
    // reader counts them once.
    EXPECT_NE(note.find("stored_in_trace=1"), std::string::npos) << note << r.err;
    EXPECT_EQ(one(trace, "SELECT sum(count) FROM stats WHERE name = 'dropped_write_failed' AND detail LIKE "
                         "'%disk I/O error: spans'"),
              notStored);
    EXPECT_NE(r.err.find("and the trace's stats"), std::string::npos) << r.err;
    // Refused unsealed, the trace is said to have hit a full disk (or a size limit), not guessed at.
    const JobRun refused = run(dir, kCli + " info " + trace);
    EXPECT_EQ(refused.status, 2) << refused.out;
    EXPECT_NE(refused.err.find("the disk was full, or a file size limit reached, while recording (cannot commit: "
                               "disk I/O error; what it could not store is counted in " + trace + ".note)"),
              std::string::npos)
        << refused.err;
    // Reading the trace counts the note's losses (the unfinished trace is read as its user trusts it).
    const JobRun info = run(dir, kCli + " info --trust-unsealed " + trace);
    EXPECT_EQ(info.out.find("nothing dropped"), std::string::npos) << info.out;
    EXPECT_NE(info.out.find("recorded events never reached the trace"), std::string::npos) << info.out;
    EXPECT_NE(info.out.find("dropped_write_failed"), std::string::npos) << info.out;
    // A new recording at the same path leaves no stale note behind.
    ASSERT_EQ(run(dir, kCli + " record -o " + trace + " -- " + kJob + " exit 0").status, 0);
    EXPECT_FALSE(std::filesystem::exists(trace + ".note"));
}

// A tmpfs of 4 MiB mounted for the test, unmounted at its end (mounting needs root, or is refused
// in a container without CAP_SYS_ADMIN: then the test skips, saying why).
struct SmallDisk {
    std::string path;
    bool mounted = false;
    explicit SmallDisk(const TempDir& dir) : path(dir.file("small")) {
        std::filesystem::create_directory(path);
        mounted = std::system(("mount -t tmpfs -o size=4m tmpfs " + path + " 2>/dev/null").c_str()) == 0;
    }
    ~SmallDisk() {
        if (mounted) (void)std::system(("umount " + path).c_str());
    }
};

TEST(RecordingLosses, ARealFullDiskIsNamedOnReadingAndNothingIsLostUncounted) {
    // Issue 40: on a full disk the trace was refused as "cut short, e.g. by an interrupted copy", and
    // the note that says why could not be written (no block left for a new file).
    TempDir dir;
    SmallDisk disk(dir);
    if (!disk.mounted) GTEST_SKIP() << "cannot mount a 4 MiB tmpfs here (needs root and CAP_SYS_ADMIN)";
    const std::string trace = disk.path + "/t.cstrace";
    const JobRun r = run(dir, "COLLECTOR_JOB_PRINT_DROPS=1 " + kCli + " record -o " + trace + " -- " + kJob +
                                  " threads 2 400000");
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string note = cs::test::readFile(trace + ".note");  // written over the room kept for it
    EXPECT_NE(note.find(": database or disk is full\n"), std::string::npos) << note << r.err;  // commit or insert
    EXPECT_NE(note.find("stored_in_trace=1"), std::string::npos) << note;
    const std::int64_t notStored = valueOf(note, "not_stored.spans"), jobDropped = valueOf(r.out, "dropped");
    const std::int64_t kept = one(trace, "SELECT count(*) FROM spans");
    EXPECT_EQ(kept + notStored + jobDropped, 800000) << "kept " << kept << ", not stored " << notStored << ", dropped "
                                                     << jobDropped;
    EXPECT_EQ(one(trace, "SELECT sum(count) FROM stats WHERE name = 'dropped_write_failed'"), notStored);
    const JobRun info = run(dir, kCli + " info " + trace);
    EXPECT_EQ(info.status, 2);
    EXPECT_NE(info.err.find("the disk was full while recording (cannot "), std::string::npos) << info.err;
    EXPECT_NE(info.err.find(": database or disk is full; what it could not store is counted in " + trace + ".note)"),
              std::string::npos)
        << info.err;
    EXPECT_EQ(info.err.find("interrupted copy"), std::string::npos) << info.err;
}

TEST(RecordingLosses, ThreadsPastTheArenaSlotsOfAProcessEndingWithExitAreCounted) {
    // Issue 40: 64 MiB rings leave 16 arena slots; the other threads record into private rings, which
    // _exit() takes with it (4,000 of 20,000 lost uncounted). A 1 s flush period keeps every event
    // unsent until the _exit, so the test sees the whole loss.
    TempDir dir;
    const std::string trace = dir.file("t.cstrace");
    JobRun r{};
    std::int64_t kept = 0, lost = 0;
    // Whether the burst is still unsent at the _exit depends on when the flusher last ran: every try
    // must account for all 24,001 spans; up to three tries to see the private rings' loss.
    for (int attempt = 0; attempt < 3 && lost == 0; ++attempt) {
        r = run(dir, "COMPILESCOPE_BUFFER_KB=65536 COMPILESCOPE_FLUSH_MS=1000 " + kCli + " record -o " + trace + " -- " +
                         kJob + " threads-exit 24 1000");
        ASSERT_EQ(r.status, 0) << r.err;
        kept = one(trace, "SELECT count(*) FROM spans");
        lost = counted(trace);
        EXPECT_EQ(kept + lost, 24001) << "kept " << kept << ", counted " << lost;
    }
    ASSERT_GT(lost, 0) << "8 of 24 threads had no arena slot";
    EXPECT_EQ(one(trace, "SELECT count(*) FROM stats WHERE name = 'lost_at_exit' AND detail LIKE '%beyond the arena%'"), 1);
    EXPECT_NE(r.err.find(" events dropped ("), std::string::npos) << r.err;
}

TEST(RecordingLosses, AChildThatOutlivesTheJobIsCountedOrWaitedFor) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    // As Collector.WorkersEndingWithUnderscoreExitKeepTheirEvents: the sanitizers' allocators can
    // deadlock the forked child of a multi-threaded process (test_collector.cpp, kForkUnderSanitizer).
    GTEST_SKIP() << "a fork of a multi-threaded process under a sanitizer";
#endif
    // Issue 40: a child recording after the job ended lost its events while its message said
    // "counted". A 1 s flush period keeps the child's spans in its ring when the recording finishes.
    TempDir dir;
    const std::string trace = dir.file("t.cstrace"), pidFile = dir.file("child.pid");
    JobRun r{};
    std::int64_t kept = 0, lost = 0;
    // Whether the spans are still buffered at the finish depends on when the child's flusher last
    // ran: each try must account for all 500; up to three tries to see some counted.
    for (int attempt = 0; attempt < 3 && lost == 0; ++attempt) {
        std::filesystem::remove(pidFile);
        r = run(dir, "COMPILESCOPE_FLUSH_MS=1000 " + kCli + " record --wait-children 0 -o " + trace + " -- " + kJob +
                         " outlive " + pidFile + " 500 1");
        ASSERT_EQ(r.status, 0) << r.err;
        ::kill(static_cast<pid_t>(std::stol(cs::test::readFile(pidFile))), SIGKILL);
        kept = one(trace, "SELECT count(*) FROM spans");
        lost = counted(trace);
        EXPECT_EQ(kept + lost, 500) << "kept " << kept << ", counted " << lost;
    }
    ASSERT_GT(lost, 0) << "the child's buffered spans are counted";
    EXPECT_NE(r.err.find("still buffered in processes that outlived the job"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("--wait-children"), std::string::npos) << r.err;

    // Waited for: the child records 500 more after the job ended and all 1,000 are kept.
    std::filesystem::remove(pidFile);
    r = run(dir, kCli + " record --wait-children 600 -o " + trace + " -- " + kJob + " outlive " + pidFile + " 500 0");
    ASSERT_EQ(r.status, 0) << r.err;
    kept = one(trace, "SELECT count(*) FROM spans");
    EXPECT_EQ(kept, 1000);
    EXPECT_EQ(counted(trace), 0);
    EXPECT_EQ(r.err.find("dropped"), std::string::npos) << r.err;
}

}  // namespace
