// The collector's cost on the caller's thread and the recorder's end-to-end ingest, each measured
// beside its limit in the same run (STYLE.md 16; scripts/bench_ratios.py prints figure / limit / ratio).
//
//   BM_DisabledMacro   a CS_SPAN_BEGIN site while recording is off (inline relaxed load + branch)
//   BM_DisabledCall    cs_span_complete() called while off (function call + relaxed load)
//   BM_EnabledEvent    cs_span_complete() while recording: p50 / p99 per event on the caller's thread
//   BM_EndToEndIngest  `compilescope record -- collector_job threads 1 N`: N spans through ring, socket,
//                      recorder and SQLite, until the trace is finalized; bytes per event on disk
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
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

namespace {
constexpr int kBatch = 16;
const std::int64_t kIngestEvents = 1 << 20;

std::string tmpPath(const std::string& name) { return (std::filesystem::temp_directory_path() / name).string(); }

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

void BM_EndToEndIngest(benchmark::State& state) {
    const std::string trace = tmpPath("bench-collector-e2e.cstrace");
    const std::string cmd = std::string("COMPILESCOPE_BUFFER_POLICY=block ") + COMPILESCOPE_CLI_BIN + " record -o " + trace +
                            " -- " + COLLECTOR_JOB_BIN + " threads 1 " + std::to_string(kIngestEvents) + " >/dev/null";
    double bytes = 0;
    for (auto _ : state) {
        removeTrace(trace);
        if (std::system(cmd.c_str()) != 0) {
            state.SkipWithError("compilescope record failed");
            return;
        }
        bytes = static_cast<double>(std::filesystem::file_size(trace));
    }
    // Check that every event arrived, outside the timed loop.
    sqlite3* db = nullptr;
    sqlite3_open(trace.c_str(), &db);
    sqlite3_stmt* st = nullptr;
    sqlite3_prepare_v2(db, "SELECT count(*) FROM spans", -1, &st, nullptr);
    const std::int64_t rows = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
    sqlite3_finalize(st);
    sqlite3_close(db);
    if (rows != kIngestEvents) state.SkipWithError("not every event arrived");
    state.SetItemsProcessed(state.iterations() * kIngestEvents);
    state.counters["bytes_per_event"] = bytes / static_cast<double>(kIngestEvents);
    removeTrace(trace);
}
BENCHMARK(BM_EndToEndIngest)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);

void BM_RawSqliteInsert(benchmark::State& state) {
    const std::string path = tmpPath("bench-collector-raw.db");
    for (auto _ : state) cs::bench::insertRawSpans(path, kIngestEvents);
    state.SetItemsProcessed(state.iterations() * kIngestEvents);
    removeTrace(path);
}
BENCHMARK(BM_RawSqliteInsert)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);
}  // namespace

BENCHMARK_MAIN();
