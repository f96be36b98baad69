// The collector, the recorder and `compilescope record`, through the real binaries and real traces.
//
// Each test runs collector_job (a C program using compilescope.h) under the launcher or with its own
// recorder and then reads the trace with SQLite, so what is checked is what a user would see.
#include "test_util.h"

#include "core/trace/live_registry.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <chrono>
#include <csignal>
#include <ctime>
#include <cstring>
#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace {

using cs::test::TempDir;

const std::string kCli = COMPILESCOPE_CLI;
const std::string kJob = COLLECTOR_JOB;

struct Run {
    int status;
    std::string out, err;
};

// Runs `env... command` through the shell, capturing stdout and stderr.
Run run(const TempDir& dir, const std::string& command) {
    const std::string out = dir.file("stdout.txt"), err = dir.file("stderr.txt");
    int st = std::system((command + " >" + out + " 2>" + err).c_str());
    return {WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st), cs::test::readFile(out), cs::test::readFile(err)};
}

// Why fork tests are skipped under a sanitizer (non-null: skip).
#if defined(__SANITIZE_THREAD__)
// ThreadSanitizer cannot start threads in the child of a multi-threaded fork ("not supported"); the
// fork path is tested in the dev and asan presets.
const char* const kForkUnderSanitizer = "ThreadSanitizer does not support new threads after a multi-threaded fork";
#elif defined(__SANITIZE_ADDRESS__)
// GCC 12's AddressSanitizer allocator has no fork handlers: a lock one of the parent's threads held
// at fork() stays held in the child, whose restarted flusher then waits on it forever (seen as a
// timeout about one run in five; glibc's malloc, which real jobs use, is fork-safe).
const char* const kForkUnderSanitizer =
    "AddressSanitizer's allocator (GCC 12) can deadlock a forked child of a multi-threaded process";
#else
const char* const kForkUnderSanitizer = nullptr;
#endif

// `env... compilescope record -o TRACE -- collector_job ARGS`.
Run recordJob(const TempDir& dir, const std::string& trace, const std::string& jobArgs, const std::string& env = "") {
    return run(dir, env + (env.empty() ? "" : " ") + kCli + " record -o " + trace + " -- " + kJob + " " + jobArgs);
}

// A one-column integer or text query on a trace.
class Db {
public:
    explicit Db(const std::string& path) {
        EXPECT_EQ(sqlite3_open_v2(path.c_str(), &m_db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
        sqlite3_busy_timeout(m_db, 5000);
    }
    ~Db() { sqlite3_close(m_db); }
    std::vector<std::string> col(const std::string& sql) {
        std::vector<std::string> rows;
        sqlite3_stmt* st = nullptr;
        EXPECT_EQ(sqlite3_prepare_v2(m_db, sql.c_str(), -1, &st, nullptr), SQLITE_OK) << sql << ": " << sqlite3_errmsg(m_db);
        while (st && sqlite3_step(st) == SQLITE_ROW) {
            auto* t = sqlite3_column_text(st, 0);
            rows.push_back(t ? reinterpret_cast<const char*>(t) : "NULL");
        }
        sqlite3_finalize(st);
        return rows;
    }
    std::int64_t one(const std::string& sql) {
        auto r = col(sql);
        return r.empty() || r[0] == "NULL" ? -1 : std::stoll(r[0]);
    }

private:
    sqlite3* m_db = nullptr;
};

int countLines(const std::string& text, const std::string& prefix) {
    int n = 0;
    std::size_t pos = 0;
    while (pos < text.size()) {
        std::size_t nl = text.find('\n', pos);
        if (text.compare(pos, prefix.size(), prefix) == 0) ++n;
        if (nl == std::string::npos) break;
        pos = nl + 1;
    }
    return n;
}

TEST(Collector, EightThreadsTimesHundredThousandArriveExactly) {
    TempDir dir;
    const auto trace = dir.file("t.cstrace");
    auto r = run(dir, "COMPILESCOPE_BUFFER_POLICY=block COLLECTOR_JOB_PRINT_DROPS=1 " + kCli + " record -o " + trace +
                          " -- " + kJob + " threads 8 100000");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, "dropped=0\n");
    Db db(trace);
    EXPECT_EQ(db.one("SELECT count(*) FROM spans"), 800000);
    auto perThread = db.col("SELECT count(*) FROM spans s JOIN tracks t ON t.id = s.track_id WHERE t.kind = 0 "
                            "GROUP BY t.id");
    EXPECT_EQ(perThread, std::vector<std::string>(8, "100000"));
    EXPECT_EQ(db.one("SELECT count(*) FROM stats"), 0);
    EXPECT_EQ(db.one("SELECT count(*) FROM sessions WHERE end_ns IS NOT NULL AND exit_status = 0"), 1);
}

TEST(Collector, DefaultSettingsHoldABurstOfEightThreadsTimesTwoHundredThousand) {
    // Issue 14: with the old default (drop when a 256 KiB ring is full) 97 % of this burst was lost.
    TempDir dir;
    const auto trace = dir.file("t.cstrace");
    auto r = recordJob(dir, trace, "threads 8 200000", "COLLECTOR_JOB_PRINT_DROPS=1");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, "dropped=0\n");
    EXPECT_EQ(countLines(r.err, "compilescope"), 0) << r.err;  // nothing lost, so no loss line
    Db db(trace);
    EXPECT_EQ(db.one("SELECT count(*) FROM spans"), 1600000);
    EXPECT_EQ(db.one("SELECT count(*) FROM stats WHERE name LIKE 'dropped%'"), 0);
}

