// Invalidation trees from a 1M-item raw list, against the limit of 1 s per build (issue 5): the
// builder alone, and the whole path from a trace file (read items + build + cost join).
// Counters: items_per_s (the figure) beside limit_per_s (1M items in 1 s); scripts/bench_ratios.py
// prints figure / limit / ratio.
#include "core/engine/julia/invalidation_load.h"
#include "core/engine/julia/invalidation_trees.h"
#include "core/engine/julia/invalidation_build.h"
#include "core/trace/reader.h"
#include "core/trace/writer.h"

#include <benchmark/benchmark.h>

#include <filesystem>
#include <string>

namespace {

// A list shaped like `using` a large package: per inserted method, two mt_backedges trees
// (depth-0 roots with callers down to depth 4), three superseded specializations with callers,
// and dispatch-cache entries; method names repeat across blocks as in real logs.
void syntheticList(cs::engine::InvalidationInput& in, std::size_t target) {
    auto& list = in.methodsList;
    list.reserve(target + 64);
    auto mi = [&](std::size_t a, std::size_t b) {
        list.push_back({CS_INVITEM_METHOD_INSTANCE,
                        in.keep("MethodInstance for Pkg" + std::to_string(a % 97) + ".f" + std::to_string(b) + "(::Vector{Any})")});
    };
    auto depth = [&](int d) { list.push_back({CS_INVITEM_INT, in.keep(std::to_string(d))}); };
    auto tag = [&](const char* t) { list.push_back({CS_INVITEM_TAG, in.keep(std::string("\"") + t + "\"")}); };
    std::size_t block = 0;
    while (list.size() < target) {
        ++block;
        for (int t = 0; t < 2; ++t) {
            mi(block, 1000 + t);
            depth(0);
            for (int k = 0; k < 12; ++k) {
                mi(block, static_cast<std::size_t>(k));
                depth(1 + k % 4);
            }
            list.push_back({CS_INVITEM_TYPE, in.keep("Tuple{typeof(Pkg.g" + std::to_string(t) + "), Any}")});
        }
        for (int b = 0; b < 3; ++b) {
            for (int k = 0; k < 10; ++k) {
                mi(block + 7, static_cast<std::size_t>(100 + k));
                depth(1 + k % 3);
            }
            mi(block, 2000 + static_cast<std::size_t>(b));
            tag("jl_method_table_insert");
        }
        mi(block, 3000);
        tag("invalidate_mt_cache");
        list.push_back({CS_INVITEM_METHOD, in.keep("g(::MyType" + std::to_string(block % 500) + ") @ MyPkg src/a.jl:" +
                                                       std::to_string(block))});
        tag("jl_method_table_insert");
    }
}

void counters(benchmark::State& state, std::size_t n) {
    state.counters["items_per_s"] = benchmark::Counter(static_cast<double>(n) * static_cast<double>(state.iterations()),
                                                       benchmark::Counter::kIsRate);
    state.counters["limit_per_s"] = 1e6;  // 1M items in 1 s
}

void BM_BuildInvalidationTrees(benchmark::State& state) {
    cs::engine::InvalidationInput in;
    syntheticList(in, static_cast<std::size_t>(state.range(0)));
    std::size_t trees = 0;
    for (auto _ : state) {
        auto f = cs::engine::buildInvalidationTrees(in);
        trees = f.trees.size();
        benchmark::DoNotOptimize(f.nodes.data());
    }
    counters(state, in.methodsList.size());
    state.counters["trees"] = static_cast<double>(trees);
}
BENCHMARK(BM_BuildInvalidationTrees)->Arg(1'000'000)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_LoadBuildAndJoinFromTrace(benchmark::State& state) {
    auto path = (std::filesystem::temp_directory_path() / "bench-invalidations.cstrace").string();
    for (const char* s : {"", "-wal", "-shm"}) std::filesystem::remove(path + s);
    cs::engine::InvalidationInput in;
    syntheticList(in, static_cast<std::size_t>(state.range(0)));
    const auto& list = in.methodsList;
    {
        cs::trace::TraceWriter w(path);
        auto sess = w.addSession({.startNs = 0});
        std::int64_t ord = 0;
        for (const auto& it : list)
            w.addInvalidationItem({.sessionId = sess, .list = CS_INVLIST_METHODS, .ordinal = ord++, .kind = it.kind,
                                   .text = w.intern(it.text)});
        w.finalize();
    }
    for (auto _ : state) {
        auto reader = cs::trace::TraceReader::open(path);
        auto f = cs::engine::loadInvalidationTrees(*reader);
        benchmark::DoNotOptimize(f->trees.data());
    }
    counters(state, list.size());
    for (const char* s : {"", "-wal", "-shm"}) std::filesystem::remove(path + s);
}
BENCHMARK(BM_LoadBuildAndJoinFromTrace)->Arg(1'000'000)->Unit(benchmark::kMillisecond)->UseRealTime();
}  // namespace
BENCHMARK_MAIN();
