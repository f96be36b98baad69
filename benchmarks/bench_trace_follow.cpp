// Writer throughput with a live follower attached, beside the same writer alone, in the same run
// (issue 20: >= 90 %). The writer commits every 10,000 rows, as the recorder does under load; the
// follower polls every 250 ms (the GUI's default refresh), copying the new rows into its mirror
// (core/trace/trace_follower.h), at the lowered priority the GUI and `watch` follow with.
//
// Timed: the writer, from creating the trace to its last commit (every row visible to readers).
// Not timed: finalize, which must wait until the follower lets go of the file. Timing it made the
// writer's figure include the follower's last poll (over a second of catching up at 2M rows), which
// is the follower's lag, not the writer's throughput; the lag has a counter of its own.
// After the writer's last commit the follower polls once more; the run fails unless it then holds
// every row written. Counters: rows_copied_last_run (after that poll), rows_behind_at_commit (what
// the follower had not yet copied when the writer's last commit returned), follower_cpu_s.
//
// BM_FollowerCatchUp: one poll over a finished recording into a fresh mirror. A follower keeps up
// with a writer only while it copies faster than the writer writes (compare items_per_second).
#include "core/trace/trace_error.h"
#include "core/trace/trace_follower.h"
#include "core/trace/writer.h"

#include <compilescope/trace_constants.h>

#include <benchmark/benchmark.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <string>
#include <thread>

namespace {
std::string tmpPath(const char* name) { return (std::filesystem::temp_directory_path() / name).string(); }

void removeTrace(const std::string& p) {
    for (const char* s : {"", "-wal", "-shm", "-journal"}) std::filesystem::remove(p + s);
}

double threadCpuSeconds() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) / 1e9;
}

constexpr std::int64_t kRows = 2'000'000;
constexpr std::int64_t kRowsPerCommit = 10'000;
// Rows of the tables the writer changes in place (one session, one track): the follower re-reads
// those whole and does not count them among the appended rows.
constexpr std::int64_t kSmallTableRows = 2;

// One session, one track, 16 interned names; returns the track.
std::int64_t startTrace(cs::trace::TraceWriter& w, cs::trace::StringId (&names)[16]) {
    auto track = w.addTrack({.sessionId = w.addSession({.startNs = 0})});
    for (int i = 0; i < 16; ++i) names[i] = w.intern("kernel_" + std::to_string(i));
    return track;
}

void addSpan(cs::trace::TraceWriter& w, std::int64_t track, const cs::trace::StringId (&names)[16], std::int64_t i) {
    w.addSpan({.trackId = track, .startNs = i * 1000, .durNs = 500, .category = CS_CAT_COMPILE, .name = names[i & 15]});
}

// A poll that fails (the recording mid-checkpoint) is retried at the next one, as the GUI and
// `watch` do.
bool pollOnce(cs::trace::TraceFollower& f, std::int64_t& failed) {
    try {
        f.poll();
        return true;
    } catch (const cs::trace::TraceError&) {
        ++failed;
        return false;
    }
}

void writeWithOptionalFollower(benchmark::State& state, bool follow) {
    const std::string path = tmpPath(follow ? "bench-follow-w.cstrace" : "bench-alone-w.cstrace");
    // BENCH_MIRROR_DIR=/dev/shm puts the mirror in memory, to tell disk contention from CPU contention.
    const char* mirrorDir = std::getenv("BENCH_MIRROR_DIR");
    const std::string mirror = mirrorDir ? std::string(mirrorDir) + "/bench-follow-mirror.cstrace" : tmpPath("bench-follow-mirror.cstrace");
    std::int64_t copied = 0, behind = 0, failedPolls = 0;
    double followerCpu = 0;
    for (auto _ : state) {
        removeTrace(path);
        const auto start = std::chrono::steady_clock::now();
        cs::trace::TraceWriter w(path);
        cs::trace::StringId names[16];
        const std::int64_t track = startTrace(w, names);
        w.commit();
        std::atomic<bool> done{false};
        std::atomic<std::int64_t> copiedSoFar{0};
        std::thread follower;
        if (follow)
            follower = std::thread([&] {
                cs::trace::yieldToRecorder();  // as the GUI's loader and `watch` do
                const double cpu0 = threadCpuSeconds();
                cs::trace::TraceFollower f(path, mirror);
                while (!done.load()) {
                    pollOnce(f, failedPolls);
                    copiedSoFar = f.totalAppendedRowsRead();
                    for (int i = 0; i < 25 && !done.load(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
                }
                // Everything is committed now: one poll that succeeds copies the rest.
                for (int i = 0; i < 10 && !pollOnce(f, failedPolls); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
                copied = f.totalAppendedRowsRead();
                followerCpu += threadCpuSeconds() - cpu0;
            });
        for (std::int64_t i = 0; i < kRows; ++i) {
            addSpan(w, track, names, i);
            if ((i + 1) % kRowsPerCommit == 0) w.requestCommit();
        }
        w.commit();
        state.SetIterationTime(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        const std::int64_t written = w.rowsWritten() - kSmallTableRows;
        behind = written - copiedSoFar.load();
        done = true;
        if (follower.joinable()) follower.join();  // finalize leaves WAL mode: no reader may be open
        if (follow && copied != written) {
            state.SkipWithError("the follower did not copy every row written");
            break;
        }
        w.finalize();
    }
    state.SetItemsProcessed(state.iterations() * kRows);
    if (follow) {
        state.counters["rows_copied_last_run"] = static_cast<double>(copied);
        state.counters["rows_behind_at_commit"] = static_cast<double>(behind);
        state.counters["follower_cpu_s"] = followerCpu / static_cast<double>(state.iterations());
        state.counters["polls_failed"] = static_cast<double>(failedPolls);
    }
    removeTrace(path);
    removeTrace(mirror);
}

void BM_FollowerCatchUp(benchmark::State& state) {
    const std::string path = tmpPath("bench-catchup.cstrace");
    const std::string mirror = tmpPath("bench-catchup-mirror.cstrace");
    removeTrace(path);
    {
        cs::trace::TraceWriter w(path);
        cs::trace::StringId names[16];
        const std::int64_t track = startTrace(w, names);
        for (std::int64_t i = 0; i < kRows; ++i) addSpan(w, track, names, i);
        w.finalize();
    }
    std::int64_t copied = 0;
    for (auto _ : state) {
        cs::trace::TraceFollower f(path, mirror);
        copied = f.poll().appendedRowsRead;
    }
    state.SetItemsProcessed(state.iterations() * copied);
    removeTrace(path);
    cs::trace::TraceFollower::removeMirror(mirror);
}

void BM_WriterAlone(benchmark::State& state) { writeWithOptionalFollower(state, false); }
void BM_WriterWithFollower(benchmark::State& state) { writeWithOptionalFollower(state, true); }
BENCHMARK(BM_FollowerCatchUp)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);
// Interleaved, alone first: both see the same machine state within the run.
BENCHMARK(BM_WriterAlone)->Unit(benchmark::kMillisecond)->UseManualTime()->Iterations(3);
BENCHMARK(BM_WriterWithFollower)->Unit(benchmark::kMillisecond)->UseManualTime()->Iterations(3);
}  // namespace

BENCHMARK_MAIN();