TEST(Collector, DropPolicyCountsEveryLostEventAndRecordSaysSo) {
    TempDir dir;
    const auto trace = dir.file("t.cstrace");
    auto r = recordJob(dir, trace, "threads 8 100000",
                       "COMPILESCOPE_BUFFER_POLICY=drop COMPILESCOPE_BUFFER_KB=16 COLLECTOR_JOB_PRINT_DROPS=1");
    ASSERT_EQ(r.status, 0) << r.err;
    Db db(trace);
    const auto arrived = db.one("SELECT count(*) FROM spans");
    const auto dropped = db.one("SELECT coalesce(sum(count), 0) FROM stats WHERE name = 'dropped_buffer_full'");
    ASSERT_GT(dropped, 0) << "16 KiB rings that never wait must overflow under 8 x 100k events";
    EXPECT_EQ(arrived + dropped, 800000) << "arrived " << arrived << ", dropped " << dropped;
    EXPECT_EQ(r.out, "dropped=" + std::to_string(dropped) + "\n");
    // One line at the end says how many, why and what to set.
    ASSERT_EQ(countLines(r.err, "compilescope: "), 1) << r.err;
    std::string count = std::to_string(dropped);
    for (int i = static_cast<int>(count.size()) - 3; i > 0; i -= 3) count.insert(static_cast<std::size_t>(i), ",");
    EXPECT_NE(r.err.find("compilescope: " + count + " events dropped (buffer full: " + count + " in 1 process)"),
              std::string::npos) << r.err;
    EXPECT_NE(r.err.find("COMPILESCOPE_BUFFER_POLICY=block"), std::string::npos) << r.err;
}

TEST(Collector, WorkersEndingWithUnderscoreExitKeepTheirEvents) {
    if (kForkUnderSanitizer) GTEST_SKIP() << kForkUnderSanitizer;
    // 200 forked workers record 1,000 events each and _exit(): no flusher runs after their last
    // event, so what reaches the trace comes from their arenas (docs/collector.md, crash safety).
    TempDir dir;
    const auto trace = dir.file("t.cstrace");
    auto r = recordJob(dir, trace, "workers 200 1000");
    EXPECT_EQ(countLines(r.err, "compilescope"), 0) << r.err;  // nothing lost, so no loss line
    ASSERT_EQ(r.status, 0) << r.err;
    Db db(trace);
    EXPECT_EQ(db.one("SELECT count(*) FROM sessions"), 201);
    EXPECT_EQ(db.one("SELECT count(*) FROM spans"), 201000);
    auto perSession = db.col("SELECT count(*) FROM spans s JOIN tracks t ON t.id = s.track_id GROUP BY t.session_id");
    EXPECT_EQ(perSession, std::vector<std::string>(201, "1000"));
    EXPECT_EQ(db.one("SELECT count(*) FROM sessions WHERE parent_session_id = 1"), 200);
    EXPECT_EQ(db.one("SELECT count(*) FROM stats WHERE name LIKE 'dropped%' OR name = 'lost_at_exit'"), 0);
}

