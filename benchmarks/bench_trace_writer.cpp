// TraceWriter span ingest beside raw SQLite prepared inserts of the same rows in one transaction:
// the limit our writer is judged against (docs/practices.md 16). Counters: items/s and bytes on disk per row.
#include "core/trace/writer.h"
#include "raw_sqlite_spans.h"

#include <benchmark/benchmark.h>
#include <sqlite3.h>

#include <filesystem>
#include <string>

namespace {
std::string tmpPath(const char* name) {
    return (std::filesystem::temp_directory_path() / name).string();
}

void removeTrace(const std::string& p) {
    for (const char* s : {"", "-wal", "-shm"}) std::filesystem::remove(p + s);
}

void BM_TraceWriterSpans(benchmark::State& state) {
    const auto n = state.range(0);
    auto path = tmpPath("bench-writer.cstrace");
    std::int64_t bytes = 0;
    for (auto _ : state) {
        removeTrace(path);
        cs::trace::TraceWriter w(path);
        auto sess = w.addSession({.startNs = 0});
        auto track = w.addTrack({.sessionId = sess});
        cs::trace::StringId names[16];
        for (int i = 0; i < 16; ++i) names[i] = w.intern("kernel_" + std::to_string(i));
        for (std::int64_t i = 0; i < n; ++i)
            w.addSpan({.trackId = track, .startNs = i * 1000, .durNs = 500, .category = CS_CAT_COMPILE,
                       .name = names[i & 15]});
        w.finalize();
        bytes = static_cast<std::int64_t>(std::filesystem::file_size(path));
    }
    state.SetItemsProcessed(state.iterations() * n);
    state.counters["bytes_per_event"] = static_cast<double>(bytes) / static_cast<double>(n);
    removeTrace(path);
}
BENCHMARK(BM_TraceWriterSpans)->Arg(1 << 20)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_RawSqliteSpans(benchmark::State& state) {
    const auto n = state.range(0);
    auto path = tmpPath("bench-raw.db");
    for (auto _ : state) cs::bench::insertRawSpans(path, n);
    state.SetItemsProcessed(state.iterations() * n);
    removeTrace(path);
}
BENCHMARK(BM_RawSqliteSpans)->Arg(1 << 20)->Unit(benchmark::kMillisecond)->UseRealTime();
}  // namespace

BENCHMARK_MAIN();
