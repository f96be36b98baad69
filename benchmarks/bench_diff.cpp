// `compilescope diff` of two 1M-event traces (benchmarks/million_event_trace.h, the second after a
// change: more misses, new module hashes): <= 2 s and <= 1 GB (issue 36). It times what the command
// does: both traces analysed with every compile listed (measure::kDiffIndexRows), then matched.
// Counters: seconds and the resident memory grown, each beside its limit.
#include "benchmarks/million_event_trace.h"
#include "core/engine/analysis/trace_analysis.h"
#include "core/measure/trace_diff.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <string>

namespace {
// Resident set size in bytes (Linux), from /proc/self/statm.
double rssBytes() {
    std::ifstream in("/proc/self/statm");
    long pages = 0, resident = 0;
    in >> pages >> resident;
    return static_cast<double>(resident) * 4096.0;
}

void BM_DiffMillionEventTraces(benchmark::State& state) {
    static const std::string base = cs::bench::writeMillionEventTrace(0), head = cs::bench::writeMillionEventTrace(1);
    double seconds = 0, grown = 0;
    size_t changes = 0;
    for (auto _ : state) {
        const double before = rssBytes();
        const auto t0 = std::chrono::steady_clock::now();
        const auto [b, h] = cs::measure::analyseSides({base}, {head});
        const auto d = cs::measure::diffRuns(b, h);
        seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        grown = std::max(grown, rssBytes() - before);
        changes = d.changes.size();
        benchmark::DoNotOptimize(changes);
    }
    state.counters["seconds"] = seconds;
    state.counters["limit_s"] = 2.0;
    state.counters["rss_growth_bytes"] = grown;
    state.counters["limit_bytes"] = 1024.0 * 1024 * 1024;
    state.counters["changes"] = static_cast<double>(changes);
}
BENCHMARK(BM_DiffMillionEventTraces)->Unit(benchmark::kMillisecond)->Iterations(2)->UseRealTime();
}  // namespace

BENCHMARK_MAIN();
