// 256 ranks of one job (issue 22): 256 traces of 100k events each, as a distributed training job
// writes one per rank. Measured: analysing every rank and comparing them (the rank-divergence
// findings, target <= 1 s for the comparison itself and shown for the whole), and the HTML report
// over all 256 traces (target <= 10 s and <= 10 MB). Beside them, the floor: one plain SQL scan of
// every trace's rows (a count and a sum per table), which any analysis of these files pays.
//
// The traces: spans on four tracks (a tenth of them compiles), two programs looked up every step
// with their keys, and two ranks that differ: rank 17 compiles a ragged shape at step 50 (a
// divergent program) and rank 200 compiles three times as long as the others (a slow rank).
// They are written once per machine under the temporary directory and reused.
#include "core/engine/cache/rank_divergence.h"
#include "core/engine/trace_analysis.h"
#include "core/report/report.h"
#include "core/trace/reader.h"
#include "core/trace/writer.h"

#include <benchmark/benchmark.h>
#include <sqlite3.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {
constexpr int kRanks = 256;
constexpr std::int64_t kEventsPerRank = 100000;
constexpr std::int64_t kSteps = 100;

std::string rankPath(const std::filesystem::path& dir, int rank) {
    std::string name = "rank";
    name += std::to_string(rank);
    return (dir / name / "trace.cstrace").string();
}

void writeRank(const std::string& path, int rank) {
    using namespace cs::trace;
    std::filesystem::create_directories(std::filesystem::path(path).parent_path());
    TraceWriter w(path, {.overwrite = true});
    auto sess = w.addSession({.runtime = w.intern("bench"), .startNs = 0});
    std::int64_t tracks[4];
    for (auto& t : tracks) t = w.addTrack({.sessionId = sess});
    StringId names[32];
    for (int i = 0; i < 32; ++i) names[i] = w.intern("op_" + std::to_string(i));
    const std::int64_t compileScale = rank == 200 ? 3 : 1;
    const std::int64_t spans = kEventsPerRank - kSteps * 3;
    // One span a millisecond, four tracks: a compile of 0.9 ms (2.7 ms on the slow rank) every tenth.
    const std::int64_t stepNs = spans * 1'000'000 / kSteps;
    for (std::int64_t i = 0; i < spans; ++i) {
        const bool compile = i % 10 == 0;
        w.addSpan({.trackId = tracks[i & 3], .startNs = i * 1'000'000, .durNs = compile ? 900'000 * compileScale : 700'000,
                   .category = compile ? CS_CAT_COMPILE : CS_CAT_OTHER, .name = names[i & 31]});
    }
    StringId programs[2] = {w.intern("gradient"), w.intern("optimizer")};
    StringId shape = w.intern("shape of arg 2"), full = w.intern("128x64"), ragged = w.intern("100x64");
    for (std::int64_t step = 1; step <= kSteps; ++step) {
        w.addStep({.sessionId = sess, .tsNs = (step - 1) * stepNs, .step = step});
        for (int p = 0; p < 2; ++p) {
            const bool raggedStep = rank == 17 && p == 0 && step == 50;
            const bool miss = step == 1 || raggedStep;
            auto id = w.addCacheLookup({.sessionId = sess, .tsNs = (step - 1) * stepNs + 10 + p, .program = programs[p],
                                        .verdict = miss ? CS_VERDICT_MISS : CS_VERDICT_HIT,
                                        .compileNs = miss ? std::optional<std::int64_t>(5'000'000 * compileScale) : std::nullopt,
                                        .step = step});
            const StringId v = raggedStep ? ragged : full;
            w.addKeyComponent({.lookupId = id, .ordinal = 0, .name = shape, .role = CS_ROLE_SHAPE, .digest = v, .value = v});
        }
    }
    w.finalize();
}

// The 256 traces, written once (a marker file says they are complete).
const std::vector<std::string>& rankTraces() {
    static const std::vector<std::string> paths = [] {
        const auto dir = std::filesystem::temp_directory_path() / "bench-ranks-256x100k-v2";
        const auto marker = dir / "complete";
        std::vector<std::string> out;
        for (int r = 0; r < kRanks; ++r) out.push_back(rankPath(dir, r));
        if (!std::filesystem::exists(marker)) {
            for (int r = 0; r < kRanks; ++r) writeRank(out[static_cast<size_t>(r)], r);
            std::ofstream(marker) << "ok\n";
        }
        return out;
    }();
    return paths;
}

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
