// Writes small, fully known traces with the real TraceWriter, for the GUI tests and benchmarks.
//
// writeDemoTrace(): three runtimes side by side (a Julia/Reactant-like training run with steps,
// cache lookups and a recompile at step 4; a Warp-like session with a module built under two
// hashes; an NVRTC session), plus untimed nvcc phases. Every number the tests assert is derived
// from the constants below, so a test that fails names a real difference.
// writeSyntheticTrace(): n spans on a few threads, nested two deep, for tests that need a big trace
// (the viewer benchmarks record theirs with the real collector: benchmarks/gui_trace_job.c).
#pragma once

#include "core/trace/writer.h"

#include <compilescope/trace_constants.h>

#include <cstdint>
#include <string>

namespace cs::test::demo {

constexpr std::int64_t kMs = 1000000;
constexpr std::int64_t kS = 1000 * kMs;
// Julia session: compile spans (top-level) gradient [1.0, 4.0) s, optimizer [4.0, 4.5) s,
// gradient again [6.2, 7.2) s; an inference child inside the first. Lifetime [0, 10) s.
constexpr std::int64_t kJuliaCompileNs = 3 * kS + 500 * kMs + 1 * kS;
constexpr int kJuliaSteps = 5;
constexpr int kLookups = 7;
constexpr int kMisses = 3;
constexpr int kInvalidationChildren = 5;  // descendants of the one invalidation tree's root
// Warp session, lifetime [0, 5) s: warp.sim compiled [0.5, 1.5) s and [2.0, 3.0) s, kernels cached.
constexpr std::int64_t kWarpCompileNs = 2 * kS;
constexpr int kModuleLoads = 3;
// NVRTC session, lifetime [0, 1) s: saxpy compiled [0.1, 0.4) s.
constexpr std::int64_t kNvrtcNs = 300 * kMs;
// Untimed nvcc phases (top-level) in the NVRTC session.
constexpr std::int64_t kPhaseNs = 50 * kMs;
// The union: Warp [0.5, 1.5) joins Julia [1, 4) -> [0.5, 4.5) 4 s, + [6.2, 7.2) 1 s, + NVRTC 0.3 s, + phases.
constexpr std::int64_t kTotalCompileNs = 5 * kS + 300 * kMs + kPhaseNs;
constexpr std::int64_t kWallNs = 10 * kS;
// The cached module load "kernels" [3.0, 3.1) s: cache-load time, not compile time.
constexpr std::int64_t kCacheLoadNs = 100 * kMs;

inline void writeDemoTrace(const std::string& path) {
    using namespace cs::trace;
    TraceWriter w(path, {.overwrite = true});
    // --- Julia / Reactant-like training run --------------------------------------------------------
    // Recorded sessions: one machine clock.
    const auto clock = w.intern("CLOCK_MONOTONIC");
    auto julia = w.addSession({.pid = 100, .runtime = w.intern("julia"), .clock = clock, .startNs = 0, .endNs = 10 * kS});
    auto main = w.addTrack({.sessionId = julia, .kind = CS_TRACK_THREAD, .tid = 100, .name = w.intern("main")});
    auto grad = w.intern("gradient"), opt = w.intern("optimizer");
    w.addSpan({.trackId = main, .startNs = 1 * kS, .durNs = 3 * kS, .category = CS_CAT_COMPILE, .name = w.intern("compile gradient")});
    w.addSpan({.trackId = main, .startNs = 1 * kS, .durNs = 1 * kS, .category = CS_CAT_INFERENCE, .name = w.intern("infer gradient")});
    w.addSpan({.trackId = main, .startNs = 4 * kS, .durNs = 500 * kMs, .category = CS_CAT_COMPILE, .name = w.intern("compile optimizer")});
    w.addSpan({.trackId = main, .startNs = 6200 * kMs, .durNs = 1 * kS, .category = CS_CAT_COMPILE, .name = w.intern("compile gradient")});
    for (int s = 1; s <= kJuliaSteps; ++s) {
        std::int64_t t = (s == 1 ? 1 : s + 3) * kS;  // steps at 1, 5, 6, 7, 8 s
        w.addStep({.sessionId = julia, .tsNs = t, .step = s, .label = w.intern("train")});
    }
    // Each miss carries the compile time of the span it started (so the union counts it once).
    struct L { std::int64_t ts; StringId program; int verdict; std::int64_t step; const char* shape; std::int64_t compileNs; };
    const L lookups[kLookups] = {
        {1 * kS, grad, CS_VERDICT_MISS, 1, "128x64", 3 * kS}, {4 * kS, opt, CS_VERDICT_MISS, 1, "64", 500 * kMs},
        {5 * kS, grad, CS_VERDICT_HIT, 2, "128x64", 0},       {5100 * kMs, opt, CS_VERDICT_HIT, 2, "64", 0},
        {6 * kS, grad, CS_VERDICT_HIT, 3, "128x64", 0},       {6200 * kMs, grad, CS_VERDICT_MISS, 4, "100x64", 1 * kS},
        {7300 * kMs, opt, CS_VERDICT_HIT, 4, "64", 0}};
    for (const L& l : lookups) {
        auto id = w.addCacheLookup({.sessionId = julia, .trackId = main, .tsNs = l.ts, .cache = w.intern("Nitro"),
                                    .program = l.program, .handle = w.intern("h1"), .verdict = l.verdict,
                                    .compileNs = l.verdict == CS_VERDICT_MISS ? OptInt(l.compileNs) : OptInt{}, .step = l.step});
        w.addKeyComponent({.lookupId = id, .ordinal = 0, .name = w.intern("shape of arg 2"), .role = CS_ROLE_SHAPE,
                           .digest = w.intern(std::string("d-") + l.shape), .value = w.intern(l.shape)});
    }
    // A Julia invalidation log (jl_debug_method_invalidation, as the collector stores it raw): one
    // method insertion whose backedge root r() has callers c1 <- c11 <- c111 and c2 <- c21.
    struct Item { int kind; const char* text; };
    const Item items[] = {
        {CS_INVITEM_METHOD_INSTANCE, "MethodInstance for c1()"}, {CS_INVITEM_INT, "1"},
        {CS_INVITEM_METHOD_INSTANCE, "MethodInstance for c11()"}, {CS_INVITEM_INT, "2"},
        {CS_INVITEM_METHOD_INSTANCE, "MethodInstance for c111()"}, {CS_INVITEM_INT, "3"},
        {CS_INVITEM_METHOD_INSTANCE, "MethodInstance for c2()"}, {CS_INVITEM_INT, "1"},
        {CS_INVITEM_METHOD_INSTANCE, "MethodInstance for c21()"}, {CS_INVITEM_INT, "2"},
        {CS_INVITEM_METHOD_INSTANCE, "MethodInstance for r()"}, {CS_INVITEM_TAG, "\"jl_method_table_insert\""},
        {CS_INVITEM_METHOD, "show(io::IO, ::Type{MyType}) @ MyPkg ~/MyPkg/src/show.jl:3"},
        {CS_INVITEM_TAG, "\"jl_method_table_insert\""}};
    std::int64_t ordinal = 0;
    for (const Item& it : items)
        w.addInvalidationItem({.sessionId = julia, .list = CS_INVLIST_METHODS, .ordinal = ordinal++, .kind = it.kind,
                               .text = w.intern(it.text)});
    // --- Warp-like module loads ----------------------------------------------------------------------
    auto warp = w.addSession({.pid = 200, .runtime = w.intern("warp"), .clock = clock, .startNs = 0, .endNs = 5 * kS});
    auto sim = w.intern("warp.sim");
    auto m1 = w.addModuleLoad({.sessionId = warp, .startNs = 500 * kMs, .durNs = 1 * kS, .name = sim, .hash = w.intern("aaaaaaa"),
                               .device = w.intern("cuda:0"), .blockDim = 256, .result = CS_MODULE_COMPILED});
    auto m2 = w.addModuleLoad({.sessionId = warp, .startNs = 2 * kS, .durNs = 1 * kS, .name = sim, .hash = w.intern("bbbbbbb"),
                               .device = w.intern("cuda:0"), .blockDim = 128, .result = CS_MODULE_COMPILED});
    w.addModuleLoad({.sessionId = warp, .startNs = 3 * kS, .durNs = 100 * kMs, .name = w.intern("kernels"),
                     .hash = w.intern("ccccccc"), .device = w.intern("cuda:0"), .blockDim = 256, .result = CS_MODULE_CACHED});
    for (auto m : {m1, m2}) w.addModuleKernel({.loadId = m, .kernel = w.intern("integrate"), .digest = w.intern("k1")});
    w.addModuleOption({.loadId = m2, .key = w.intern("fast_math"), .value = w.intern("True")});
    // --- NVRTC ---------------------------------------------------------------------------------------
    auto nvrtc = w.addSession({.pid = 300, .runtime = w.intern("nvrtc"), .clock = clock, .startNs = 0, .endNs = 1 * kS});
    w.addCudaProgram({.sessionId = nvrtc, .api = CS_CUDA_NVRTC, .startNs = 100 * kMs, .durNs = 300 * kMs,
                      .name = w.intern("saxpy.cu"), .result = 0});
    w.addPhaseTiming({.sessionId = nvrtc, .tool = CS_PHASE_TOOL_NVCC, .phase = w.intern("cicc"), .durNs = kPhaseNs});
    w.finalize();
}

// n spans over `threads` threads: each top-level span of 1 us has one child of 0.5 us, 1 us apart.
inline void writeSyntheticTrace(const std::string& path, std::int64_t n, int threads = 4) {
    using namespace cs::trace;
    TraceWriter w(path, {.overwrite = true, .rowsPerTransaction = 1000000});
    auto ses = w.addSession({.pid = 1, .runtime = w.intern("synthetic"), .startNs = 0});
    std::int64_t names[8];
    for (int i = 0; i < 8; ++i) names[i] = w.intern("kernel_" + std::to_string(i));
    std::int64_t perThread = n / threads / 2;
    for (int t = 0; t < threads; ++t) {
        auto track = w.addTrack({.sessionId = ses, .kind = CS_TRACK_THREAD, .tid = t + 1});
        for (std::int64_t i = 0; i < perThread; ++i) {
            std::int64_t start = i * 2000 + t * 100;
            w.addSpan({.trackId = track, .startNs = start, .durNs = 1000, .category = CS_CAT_COMPILE, .name = names[i % 8]});
            w.addSpan({.trackId = track, .startNs = start + 100, .durNs = 500, .category = CS_CAT_CODEGEN, .name = names[(i + 1) % 8]});
        }
    }
    w.finalize();
}

}  // namespace cs::test::demo