TEST(Collector, ForkAndExecChildrenAreTheirOwnSessions) {
    if (kForkUnderSanitizer) GTEST_SKIP() << kForkUnderSanitizer;
    TempDir dir;
    const auto trace = dir.file("t.cstrace");
    auto r = recordJob(dir, trace, "family");
    ASSERT_EQ(r.status, 0) << r.err;
    Db db(trace);
    EXPECT_EQ(db.one("SELECT count(*) FROM sessions"), 3);
    // Parent first; both children point at it, and every session ended normally.
    EXPECT_EQ(db.one("SELECT count(*) FROM sessions WHERE parent_session_id = 1 AND ppid = "
                     "(SELECT pid FROM sessions WHERE id = 1)"), 2);
    EXPECT_EQ(db.one("SELECT count(*) FROM sessions WHERE end_ns IS NULL"), 0);
    auto spans = db.col("SELECT n.str || ':' || count(*) FROM spans s JOIN strings n ON n.id = s.name_sid "
                        "GROUP BY n.str ORDER BY n.str");
    EXPECT_EQ(spans, (std::vector<std::string>{"exec-child:10", "forked-child:10", "parent:10", "parent-after:10"}));
    // Each child's spans are on its own session's tracks.
    EXPECT_EQ(db.one("SELECT count(DISTINCT t.session_id) FROM spans s JOIN tracks t ON t.id = s.track_id"), 3);
    // The exec'd child's session carries its own command line. (Which child connects first, and so
    // gets session 2, is up to the scheduler.)
    auto cmd = db.col("SELECT c.str FROM sessions s JOIN strings c ON c.id = s.cmdline_sid JOIN tracks t ON "
                      "t.session_id = s.id JOIN spans sp ON sp.track_id = t.id JOIN strings n ON n.id = sp.name_sid "
                      "WHERE n.str = 'exec-child' GROUP BY s.id");
    ASSERT_EQ(cmd.size(), 1u);
    EXPECT_NE(cmd[0].find(" child"), std::string::npos);
}

