// A whole build's import (issue 23): 1,860 clang -ftime-trace files, 1.5M events in all, through
// `compilescope import`'s own path (ingest::importFiles: sniffing, one session per file placed at its
// beginningOfTime, "Total" events as phase totals), beside plain SQLite inserts of as many rows as
// the import writes (raw_sqlite_spans.h). Target: import >= 0.9 x the raw inserts
// (scripts/bench_ratios.py, "build import / raw SQLite inserts").
//
// The files: clang_build_traces.h (COMPILESCOPE_BENCH_BUILD_FILES=N imports N instead of 1,860).
#include "core/ingest/import_files.h"
#include "clang_build_traces.h"
#include "raw_sqlite_spans.h"

#include <benchmark/benchmark.h>
#include <sqlite3.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

namespace {
namespace fs = std::filesystem;

using cs::bench::build;

std::string tmpPath(const char* name) { return (fs::temp_directory_path() / name).string(); }

void importBuild(const std::string& out) {
    cs::bench::removeDbFiles(out);
    cs::ingest::ImportRequest req;
    req.inputs = build().files;
    req.output = out;
    req.overwrite = true;
    cs::ingest::importFiles(req);
}

// Rows the import writes (every table a build's import fills), counted once from a real import.
std::int64_t importRows() {
    static const std::int64_t rows = [] {
        const std::string out = tmpPath("bench-build-rows.cstrace");
        importBuild(out);
        sqlite3* db = nullptr;
        sqlite3_open_v2(out.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
        std::int64_t n = 0;
        for (const char* table : {"sessions", "tracks", "strings", "spans", "span_args", "phase_timings", "stats"}) {
            sqlite3_stmt* st = nullptr;
            if (sqlite3_prepare_v2(db, (std::string("SELECT count(*) FROM ") + table).c_str(), -1, &st, nullptr) == SQLITE_OK &&
                sqlite3_step(st) == SQLITE_ROW)
                n += sqlite3_column_int64(st, 0);
            sqlite3_finalize(st);
        }
        sqlite3_close(db);
        cs::bench::removeDbFiles(out);
        return n;
    }();
    return rows;
}

void setCounters(benchmark::State& state) {
    // Items are the build's events for both benchmarks, so the ratio of items/s is that of times.
    state.SetItemsProcessed(build().events * static_cast<std::int64_t>(state.iterations()));
    state.counters["files"] = static_cast<double>(build().files.size());
    state.counters["events"] = static_cast<double>(build().events);
    state.counters["rows"] = static_cast<double>(importRows());
    state.counters["MB_per_s"] = benchmark::Counter(static_cast<double>(build().bytes) * static_cast<double>(state.iterations()) / 1e6,
                                                    benchmark::Counter::kIsRate);
}

// The floor: as many plain prepared inserts as the import writes rows.
void BM_BuildRawSqliteInserts(benchmark::State& state) {
    const std::int64_t rows = importRows();
    const std::string out = tmpPath("bench-build-raw.db");
    for (auto _ : state) cs::bench::insertRawSpans(out, rows);
    setCounters(state);
    cs::bench::removeDbFiles(out);
}
BENCHMARK(BM_BuildRawSqliteInserts)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();

// The whole import of every file into one trace, as `compilescope import $(find ...) -o build.cstrace`.
void BM_BuildImport(benchmark::State& state) {
    build();
    importRows();
    const std::string out = tmpPath("bench-build.cstrace");
    for (auto _ : state) importBuild(out);
    setCounters(state);
    cs::bench::removeDbFiles(out);
}
BENCHMARK(BM_BuildImport)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();
}  // namespace

BENCHMARK_MAIN();
