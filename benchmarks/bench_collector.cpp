// The collector's cost on the caller's thread and the recorder's end-to-end ingest, each measured
// beside its limit in the same run (docs/practices.md 16; scripts/bench_ratios.py prints figure / limit / ratio).
//
//   BM_DisabledMacro   a CS_SPAN_BEGIN site while recording is off (inline relaxed load + branch)
//   BM_DisabledCall    cs_span_complete() called while off (function call + relaxed load)
//   BM_EnabledEvent    cs_span_complete() while recording: p50 / p99 per event on the caller's thread
//   BM_EndToEndIngest  `compilescope record -- collector_job threads 1 N`: N spans through ring, socket,
//                      recorder and SQLite until all are committed (and, as a counter, until the
//                      trace is finalized, its WAL folded in); bytes per event on disk
//   BM_RawSqliteInsert the same N span rows inserted with one prepared statement in one transaction
//
// Per-event percentiles: a single event (~20 ns) is shorter than a clock read, so each timed sample
// is a batch of kBatch events; p50 / p99 are over the batches' per-event means. Batches during which
// the ring was full (events dropped) are not samples of the append path and are skipped (counted).
#define CS_ENABLED 1
#include <compilescope/compilescope.h>
#include <compilescope/compilescope_macros.h>

#include "raw_sqlite_spans.h"

#include <benchmark/benchmark.h>
#include <sqlite3.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <sys/resource.h>
#include <thread>
#include <vector>

namespace {
constexpr int kBatch = 16;
// A recording long enough (~4 s) that the ~60 ms of starting three processes and creating the
// schema is not a tenth of the figure, and that one slow moment of a shared machine is averaged out.
const std::int64_t kIngestEvents = 1 << 22;

// CPU seconds (user + system) used so far by this process (RUSAGE_SELF) or by its waited-for
// children and their waited-for children (RUSAGE_CHILDREN): the launcher, the recorder and the job.
double cpuSeconds(int who) {
    rusage u{};
    getrusage(who, &u);
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
}

std::string tmpPath(const std::string& name) { return (std::filesystem::temp_directory_path() / name).string(); }

// The binaries the end-to-end run uses: the build tree's, or BENCH_CLI / BENCH_JOB when the
// benchmark runs from a copy elsewhere.
std::string binary(const char* env, const char* built) {
    const char* e = std::getenv(env);
    return e && *e ? e : built;
}

void removeTrace(const std::string& p) {
    for (const char* s : {"", "-wal", "-shm"}) std::filesystem::remove(p + s);
}

void BM_DisabledMacro(benchmark::State& state) {
    for (auto _ : state) {
        CS_SPAN_BEGIN(CS_CAT_COMPILE, "disabled");
        benchmark::ClobberMemory();
    }
    state.counters["enabled"] = cs_enabled();
}
BENCHMARK(BM_DisabledMacro);

void BM_DisabledCall(benchmark::State& state) {
    for (auto _ : state) {
        cs_span_complete(CS_THREAD_TRACK, CS_CAT_COMPILE, 1, 1000, 10);
        benchmark::ClobberMemory();
    }
    state.counters["enabled"] = cs_enabled();
}
BENCHMARK(BM_DisabledCall);

void BM_EnabledEvent(benchmark::State& state) {
    static bool started = [] {
        const std::string trace = tmpPath("bench-collector-enabled.cstrace");
        removeTrace(trace);
        ::setenv("COMPILESCOPE_RECORDER", COMPILESCOPE_RECORDER_BIN, 0);
        ::setenv("COMPILESCOPE_BUFFER_KB", "65536", 0);  // room for many batches between flushes
        // A batch that meets a full ring is skipped (below); under the default wait policy the
        // wait would happen inside the timed batch and measure the recorder, not the hot path.
        ::setenv("COMPILESCOPE_BUFFER_POLICY", "drop", 0);
        return cs_start("bench", trace.c_str()) == 1;
    }();
    if (!started) {
        state.SkipWithError("cannot start recording (recorder not found?)");
        return;
    }
    const cs_str name = cs_intern("event");
    std::vector<double> perEvent;
    std::int64_t skipped = 0;
    for (auto _ : state) {
        const std::uint64_t droppedBefore = cs_dropped_count();
        auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < kBatch; ++i) cs_span_complete(CS_THREAD_TRACK, CS_CAT_COMPILE, name, 1000, 10);
        auto t1 = std::chrono::steady_clock::now();
        const double ns = std::chrono::duration<double, std::nano>(t1 - t0).count();
        state.SetIterationTime(ns * 1e-9 / kBatch);
        if (cs_dropped_count() != droppedBefore) {
            ++skipped;  // ring full: let the flusher catch up, outside the measurement
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
            continue;
        }
        perEvent.push_back(ns / kBatch);
    }
    if (perEvent.empty()) return;
    std::sort(perEvent.begin(), perEvent.end());
    auto pct = [&](double p) { return perEvent[static_cast<std::size_t>(p * static_cast<double>(perEvent.size() - 1))]; };
    state.counters["p50_ns"] = pct(0.50);
    state.counters["p99_ns"] = pct(0.99);
    state.counters["skipped_full_batches"] = static_cast<double>(skipped);
}
BENCHMARK(BM_EnabledEvent)->UseManualTime()->Iterations(200000);

