// Writer throughput with a live follower attached, beside the same writer alone, in the same run
// (issue 20: >= 90 %). The writer commits every 10,000 rows, as the recorder does under load; the
// follower polls every 250 ms (the GUI's default refresh), copying the new rows into its mirror
// (core/trace/trace_follower.h), at the lowered priority the GUI and `watch` follow with. Counter: rows
// the follower copied, to show it kept up.
#include "core/trace/trace_follower.h"
#include "core/trace/writer.h"

#include <compilescope/trace_constants.h>

#include <benchmark/benchmark.h>

#include <atomic>
#include <cstdlib>
#include <chrono>
#include <filesystem>
#include <string>
#include <thread>

namespace {
std::string tmpPath(const char* name) { return (std::filesystem::temp_directory_path() / name).string(); }

void removeTrace(const std::string& p) {
    for (const char* s : {"", "-wal", "-shm", "-journal"}) std::filesystem::remove(p + s);
}

constexpr std::int64_t kRows = 2'000'000;
constexpr std::int64_t kRowsPerCommit = 10'000;

void writeWithOptionalFollower(benchmark::State& state, bool follow) {
    const std::string path = tmpPath(follow ? "bench-follow-w.cstrace" : "bench-alone-w.cstrace");
    // BENCH_MIRROR_DIR=/dev/shm puts the mirror in memory, to tell disk contention from CPU contention.
    const char* mirrorDir = std::getenv("BENCH_MIRROR_DIR");
    const std::string mirror = mirrorDir ? std::string(mirrorDir) + "/bench-follow-mirror.cstrace" : tmpPath("bench-follow-mirror.cstrace");
    std::int64_t copied = 0;
    for (auto _ : state) {
        removeTrace(path);
        cs::trace::TraceWriter w(path);
        auto sess = w.addSession({.startNs = 0});
        auto track = w.addTrack({.sessionId = sess});
        cs::trace::StringId names[16];
        for (int i = 0; i < 16; ++i) names[i] = w.intern("kernel_" + std::to_string(i));
        w.commit();
        std::atomic<bool> done{false};
        std::thread follower;
        if (follow)
            follower = std::thread([&] {
                cs::trace::yieldToRecorder();  // as the GUI's loader and `watch` do
                cs::trace::TraceFollower f(path, mirror);
                while (!done.load()) {
                    f.poll();
                    for (int i = 0; i < 25 && !done.load(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
                }
                copied = f.totalAppendedRowsRead();
            });
        for (std::int64_t i = 0; i < kRows; ++i) {
            w.addSpan({.trackId = track, .startNs = i * 1000, .durNs = 500, .category = CS_CAT_COMPILE, .name = names[i & 15]});
            if ((i + 1) % kRowsPerCommit == 0) w.requestCommit();
        }
        w.commit();
        done = true;
        if (follower.joinable()) follower.join();  // finalize leaves WAL mode: no reader may be open
        w.finalize();
    }
    state.SetItemsProcessed(state.iterations() * kRows);
    if (follow) state.counters["rows_copied_last_run"] = static_cast<double>(copied);
    removeTrace(path);
    removeTrace(mirror);
}

void BM_WriterAlone(benchmark::State& state) { writeWithOptionalFollower(state, false); }
void BM_WriterWithFollower(benchmark::State& state) { writeWithOptionalFollower(state, true); }
// Interleaved, alone first: both see the same machine state within the run.
BENCHMARK(BM_WriterAlone)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);
BENCHMARK(BM_WriterWithFollower)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);
}  // namespace

BENCHMARK_MAIN();
