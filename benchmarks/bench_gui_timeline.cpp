// The viewer's speed and memory targets (issue 8), measured beside their limits in the same run:
//  - open a trace of N events to the first timeline paint: <= 1 s at 1M events (<= 5 s at 10M);
//  - timeline repaint at any zoom, p95: <= 16 ms at 1M (<= 33 ms at 10M);
//  - viewer memory per event: <= 40 bytes (the index's allocated bytes, and the RSS growth).
// Traces are written with the real TraceWriter (writeSyntheticTrace: nested spans on 4 threads).
// The paint is QCustomPlot's real replot of the real TimelinePlot on the offscreen platform.
#include "app/plots/timeline_plot.h"
#include "core/engine/compile_summary.h"
#include "core/engine/timeline_data.h"
#include "core/trace/reader.h"
#include "demo_trace_builder.h"

#include <QApplication>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <string>

namespace {

using Clock = std::chrono::steady_clock;

// One trace file per size, written once per process.
const std::string& traceOf(std::int64_t events) {
    static std::map<std::int64_t, std::string> paths;
    auto it = paths.find(events);
    if (it != paths.end()) return it->second;
    std::string path = (std::filesystem::temp_directory_path() / ("cs-bench-gui-" + std::to_string(events) + ".cstrace")).string();
    cs::test::demo::writeSyntheticTrace(path, events);
    return paths[events] = path;
}

std::int64_t rssBytes() {
    std::ifstream in("/proc/self/statm");
    std::int64_t size = 0, resident = 0;
    in >> size >> resident;
    return resident * 4096;
}

double openLimitSeconds(std::int64_t events) { return events > 1000000 ? 5.0 : 1.0; }
double repaintLimitMs(std::int64_t events) { return events > 1000000 ? 33.0 : 16.0; }

// What the GUI does from "open" to the first timeline paint: summary, then the timeline index,
// then the plot's first replot.
void BM_OpenToFirstTimelinePaint(benchmark::State& state) {
    const std::string& path = traceOf(state.range(0));
    double seconds = 0, summaryS = 0, timelineS = 0, paintS = 0, worst = 0;
    int runs = 0;
    auto since = [](Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); };
    for (auto _ : state) {
        auto t0 = Clock::now();
        auto reader = cs::trace::TraceReader::open(path);
        auto summary = cs::engine::summarizeCompileTime(*reader);
        summaryS = since(t0);
        auto t1 = Clock::now();
        auto data = std::make_shared<const cs::engine::TimelineData>(cs::engine::loadTimeline(*reader));
        timelineS = since(t1);
        auto t2 = Clock::now();
        cs::gui::TimelinePlot plot;
        plot.resize(1600, 900);
        plot.show();  // laid out at its real size, as in the window
        plot.setSources({{QStringLiteral("bench"), data}});  // fits and replots
        paintS = since(t2);
        double s = since(t0);
        seconds += s;
        worst = std::max(worst, s);
        ++runs;
        benchmark::DoNotOptimize(summary.compileNs);
        state.SetIterationTime(s);
    }
    state.counters["seconds"] = seconds / runs;  // mean over the iterations
    state.counters["worst_seconds"] = worst;
    state.counters["summary_s"] = summaryS;
    state.counters["timeline_s"] = timelineS;
    state.counters["paint_s"] = paintS;
    state.counters["limit_seconds"] = openLimitSeconds(state.range(0));
    state.counters["events"] = static_cast<double>(state.range(0));
}

// Repaints at random zoom levels from the whole trace down to 10 us, each at a random position:
// every repaint after a zoom change refetches from the index, the worst case for the cache.
void BM_TimelineRepaintAnyZoom(benchmark::State& state) {
    const std::string& path = traceOf(state.range(0));
    auto reader = cs::trace::TraceReader::open(path);
    auto data = std::make_shared<const cs::engine::TimelineData>(cs::engine::loadTimeline(*reader));
    cs::gui::TimelinePlot plot;
    plot.resize(1600, 900);
    plot.show();
    plot.setSources({{QStringLiteral("bench"), data}});
    std::mt19937_64 rng(42);
    const std::int64_t lo = data->minNs, hi = data->maxNs;
    std::vector<double> ms;
    std::size_t maxItems = 0;
    for (auto _ : state) {
        double width = std::exp(std::uniform_real_distribution<double>(std::log(1e4), std::log(double(hi - lo)))(rng));
        auto start = lo + static_cast<std::int64_t>(std::uniform_real_distribution<double>(0, double(hi - lo) - width)(rng));
        auto t0 = Clock::now();
        plot.showRange(0, start, start + static_cast<std::int64_t>(width));  // replots
        double elapsed = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
        ms.push_back(elapsed);
        maxItems = std::max(maxItems, plot.lastPaintItems());
        state.SetIterationTime(elapsed / 1000.0);
    }
    std::sort(ms.begin(), ms.end());
    state.counters["p95_ms"] = ms[std::min(ms.size() - 1, static_cast<std::size_t>(0.95 * static_cast<double>(ms.size())))];
    state.counters["limit_p95_ms"] = repaintLimitMs(state.range(0));
    state.counters["max_items_drawn"] = static_cast<double>(maxItems);
}

// Bytes the viewer keeps per event: the index's own accounting, and the process RSS growth.
void BM_ViewerMemoryPerEvent(benchmark::State& state) {
    const std::string& path = traceOf(state.range(0));
    double indexBytes = 0, rssDelta = 0, events = 0;
    for (auto _ : state) {
        auto reader = cs::trace::TraceReader::open(path);
        std::int64_t before = rssBytes();
        auto data = std::make_unique<cs::engine::TimelineData>(cs::engine::loadTimeline(*reader));
        rssDelta = static_cast<double>(rssBytes() - before);
        indexBytes = static_cast<double>(data->allocatedBytes());
        events = static_cast<double>(data->events);
    }
    state.counters["bytes_per_event"] = indexBytes / events;
    state.counters["rss_bytes_per_event"] = rssDelta / events;
    state.counters["limit_bytes_per_event"] = 40;
    state.counters["limit_rss_bytes_per_event"] = 40;
}

}  // namespace

BENCHMARK(BM_OpenToFirstTimelinePaint)->Arg(1000000)->Unit(benchmark::kMillisecond)->UseManualTime()->Iterations(3);
BENCHMARK(BM_TimelineRepaintAnyZoom)->Arg(1000000)->Unit(benchmark::kMillisecond)->UseManualTime()->Iterations(200);
BENCHMARK(BM_ViewerMemoryPerEvent)->Arg(1000000)->Unit(benchmark::kMillisecond)->Iterations(1);
// 10M-event variants: run with --benchmark_filter=10000000 (the trace takes a while to write).
BENCHMARK(BM_OpenToFirstTimelinePaint)->Arg(10000000)->Unit(benchmark::kMillisecond)->UseManualTime()->Iterations(1);
BENCHMARK(BM_TimelineRepaintAnyZoom)->Arg(10000000)->Unit(benchmark::kMillisecond)->UseManualTime()->Iterations(100);
BENCHMARK(BM_ViewerMemoryPerEvent)->Arg(10000000)->Unit(benchmark::kMillisecond)->Iterations(1);

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