// Largest span rowid committed so far (a WAL reader sees only committed rows); -1 while unreadable.
std::int64_t committedSpans(const std::string& trace) {
    sqlite3* db = nullptr;
    std::int64_t n = -1;
    if (sqlite3_open_v2(trace.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
        sqlite3_busy_timeout(db, 100);
        sqlite3_stmt* st = nullptr;
        if (sqlite3_prepare_v2(db, "SELECT coalesce(max(rowid), 0) FROM spans", -1, &st, nullptr) == SQLITE_OK &&
            sqlite3_step(st) == SQLITE_ROW)
            n = sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
    }
    sqlite3_close(db);
    return n;
}

// Two figures per run: until every event is committed and visible to a reader of the trace (the
// ingest rate; items/s), and until the recorder has also finalized the file (WAL
// folded in; counter finalized_events_per_s).
void BM_EndToEndIngest(benchmark::State& state) {
    const std::string trace = tmpPath("bench-collector-e2e.cstrace");
    const std::string cmd = "COMPILESCOPE_BUFFER_POLICY=block " + binary("BENCH_CLI", COMPILESCOPE_CLI_BIN) + " record -o " +
                            trace + " -- " + binary("BENCH_JOB", COLLECTOR_JOB_BIN) + " threads 1 " +
                            std::to_string(kIngestEvents) + " >/dev/null";
    double bytes = 0, finalizedSeconds = 0;
    const double cpu0 = cpuSeconds(RUSAGE_CHILDREN);
    for (auto _ : state) {
        removeTrace(trace);
        const auto t0 = std::chrono::steady_clock::now();
        std::atomic<bool> ended{false};
        std::thread recording([&] {
            if (std::system(cmd.c_str()) != 0) state.SkipWithError("compilescope record failed");
            ended = true;
        });
        while (!ended && committedSpans(trace) < kIngestEvents)
            std::this_thread::sleep_for(std::chrono::milliseconds(10));  // a poll opens the trace: ~0.2 ms
        const auto committed = std::chrono::steady_clock::now();
        recording.join();
        const auto finalized = std::chrono::steady_clock::now();
        state.SetIterationTime(std::chrono::duration<double>(committed - t0).count());
        finalizedSeconds += std::chrono::duration<double>(finalized - t0).count();
        if (state.error_occurred()) return;
        bytes = static_cast<double>(std::filesystem::file_size(trace));
    }
    if (committedSpans(trace) != kIngestEvents) state.SkipWithError("not every event arrived");
    state.SetItemsProcessed(state.iterations() * kIngestEvents);
    state.counters["bytes_per_event"] = bytes / static_cast<double>(kIngestEvents);
    // Load-independent efficiency: events per CPU-second of the whole pipeline (launcher, recorder
    // and job together, finalize included), to set beside raw SQLite's events per CPU-second.
    state.counters["cpu_events_per_s"] =
        static_cast<double>(state.iterations() * kIngestEvents) / (cpuSeconds(RUSAGE_CHILDREN) - cpu0);
    state.counters["finalized_events_per_s"] =
        static_cast<double>(state.iterations() * kIngestEvents) / finalizedSeconds;
    removeTrace(trace);
}
BENCHMARK(BM_EndToEndIngest)->Unit(benchmark::kMillisecond)->UseManualTime()->Iterations(3);

void BM_RawSqliteInsert(benchmark::State& state) {
    const std::string path = tmpPath("bench-collector-raw.db");
    const double cpu0 = cpuSeconds(RUSAGE_SELF);
    for (auto _ : state) cs::bench::insertRawSpans(path, kIngestEvents);
    state.SetItemsProcessed(state.iterations() * kIngestEvents);
    state.counters["cpu_events_per_s"] =
        static_cast<double>(state.iterations() * kIngestEvents) / (cpuSeconds(RUSAGE_SELF) - cpu0);
    removeTrace(path);
}
BENCHMARK(BM_RawSqliteInsert)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);
}  // namespace

BENCHMARK_MAIN();
