// Warp log line recognition beside the floor of reading the same lines and looking for "Module ":
// the limit the parser is judged against (docs/practices.md 16). A multi-gigabyte CI log must import at close
// to the speed it can be read. Counter: items/s (lines).
#include "core/formats/warp_log_lines.h"

#include <benchmark/benchmark.h>

#include <sstream>
#include <string>

namespace {
std::string makeLog(std::int64_t lines) {
    std::string log;
    for (std::int64_t i = 0; i < lines; ++i) {
        switch (i % 4) {
        case 0: log += "    Compile CUDA (arch=90, mode=release, block_dim=256) took 410.20 ms\n"; break;
        case 1: log += "Module app.stage_" + std::to_string(i % 97) + " 1a2b3c4 load on device 'cuda:0' (block_dim=256) took 455.31 ms  (compiled)\n"; break;
        case 2: log += "\x1b[32mstep " + std::to_string(i) + " loss 0.125 lr 3e-4\x1b[0m\n"; break;
        default: log += "Module app.cached 9a8b7c6 load on device 'cuda:0' took 0.52 ms  (cached)\n"; break;
        }
    }
    return log;
}

void BM_WarpLogParse(benchmark::State& state) {
    const std::string log = makeLog(state.range(0));
    std::int64_t loads = 0;
    for (auto _ : state) {
        std::istringstream in(log);
        std::string line;
        while (std::getline(in, line))
            loads += cs::ingest::warp::parseWarpLine(line).kind == cs::ingest::warp::LineKind::ModuleLoad;
    }
    benchmark::DoNotOptimize(loads);
    state.SetItemsProcessed(state.iterations() * state.range(0));
}

// The limit: read every line and find the record marker, nothing else.
void BM_WarpLogReadOnly(benchmark::State& state) {
    const std::string log = makeLog(state.range(0));
    std::int64_t hits = 0;
    for (auto _ : state) {
        std::istringstream in(log);
        std::string line;
        while (std::getline(in, line)) hits += line.find("Module ") != std::string::npos;
    }
    benchmark::DoNotOptimize(hits);
    state.SetItemsProcessed(state.iterations() * state.range(0));
}
}  // namespace

BENCHMARK(BM_WarpLogParse)->Arg(100000)->UseRealTime();
BENCHMARK(BM_WarpLogReadOnly)->Arg(100000)->UseRealTime();
BENCHMARK_MAIN();
