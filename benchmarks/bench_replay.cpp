// Cache replay speed beside a plain hash-map insert/find loop over the same keys (docs/practices.md 16).
//
// The target (issue 4): the replay handles >= 1M lookups/s on one core, so a week-long training trace
// replays in seconds. The limit it is judged against is what any replay must at least do per lookup:
// build the key from its in-key components and find-or-insert it in a hash map. Both run over the same
// in-memory facts (1M lookups of a ReactantNitro-shaped run: 8 components, 2 of them not in the key,
// 4 handles, ~1% misses, closures, and a redefinition every 100k lookups that poisons entries).
// Counters: lookups_per_s (rate), limit_per_s (the 1M target), and for the replay, misses replayed.
#include "core/engine/cache/cache_replay.h"
#include "core/engine/cache/miss_attribution.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

using cs::engine::CacheFacts;

// snprintf instead of string concatenation: GCC 12 at -O3 warns falsely (-Wrestrict) on the latter.
std::string format(const char* fmt, int i) {
    char buf[32];
    std::snprintf(buf, sizeof buf, fmt, i);
    return buf;
}
using cs::engine::Sid;

const CacheFacts& facts() {
    static const CacheFacts f = [] {
        CacheFacts c;
        const std::int64_t n = 1 << 20;
        Sid gradient = c.intern("gradient"), optimizer = c.intern("optimizer"), cache = c.intern("ReactantNitro.CACHE");
        Sid fn = c.intern("function"), types = c.intern("type of args"), shape = c.intern("shape of arg 5"),
            gc = c.intern("GraphConst hash"), wf = c.intern("world of forward"), wl = c.intern("world of loss"),
            accum = c.intern("accum"), lr = c.intern("lr");
        Sid gradFn = c.intern("grad_program"), f32 = c.intern("Float32"), gch = c.intern("0x5e1f"),
            w = c.intern("31000"), one = c.intern("1"), helper = c.intern("Model.helper");
        std::vector<Sid> shapes, lrs, handles;
        for (int i = 0; i < 64; ++i) shapes.push_back(c.intern(format("%dx64", 128 - i)));
        for (int i = 0; i < 256; ++i) lrs.push_back(c.intern(format("0.00%d", i)));
        for (int i = 0; i < 4; ++i) handles.push_back(c.intern(format("n%d", i)));
        std::uint64_t rng = 0x243f6a8885a308d3ull;
        c.lookups.reserve(n);
        for (std::int64_t i = 0; i < n; ++i) {
            rng = rng * 6364136223846793005ull + 1442695040888963407ull;
            cs::engine::Lookup l;
            l.id = i + 1;
            l.sessionId = 1;
            l.tsNs = i * 1000;
            l.cache = cache;
            l.program = (i & 1) ? optimizer : gradient;
            l.handle = handles[static_cast<size_t>((i >> 14) & 3)];
            l.step = i / 2 + 1;
            // ~1% of batches carry a ragged shape: most of those compile once, later ones hit.
            Sid s = (rng >> 33) % 100 == 0 ? shapes[static_cast<size_t>((rng >> 40) % 64)] : shapes[0];
            l.components = {{fn, CS_ROLE_FUNCTION, gradFn, gradFn}, {types, CS_ROLE_TYPE, f32, f32},
                            {shape, CS_ROLE_SHAPE, s, s},            {gc, CS_ROLE_GRAPHCONST, gch, gch},
                            {wf, CS_ROLE_WORLD, w, w},               {wl, CS_ROLE_WORLD, w, w},
                            {accum, CS_ROLE_KEYWORD, one, one},      {lr, CS_ROLE_DEVICE, lrs[static_cast<size_t>(i & 255)], lrs[static_cast<size_t>(i & 255)]}};
            l.closure = {{helper, 31000 + i / 100000}};
            c.lookups.push_back(std::move(l));
        }
        for (std::int64_t i = 1; i * 100000 < n; ++i)
            c.methods.push_back({.id = i, .sessionId = 1, .tsNs = i * 100000 * 1000 - 1, .event = CS_METHOD_REDEFINE,
                                 .method = helper, .world = 31000 + i});
        return c;
    }();
    return f;
}

void BM_Replay(benchmark::State& state) {
    const auto& f = facts();
    std::int64_t misses = 0;
    for (auto _ : state) {
        auto r = cs::engine::replayCache(f);
        misses = r.total.misses;
        benchmark::DoNotOptimize(r.outcomes.data());
    }
    auto n = static_cast<double>(f.lookups.size());
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(f.lookups.size()));
    state.counters["lookups_per_s"] = benchmark::Counter(n * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
    state.counters["limit_per_s"] = 1e6;
    state.counters["misses"] = static_cast<double>(misses);
}
BENCHMARK(BM_Replay)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_ReplayAndAttribute(benchmark::State& state) {
    const auto& f = facts();
    for (auto _ : state) {
        auto r = cs::engine::replayCache(f);
        auto a = cs::engine::attributeMisses(f, r);
        benchmark::DoNotOptimize(a.misses.data());
    }
    auto n = static_cast<double>(f.lookups.size());
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(f.lookups.size()));
    state.counters["lookups_per_s"] = benchmark::Counter(n * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
    state.counters["limit_per_s"] = 1e6;
}
BENCHMARK(BM_ReplayAndAttribute)->Unit(benchmark::kMillisecond)->UseRealTime();

// The limit: build each lookup's key from its in-key components and find-or-insert it, nothing else.
struct VecHash {
    size_t operator()(const std::vector<Sid>& v) const noexcept {
        std::uint64_t h = 1469598103934665603ull;
        for (Sid x : v) h = (h ^ static_cast<std::uint64_t>(x)) * 1099511628211ull;
        return static_cast<size_t>(h);
    }
};

void BM_HashMapBaseline(benchmark::State& state) {
    const auto& f = facts();
    std::vector<Sid> key;
    for (auto _ : state) {
        std::unordered_map<std::vector<Sid>, std::int32_t, VecHash> map;
        std::int64_t inserted = 0;
        for (const auto& l : f.lookups) {
            key.clear();
            key.push_back(l.cache);
            key.push_back(l.program);
            for (const auto& c : l.components)
                if (c.inKey()) {
                    key.push_back(c.name);
                    key.push_back(c.digest);
                }
            auto it = map.find(key);
            if (it == map.end()) map.emplace(key, static_cast<std::int32_t>(inserted++));
        }
        benchmark::DoNotOptimize(inserted);
    }
    auto n = static_cast<double>(f.lookups.size());
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(f.lookups.size()));
    state.counters["lookups_per_s"] = benchmark::Counter(n * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_HashMapBaseline)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
