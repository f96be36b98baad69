// A whole build's import (issue 23): 1,860 clang -ftime-trace files, 1.5M events in all, through
// `compilescope import`'s own path (ingest::importFiles: sniffing, one session per file placed at its
// beginningOfTime, "Total" events as phase totals), beside plain SQLite inserts of the rows the import
// writes into the same schema (same_rows_floor.h) and, shown only, as many plain six-integer rows
// (raw_sqlite_spans.h). Target: import >= 0.9 x the same-rows inserts (scripts/bench_ratios.py).
//
// The files: clang_build_traces.h (COMPILESCOPE_BENCH_BUILD_FILES=N imports N instead of 1,860).
#include "core/ingest/import_files.h"
#include "clang_build_traces.h"
#include "raw_sqlite_spans.h"
#include "same_rows_floor.h"

#include <benchmark/benchmark.h>

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

// The rows the import writes (every table), from one real import, held in memory.
const cs::bench::TraceRows& importedRows() {
    static const cs::bench::TraceRows rows = [] {
        const std::string out = tmpPath("bench-build-rows.cstrace");
        importBuild(out);
        auto r = cs::bench::loadTraceRows(out);
        cs::bench::removeDbFiles(out);
        return r;
    }();
    return rows;
}

std::int64_t importRows() { return importedRows().rows; }

void setCounters(benchmark::State& state) {
    // Items are the build's events for both benchmarks, so the ratio of items/s is that of times.
    state.SetItemsProcessed(build().events * static_cast<std::int64_t>(state.iterations()));
    state.counters["files"] = static_cast<double>(build().files.size());
    state.counters["events"] = static_cast<double>(build().events);
    state.counters["rows"] = static_cast<double>(importRows());
    state.counters["MB_per_s"] = benchmark::Counter(static_cast<double>(build().bytes) * static_cast<double>(state.iterations()) / 1e6,
                                                    benchmark::Counter::kIsRate);
}

// Shown: as many plain six-integer rows as the import writes, one table, no index (raw_sqlite_spans.h).
void BM_BuildRawSqliteInserts(benchmark::State& state) {
    const std::int64_t rows = importRows();
    const std::string out = tmpPath("bench-build-raw.db");
    for (auto _ : state) {
        cs::bench::settleWrites(state);
        cs::bench::insertRawSpans(out, rows);
    }
    setCounters(state);
    cs::bench::removeDbFiles(out);
}
BENCHMARK(BM_BuildRawSqliteInserts)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();

// The limit: the import's own rows, every table, inserted again by plain prepared statements of 64
// rows into the same schema (same_rows_floor.h).
void BM_BuildSameRowsFloor(benchmark::State& state) {
    const auto& rows = importedRows();
    const std::string out = tmpPath("bench-build-same-rows.db");
    for (auto _ : state) {
        cs::bench::settleWrites(state);
        cs::bench::insertTraceRows(rows, out, 64);
    }
    setCounters(state);
    cs::bench::removeDbFiles(out);
}
BENCHMARK(BM_BuildSameRowsFloor)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();

// The whole import of every file into one trace, as `compilescope import $(find ...) -o build.cstrace`.
void BM_BuildImport(benchmark::State& state) {
    build();
    importRows();
    const std::string out = tmpPath("bench-build.cstrace");
    for (auto _ : state) {
        cs::bench::settleWrites(state);
        importBuild(out);
    }
    setCounters(state);
    cs::bench::removeDbFiles(out);
}
BENCHMARK(BM_BuildImport)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();
}  // namespace

BENCHMARK_MAIN();
