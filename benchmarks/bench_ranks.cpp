// 256 ranks of one job (issue 22): 256 traces of 100k events each, as a distributed training job
// writes one per rank. Measured: analysing every rank and comparing them (the rank-divergence
// findings, target <= 1 s for the comparison itself and shown for the whole), and the HTML report
// over all 256 traces (target <= 10 s and <= 10 MB). Beside them, the floor: one plain SQL scan of
// every trace's rows (a count and a sum per table), which any analysis of these files pays.
// The traces: rank_traces.h.
#include "core/engine/cache/rank_divergence.h"
#include "core/engine/timeline/timeline_data.h"
#include "core/engine/analysis/trace_analysis.h"
#include "core/report/report.h"
#include "core/trace/reader.h"
#include "core/trace/writer.h"
#include "rank_traces.h"

#include <benchmark/benchmark.h>
#include <sqlite3.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {
using namespace bench_ranks;

// The floor: every trace opened and its rows scanned once with plain SQL.
void BM_RanksPlainScan(benchmark::State& state) {
    const auto& paths = rankTraces();
    for (auto _ : state) {
        std::int64_t sum = 0;
        for (const auto& p : paths) {
            sqlite3* db = nullptr;
            sqlite3_open_v2(p.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
            for (const char* sql : {"SELECT count(*), sum(dur_ns) FROM spans", "SELECT count(*), sum(step) FROM cache_lookups"}) {
                sqlite3_stmt* st = nullptr;
                sqlite3_prepare_v2(db, sql, -1, &st, nullptr);
                while (sqlite3_step(st) == SQLITE_ROW) sum += sqlite3_column_int64(st, 0) + sqlite3_column_int64(st, 1);
                sqlite3_finalize(st);
            }
            sqlite3_close(db);
        }
        benchmark::DoNotOptimize(sum);
    }
}
BENCHMARK(BM_RanksPlainScan)->Unit(benchmark::kMillisecond)->Iterations(1)->UseRealTime();

// What the GUI's first paint of 256 ranks reads (bench_gui_ranks): each trace opened (its header,
// schema and page checksums checked) and its outline read (engine::loadTimelineOutline), one thread.
// Counters: the two apart.
void BM_RanksOpenAndOutline(benchmark::State& state) {
    const auto& paths = rankTraces();
    double openS = 0, outlineS = 0;
    std::size_t lanes = 0;
    for (auto _ : state) {
        openS = outlineS = 0;
        for (const auto& p : paths) {
            auto t0 = std::chrono::steady_clock::now();
            auto reader = cs::trace::TraceReader::open(p);
            auto t1 = std::chrono::steady_clock::now();
            lanes += cs::engine::loadTimelineOutline(*reader).lanes.size();
            auto t2 = std::chrono::steady_clock::now();
            openS += std::chrono::duration<double>(t1 - t0).count();
            outlineS += std::chrono::duration<double>(t2 - t1).count();
        }
    }
    benchmark::DoNotOptimize(lanes);
    state.counters["open_s"] = openS;
    state.counters["outline_s"] = outlineS;
}
BENCHMARK(BM_RanksOpenAndOutline)->Unit(benchmark::kMillisecond)->Iterations(1)->UseRealTime();

std::vector<std::shared_ptr<const cs::engine::TraceAnalysis>> analyseAll() {
    std::vector<std::shared_ptr<const cs::engine::TraceAnalysis>> out;
    for (const auto& p : rankTraces()) out.push_back(cs::engine::analyseTraceFile(p));
    return out;
}

cs::engine::RankDivergence compare(const std::vector<std::shared_ptr<const cs::engine::TraceAnalysis>>& analyses) {
    static const cs::engine::CacheFacts none;
    static const cs::engine::ReplayResult noReplay;
    std::vector<cs::engine::RankTrace> ranks;
    for (size_t i = 0; i < analyses.size(); ++i) {
        const auto& a = *analyses[i];
        ranks.push_back({"rank" + std::to_string(i), a.cache ? &a.cache->facts : &none, a.cache ? &a.cache->replay : &noReplay,
                         a.summary.compileNs});
    }
    return cs::engine::compareRanks(ranks);
}

// Every rank analysed, as `check` does, then compared.
void BM_RanksAnalyseAndCompare(benchmark::State& state) {
    rankTraces();
    for (auto _ : state) {
        auto d = compare(analyseAll());
        benchmark::DoNotOptimize(d.slow.size());
    }
}
BENCHMARK(BM_RanksAnalyseAndCompare)->Unit(benchmark::kMillisecond)->Iterations(1)->UseRealTime();

// The comparison itself, over analyses already made (the GUI and the report hold them): the findings.
void BM_RanksDivergenceFindings(benchmark::State& state) {
    const auto analyses = analyseAll();
    std::size_t findings = 0;
    for (auto _ : state) {
        auto d = compare(analyses);
        findings = cs::engine::rankDivergenceFindings(d).size();
        if (d.programs.empty() || d.slow.empty()) state.SkipWithError("the divergent rank or the slow rank was not found");
    }
    state.counters["findings"] = static_cast<double>(findings);
    state.counters["limit_s"] = 1.0;
}
BENCHMARK(BM_RanksDivergenceFindings)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();

// The HTML report over all 256 traces, as `compilescope report rank*/trace.cstrace` writes it.
void BM_RanksReport(benchmark::State& state) {
    const auto& paths = rankTraces();
    std::size_t bytes = 0;
    for (auto _ : state) {
        std::ostringstream out;
        cs::report::writeReport(paths, {}, out);
        bytes = out.str().size();
    }
    state.counters["report_bytes"] = static_cast<double>(bytes);
    state.counters["limit_bytes"] = 10.0 * 1024 * 1024;
    state.counters["limit_s"] = 10.0;
}
BENCHMARK(BM_RanksReport)->Unit(benchmark::kMillisecond)->Iterations(1)->UseRealTime();
}  // namespace

BENCHMARK_MAIN();
