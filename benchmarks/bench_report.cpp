// The HTML report of a 1M-event trace: written in <= 5 s and <= 5 MB (issue 9). Measured beside a
// plain SQL scan of the same rows (one count and sum per table), the floor any report over this
// trace pays. Counters: report_bytes with its limit, and the limit in seconds beside the real time.
#include "core/report/report.h"
#include "core/trace/reader.h"
#include "core/trace/writer.h"

#include <benchmark/benchmark.h>
#include <sqlite3.h>

#include <filesystem>
#include <sstream>
#include <string>

namespace {
constexpr std::int64_t kEvents = 1000000;

// A mixed trace: spans on several tracks and categories, cache lookups with keys (a miss every 50),
// module loads with churning hashes, launches, NVRTC programs, phases and invalidation items.
const std::string& millionEventTrace() {
    static const std::string path = [] {
        using namespace cs::trace;
        auto p = (std::filesystem::temp_directory_path() / "bench-report-1m.cstrace").string();
        TraceWriter w(p, {.overwrite = true});
        auto sess = w.addSession({.runtime = w.intern("bench"), .startNs = 0});
        std::int64_t tracks[4];
        for (auto& t : tracks) t = w.addTrack({.sessionId = sess});
        StringId names[64];
        for (int i = 0; i < 64; ++i) names[i] = w.intern("name_" + std::to_string(i));
        const int cats[] = {CS_CAT_COMPILE, CS_CAT_INFERENCE, CS_CAT_CODEGEN, CS_CAT_LAUNCH};
        std::int64_t n = 0;
        for (std::int64_t i = 0; i < 690000; ++i, ++n)
            w.addSpan({.trackId = tracks[i & 3], .startNs = i * 1000, .durNs = 700, .category = cats[(i >> 2) & 3],
                       .name = names[i & 63]});
        StringId programs[3] = {w.intern("gradient"), w.intern("optimizer"), w.intern("eval")};
        StringId shape = w.intern("shape of arg 2"), device = w.intern("lr");
        for (std::int64_t i = 0; i < 100000; ++i, ++n) {
            bool miss = i % 50 == 0;
            auto id = w.addCacheLookup({.sessionId = sess, .tsNs = i * 6900, .program = programs[i % 3],
                                        .verdict = miss ? CS_VERDICT_MISS : CS_VERDICT_HIT,
                                        .compileNs = miss ? std::optional<std::int64_t>(5000) : std::nullopt,
                                        .step = i / 100 + 1});
            auto v = w.intern(std::to_string(128 - (i / 50) % 64) + "x64");
            w.addKeyComponent({.lookupId = id, .ordinal = 0, .name = shape, .role = CS_ROLE_SHAPE, .digest = v, .value = v});
            w.addKeyComponent({.lookupId = id, .ordinal = 1, .name = device, .role = CS_ROLE_DEVICE, .digest = names[i & 63]});
        }
        StringId cuda0 = w.intern("cuda:0");
        for (std::int64_t i = 0; i < 100000; ++i, ++n)
            w.addModuleLoad({.sessionId = sess, .startNs = i * 6900, .durNs = 3000,
                             .name = w.intern("mod_" + std::to_string(i % 2000)),
                             .hash = w.intern("h" + std::to_string(i % 2000) + "_" + std::to_string(i % 7)),
                             .device = cuda0, .blockDim = 128 << (i % 2), .result = i % 3 ? CS_MODULE_CACHED : CS_MODULE_COMPILED});
        for (std::int64_t i = 0; i < 50000; ++i, ++n)
            w.addKernelLaunch({.sessionId = sess, .startNs = i * 13800, .durNs = 100, .name = names[i & 15],
                               .gridX = 256, .blockX = 128});
        for (std::int64_t i = 0; i < 30000; ++i, ++n)
            w.addCudaProgram({.sessionId = sess, .startNs = i * 23000, .durNs = 9000, .name = names[i & 31]});
        StringId phases[3] = {w.intern("cicc"), w.intern("ptxas"), w.intern("fatbinary")};
        for (std::int64_t i = 0; i < 20000; ++i, ++n)
            w.addPhaseTiming({.sessionId = sess, .tool = CS_PHASE_TOOL_NVCC, .phase = phases[i % 3],
                              .startNs = i * 34500, .durNs = 20000});
        for (std::int64_t i = 0; n < kEvents; ++i, ++n)
            w.addInvalidationItem({.sessionId = sess, .list = CS_INVLIST_METHODS, .ordinal = i,
                                   .kind = CS_INVITEM_METHOD_INSTANCE, .text = names[i & 63]});
        w.endSession(sess, 690000 * 1000, 0);
        w.finalize();
        return p;
    }();
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
            reader->query(sql, [&](sqlite3_stmt* st) { sum += sqlite3_column_int64(st, 0); });
        benchmark::DoNotOptimize(sum);
    }
    state.SetItemsProcessed(state.iterations() * kEvents);
}
BENCHMARK(BM_ScanMillionEvents)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();
}  // namespace

BENCHMARK_MAIN();
