// The HTML report of a 1M-event trace (benchmarks/million_event_trace.h): written in <= 5 s and
// <= 5 MB (issue 9). Measured beside a plain SQL scan of the same rows (one count and sum per table), the floor any report over this
// trace pays. Counters: report_bytes with its limit, and the limit in seconds beside the real time.
#include "benchmarks/million_event_trace.h"
#include "core/report/report.h"
#include "core/trace/reader.h"
#include "core/trace/writer.h"

#include <benchmark/benchmark.h>

#include <filesystem>
#include <sstream>
#include <string>

namespace {
using cs::bench::kEvents;

const std::string& millionEventTrace() {
    static const std::string path = cs::bench::writeMillionEventTrace();
    return path;
}

void BM_ReportMillionEvents(benchmark::State& state) {
    const auto& trace = millionEventTrace();
    std::size_t bytes = 0;
    for (auto _ : state) {
        std::ostringstream out;
        cs::report::writeReport({trace}, {}, out);
        bytes = out.str().size();
        benchmark::DoNotOptimize(bytes);
    }
    state.SetItemsProcessed(state.iterations() * kEvents);
    state.counters["report_bytes"] = static_cast<double>(bytes);
    state.counters["limit_bytes"] = 5.0 * 1000 * 1000;
    state.counters["limit_s"] = 5.0;
    state.counters["limit_per_s"] = static_cast<double>(kEvents) / 5.0;  // 1M events in 5 s, for bench_ratios.py
}
BENCHMARK(BM_ReportMillionEvents)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();

// The floor: read every row of the same tables once, with no report logic.
void BM_ScanMillionEvents(benchmark::State& state) {
    const auto& trace = millionEventTrace();
    auto reader = cs::trace::TraceReader::open(trace);
    std::int64_t sum = 0;
    for (auto _ : state) {
        for (const char* sql : {"SELECT sum(start_ns + dur_ns) FROM spans", "SELECT sum(ts_ns) FROM cache_lookups",
                                "SELECT sum(start_ns) FROM module_loads", "SELECT sum(start_ns) FROM kernel_launches",
                                "SELECT sum(start_ns) FROM cuda_programs", "SELECT sum(dur_ns) FROM phase_timings",
                                "SELECT sum(ordinal) FROM invalidation_items"})
            reader->query(sql, [&](const cs::trace::Row& st) { sum += st.integer(0); });
        benchmark::DoNotOptimize(sum);
    }
    state.SetItemsProcessed(state.iterations() * kEvents);
}
BENCHMARK(BM_ScanMillionEvents)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();
}  // namespace

BENCHMARK_MAIN();