TEST(Collector, EveryRecordTypeArrivesWithItsFields) {
    TempDir dir;
    const auto trace = dir.file("t.cstrace");
    // No launcher: the process starts its own recorder from COMPILESCOPE_OUTPUT.
    const std::string runtime = dir.file("xdg");
    std::filesystem::create_directories(runtime);
    auto r = run(dir, "XDG_RUNTIME_DIR=" + runtime + " COMPILESCOPE_OUTPUT=" + trace + " " + kJob + " every");
    ASSERT_EQ(r.status, 0) << r.err;
    // The private recorder finalizes once the job's connection closed, then leaves the registry.
    bool done = false;
    for (int i = 0; i < 500 && !done; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        done = cs::trace::listLiveRecordings(runtime + "/compilescope").empty();
    }
    ASSERT_TRUE(done) << "the private recorder did not finish";
    Db db(trace);
    EXPECT_EQ(db.col("SELECT str FROM strings WHERE id = (SELECT runtime_sid FROM sessions)"),
              std::vector<std::string>{"test-job"});
    EXPECT_EQ(db.one("SELECT count(*) FROM spans"), 5);
    EXPECT_EQ(db.one("SELECT count(*) FROM spans WHERE dur_ns IS NULL"), 1);  // begun, never ended
    EXPECT_EQ(db.col("SELECT n.str FROM spans s JOIN strings n ON n.id = s.name_sid WHERE s.category = 6"),
              std::vector<std::string>{"macro-span"});
    EXPECT_EQ(db.col("SELECT value FROM span_args ORDER BY value"), (std::vector<std::string>{"42", "c"}));
    EXPECT_EQ(db.col("SELECT n.str FROM tracks t JOIN strings n ON n.id = t.name_sid WHERE t.kind = 3 AND t.tid = 7"),
              std::vector<std::string>{"lane"});
    EXPECT_EQ(db.col("SELECT verdict || ',' || compile_ns || ',' || step FROM cache_lookups"),
              std::vector<std::string>{"2,1000,1"});
    EXPECT_EQ(db.col("SELECT n.str || ',' || role || ',' || coalesce(d.str, '-') || ',' || v.str FROM key_components k "
                     "JOIN strings n ON n.id = k.name_sid LEFT JOIN strings d ON d.id = k.digest_sid "
                     "JOIN strings v ON v.id = k.value_sid ORDER BY ordinal"),
              (std::vector<std::string>{"a,3,b,c", "b,6,-,c"}));
    EXPECT_EQ(db.col("SELECT m.str || ',' || coalesce(world, 'none') FROM closures c JOIN strings m ON m.id = c.method_sid"),
              (std::vector<std::string>{"c,12", "b,none"}));
    EXPECT_EQ(db.col("SELECT step FROM steps ORDER BY step"), (std::vector<std::string>{"1", "2"}));
    EXPECT_EQ(db.one("SELECT count(*) FROM counters"), 2);
    EXPECT_EQ(db.col("SELECT event || ',' || line || ',' || world FROM methods"), std::vector<std::string>{"1,12,33"});
    EXPECT_EQ(db.col("SELECT t.str FROM invalidation_items i JOIN strings t ON t.id = i.text_sid"),
              std::vector<std::string>{"jl_method_table_insert"});
    EXPECT_EQ(db.col("SELECT block_dim || ',' || result || ',' || compile_ns FROM module_loads"),
              std::vector<std::string>{"256,1,50"});
    EXPECT_EQ(db.one("SELECT count(*) FROM module_options"), 1);
    EXPECT_EQ(db.col("SELECT coalesce(g.str, '-') FROM module_kernels k LEFT JOIN strings g ON g.id = k.generic_sid "
                     "ORDER BY k.rowid"),
              (std::vector<std::string>{"-", "a"}));
    EXPECT_EQ(db.col("SELECT api || ',' || result || ',' || output_bytes FROM cuda_programs"),
              std::vector<std::string>{"1,0,77"});
    EXPECT_EQ(db.one("SELECT count(*) FROM cuda_program_options"), 2);
    EXPECT_EQ(db.one("SELECT bytes FROM cuda_program_inputs"), 99);
    EXPECT_EQ(db.col("SELECT coalesce(start_ns, 'none') || ',' || operation || ',' || cache_bytes FROM cuda_jit"),
              std::vector<std::string>{"none,1,1024"});
    EXPECT_EQ(db.one("SELECT cubin_bytes FROM cuda_modules"), 4096);
    EXPECT_EQ(db.col("SELECT grid_x || grid_y || grid_z || block_x || block_y || block_z FROM kernel_launches"),
              std::vector<std::string>{"123456"});
    EXPECT_EQ(db.col("SELECT tool || ',' || dur_ns FROM phase_timings"), std::vector<std::string>{"2,17"});
    EXPECT_EQ(db.one("SELECT count(*) FROM stats"), 0);
}

TEST(Collector, UnwritableOutputKeepsExitStatusAndWarnsOnce) {
    TempDir dir;
    auto r = run(dir, kCli + " record -o /nonexistent-dir/x.cstrace -- " + kJob + " exit 3");
    EXPECT_EQ(r.status, 3);
    EXPECT_EQ(countLines(r.err, "compilescope"), 1) << r.err;
    EXPECT_NE(r.err.find("/nonexistent-dir/x.cstrace"), std::string::npos) << r.err;
    // Same without the launcher: the job's own recorder cannot create the file.
    r = run(dir, "COMPILESCOPE_OUTPUT=/nonexistent-dir/y.cstrace COLLECTOR_JOB_PRINT_DROPS=1 " + kJob + " exit 4");
    EXPECT_EQ(r.status, 4);
    EXPECT_EQ(countLines(r.err, "compilescope"), 1) << r.err;
    EXPECT_EQ(r.out, "dropped=5\n");  // the job's 5 events, counted
}

TEST(Collector, FullDiskKeepsExitStatusWarnsOnceAndKeepsACleanTrace) {
    // A file size limit (RLIMIT_FSIZE, set by `ulimit -f` for the launcher, the recorder and the
    // job) makes the trace's writes fail with EFBIG, as a full disk does with ENOSPC.
    TempDir dir;
    const auto trace = dir.file("t.cstrace");
    auto r = run(dir, "ulimit -f 2048; " + kCli + " record -o " + trace + " -- sh -c '" + kJob +
                          " threads 2 400000 && exit 7'");
    EXPECT_EQ(r.status, 7) << r.err;  // the job's own status
    // One line from the recorder (the reason and what it cost, issue 40) and one from the job's
    // collector, whose socket the recorder shut so that it counts what it cannot send.
    EXPECT_EQ(countLines(r.err, "compilescope-recorder: "), 1) << r.err;
    EXPECT_EQ(countLines(r.err, "compilescope: lost the connection to the recorder"), 1) << r.err;
    EXPECT_EQ(countLines(r.err, "compilescope"), 2) << r.err;
    EXPECT_NE(r.err.find(trace), std::string::npos) << r.err;
    // What was committed before the disk filled is a trace that opens and passes integrity_check.
    Db db(trace);
    EXPECT_EQ(db.col("PRAGMA integrity_check"), std::vector<std::string>{"ok"});
    EXPECT_LT(db.one("SELECT count(*) FROM spans"), 800000);
}

TEST(Collector, MissingRecorderKeepsExitStatusAndWarnsOnce) {
    TempDir dir;
    auto r = run(dir, "COMPILESCOPE_RECORDER=/nonexistent/recorder COMPILESCOPE_OUTPUT=" + dir.file("t.cstrace") +
                          " " + kJob + " exit 5");
    EXPECT_EQ(r.status, 5);
    EXPECT_EQ(countLines(r.err, "compilescope"), 1) << r.err;
    // A socket nobody listens on.
    r = run(dir, "COMPILESCOPE_SOCKET=" + dir.file("none.sock") + " " + kJob + " exit 6");
    EXPECT_EQ(r.status, 6);
    EXPECT_EQ(countLines(r.err, "compilescope"), 1) << r.err;
}

TEST(Collector, KilledJobLeavesAnUnfinishedSession) {
    TempDir dir;
    const auto trace = dir.file("t.cstrace");
    // The shell records the job's pid so the test can kill -9 exactly that process.
    const std::string pidFile = dir.file("pid");
    auto r = run(dir, kCli + " record -o " + trace + " -- sh -c 'echo $$ > " + pidFile + "; exec " + kJob + " steady " +
                          dir.file("progress") + " 10 0' & for i in $(seq 100); do [ -s " + pidFile +
                          " ] && break; sleep 0.05; done; sleep 0.3; kill -9 $(cat " + pidFile + "); wait");
    EXPECT_EQ(r.status, 0) << r.err;
    Db db(trace);
    EXPECT_EQ(db.one("SELECT count(*) FROM sessions WHERE end_ns IS NULL"), 1);
    EXPECT_EQ(db.one("SELECT exit_status FROM sessions"), -9) << "the session names the signal that ended it";
    // Nothing the job recorded before the kill is missing: its rings were read from its arena.
    const std::string progress = cs::test::readFile(dir.file("progress"));
    ASSERT_GE(progress.size(), 8u);
    std::int64_t last = 0;
    std::memcpy(&last, progress.data(), sizeof last);
    EXPECT_GE(db.one("SELECT count(*) FROM counters"), last + 1);
    EXPECT_EQ(db.col("PRAGMA integrity_check"), std::vector<std::string>{"ok"});
}

TEST(LiveRegistry, ListsARunningRecordingAndForgetsItAfterwards) {
    TempDir dir;
    const std::string runtime = dir.file("xdg");
    std::filesystem::create_directories(runtime);
    ::setenv("XDG_RUNTIME_DIR", runtime.c_str(), 1);
    const std::string regDir = cs::trace::liveRegistryDir();
    EXPECT_EQ(regDir, runtime + "/compilescope");
    struct stat st{};
    ASSERT_EQ(::stat(regDir.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0700u);

    const auto trace = dir.file("live.cstrace");
    std::thread job([&] {
        run(dir, "XDG_RUNTIME_DIR=" + runtime + " " + kCli + " record -o " + trace + " -- " + kJob + " steady " +
                     dir.file("progress") + " 1 1500");
    });
    std::vector<cs::trace::LiveRecording> live;
    for (int i = 0; i < 200 && live.empty(); ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        live = cs::trace::listLiveRecordings(regDir);
    }
    ASSERT_EQ(live.size(), 1u);
    EXPECT_EQ(live[0].trace, trace);
    EXPECT_NE(live[0].command.find("steady"), std::string::npos);
    EXPECT_GT(live[0].startUnixNs, 0);
    job.join();
    EXPECT_TRUE(cs::trace::listLiveRecordings(regDir).empty());

    // A stale entry (dead pid) is ignored and cleaned up; a malformed one is skipped.
    cs::test::writeFile(regDir + "/999999999.live", "pid=999999999\ntrace=/x.cstrace\n");
    cs::test::writeFile(regDir + "/junk.live", "no equals sign here\n");
    EXPECT_TRUE(cs::trace::listLiveRecordings(regDir).empty());
    EXPECT_FALSE(std::filesystem::exists(regDir + "/999999999.live"));
    ::unsetenv("XDG_RUNTIME_DIR");
}

}  // namespace

// `compilescope watch` follows a live recording: the recompile at step 2 is printed while the job is
// still running (it waits 4 s after it, then writes its done file), and when the job ends watch
// prints the verdict and exits as `check` does (1: a recompile after the first step).
TEST(Watch, PrintsARecompileWhileTheJobRunsThenTheVerdict) {
    TempDir dir;
    const std::string trace = dir.file("live.cstrace"), done = dir.file("job.done");
    ASSERT_EQ(std::system((kCli + " record -o " + trace + " -- " + kJob + " recompiles " + done + " 4000 >" +
                           dir.file("record.out") + " 2>&1 &")
                              .c_str()),
              0);
    bool live = false;
    for (int i = 0; i < 400 && !live; ++i) {
        live = run(dir, kCli + " record --list").out.find(trace) != std::string::npos;
        if (!live) ::usleep(50000);
    }
    ASSERT_TRUE(live) << "the recording did not register";
    FILE* p = ::popen((kCli + " watch " + trace + " --interval 100 2>/dev/null").c_str(), "r");
    ASSERT_NE(p, nullptr);
    std::string all;
    bool recompileSeen = false, jobWasRunning = false;
    std::int64_t printedNs = 0;
    char buf[4096];
    while (std::fgets(buf, sizeof buf, p)) {
        std::string line = buf;
        all += line;
        if (!recompileSeen && line.find("gradient") != std::string::npos && line.rfind("[", 0) == 0) {
            recompileSeen = true;
            jobWasRunning = !std::filesystem::exists(done);
            timespec now{};
            clock_gettime(CLOCK_MONOTONIC, &now);
            printedNs = static_cast<std::int64_t>(now.tv_sec) * 1000000000LL + now.tv_nsec;
        }
    }
    int st = ::pclose(p);
    ASSERT_TRUE(recompileSeen) << all;
    EXPECT_TRUE(jobWasRunning) << "the finding came only after the job ended:\n" << all;
    // Within 1 s of the recompile leaving the job (so within 1 s of its commit, which comes after).
    const std::int64_t flushedNs = std::stoll(cs::test::readFile(done + ".flushed"));
    const std::int64_t limitNs = cs::test::kSanitizerBuild ? 5000000000LL : 1000000000LL;
    EXPECT_LT(printedNs - flushedNs, limitNs) << "printed " << (printedNs - flushedNs) / 1000000 << " ms after the flush";
    std::printf("[ measure ] recompile printed %lld ms after the job flushed it\n", static_cast<long long>((printedNs - flushedNs) / 1000000));
    EXPECT_NE(all.find("100x64"), std::string::npos) << "the line names what moved:\n" << all;
    EXPECT_NE(all.find("job ended: acceptance fail"), std::string::npos) << all;
    EXPECT_EQ(WIFEXITED(st) ? WEXITSTATUS(st) : -1, 1);
    EXPECT_TRUE(std::filesystem::exists(done));
    // A finished trace: analysed once, same verdict and exit status; --json for tools.
    auto again = run(dir, kCli + " watch " + trace + " --json");
    EXPECT_EQ(again.status, 1);
    EXPECT_NE(again.out.find("{\"event\":\"end\",\"acceptance\":\"fail\""), std::string::npos) << again.out;
    auto none = run(dir, kCli + " watch --pid 999999999");
    EXPECT_EQ(none.status, 2);
    EXPECT_NE(none.err.find("no recording in progress with recorder pid 999999999 (looked in "), std::string::npos) << none.err;
}
