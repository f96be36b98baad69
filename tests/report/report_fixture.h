// A trace holding every fact family the report renders, built through TraceWriter, with known counts.
// `name(i)` lets the hostile-names test put an attack string into every user-derived text column.
#pragma once

#include "core/trace/writer.h"

#include <compilescope/trace_constants.h>

#include <functional>
#include <string>

namespace cs::test {

// What the fixture holds, for assertions.
struct FixtureCounts {
    int misses = 4;             // gradient (first), optimizer (first), gradient shape change, eval (first)
    int lookups = 8;
    int moduleNames = 3;        // warp.sim, warp.render, warp.utils
    int repeatedModules = 2;    // warp.sim: 3 hashes; warp.render: 2 block_dims
    int invalidationItems = 8;  // one insertion, as Julia <= 1.11 logs it
    int invalidationRoots = 1;  // inserting show(io::IO, ::Type{<:Tracker.TrackedReal})
    int invalidationNodes = 4;  // root, its backedge, the caller, Enzyme.__init__()
    int phaseGroups = 3;        // cicc, ptxas, fatbinary
    int kernelLaunches = 3;
};

// `label(kind, default)` returns the text to store for a user-derived string; the default fixture
// passes `default` through.
using Labeler = std::function<std::string(const std::string& kind, const std::string& fallback)>;

inline FixtureCounts writeReportFixture(const std::string& path, const Labeler& label = nullptr,
                                        std::int64_t timeScale = 1) {
    using namespace cs::trace;
    auto L = [&](const std::string& kind, const std::string& def) { return label ? label(kind, def) : def; };
    TraceWriter w(path, {.overwrite = true});
    auto I = [&](const std::string& kind, const std::string& def) { return w.intern(L(kind, def)); };
    const std::int64_t ms = 1000000 * timeScale;
    auto sess = w.addSession({.pid = 4242, .host = I("host", "gpu-node-7"), .cmdline = I("cmdline", "julia train.jl"),
                              .runtime = I("runtime", "julia"), .startNs = 0});
    auto track = w.addTrack({.sessionId = sess, .kind = CS_TRACK_THREAD, .tid = 1, .name = I("track", "main")});
    // Three training steps; a compile span per miss.
    for (int s = 1; s <= 3; ++s) {
        w.addStep({.sessionId = sess, .trackId = track, .tsNs = (s - 1) * 1000 * ms, .step = s, .label = I("step", "train")});
        w.addSpan({.trackId = track, .startNs = (s - 1) * 1000 * ms, .durNs = 900 * ms, .category = CS_CAT_STEP,
                   .name = I("span", "train step")});
    }
    struct Lookup {
        const char* program;
        int step;
        int verdict;
        const char* shape;
        const char* device;  // a Device field: changes every step, not in the key
    };
    const Lookup lookups[] = {
        {"gradient", 1, CS_VERDICT_MISS, "128x64", "d1"}, {"optimizer", 1, CS_VERDICT_MISS, "128x64", "d1"},
        {"gradient", 2, CS_VERDICT_HIT, "128x64", "d2"},  {"optimizer", 2, CS_VERDICT_HIT, "128x64", "d2"},
        {"gradient", 3, CS_VERDICT_MISS, "100x64", "d3"}, {"optimizer", 3, CS_VERDICT_HIT, "128x64", "d3"},
        {"eval", 3, CS_VERDICT_MISS, "100x64", "d3"},     {"eval", 3, CS_VERDICT_HIT, "100x64", "d4"},
    };
    int index = 0;
    for (const auto& l : lookups) {
        std::int64_t ts = (l.step - 1) * 1000 * ms + 10 * ms + 5 * ms * index++;
        bool miss = l.verdict == CS_VERDICT_MISS;
        auto id = w.addCacheLookup({.sessionId = sess, .trackId = track, .tsNs = ts,
                                    .cache = I("cache", "ReactantNitro.program_cache"), .program = I("program", l.program),
                                    .handle = I("handle", "nitro#1"), .verdict = l.verdict,
                                    .compileNs = miss ? std::optional<std::int64_t>(120 * ms) : std::nullopt,
                                    .fingerprint = I("fingerprint", std::string("fp:") + l.program), .step = l.step});
        w.addKeyComponent({.lookupId = id, .ordinal = 0, .name = I("component", "function"), .role = CS_ROLE_FUNCTION,
                           .digest = I("digest", std::string("f:") + l.program), .value = I("value", l.program)});
        w.addKeyComponent({.lookupId = id, .ordinal = 1, .name = I("component", "shape of arg 2"), .role = CS_ROLE_SHAPE,
                           .digest = I("digest", std::string("s:") + l.shape), .value = I("value", l.shape)});
        w.addKeyComponent({.lookupId = id, .ordinal = 2, .name = I("component", "lr"), .role = CS_ROLE_DEVICE,
                           .digest = I("digest", l.device), .value = I("value", l.device)});
        if (miss)
            w.addSpan({.trackId = track, .startNs = ts, .durNs = 120 * ms, .category = CS_CAT_COMPILE,
                       .name = I("span", l.program)});
    }
    // The runtime's own counters, disagreeing with the replay (4 entries): reported as such.
    for (auto [name, value] : {std::pair{"hits", 4}, {"misses", 4}, {"entries", 3}})
        w.addCounter({.sessionId = sess, .tsNs = 2900 * ms, .scope = I("cache", "ReactantNitro.program_cache"),
                      .name = w.intern(name), .value = value});
    // Warp-style modules: warp.sim under three hashes, warp.render at two block_dims, warp.utils cached.
    struct Load {
        const char* name;
        const char* hash;
        int blockDim;
        int result;
        std::int64_t durMs;
    };
    const Load loads[] = {{"warp.sim", "a1b2c3d", 256, CS_MODULE_COMPILED, 400},
                          {"warp.render", "5e6f708", 128, CS_MODULE_COMPILED, 300},
                          {"warp.sim", "9f8e7d6", 256, CS_MODULE_COMPILED, 410},
                          {"warp.render", "5e6f708", 256, CS_MODULE_COMPILED, 310},
                          {"warp.utils", "0a0b0c0", 256, CS_MODULE_CACHED, 5},
                          {"warp.sim", "1234567", 256, CS_MODULE_COMPILED, 420}};
    std::int64_t at = 50 * ms;
    for (const auto& l : loads) {
        w.addModuleLoad({.sessionId = sess, .trackId = track, .startNs = at, .durNs = l.durMs * ms,
                         .name = I("module", l.name), .hash = I("hash", l.hash), .device = I("device", "cuda:0"),
                         .blockDim = l.blockDim, .result = l.result, .compileNs = l.durMs * ms * 9 / 10,
                         .origin = I("origin", "warp.log:12")});
        at += (l.durMs + 30) * ms;
    }
    // NVRTC programs and kernel launches.
    for (int i = 0; i < 2; ++i)
        w.addCudaProgram({.sessionId = sess, .trackId = track, .api = CS_CUDA_NVRTC, .startNs = (1100 + 300 * i) * ms,
                          .durNs = 80 * ms, .name = I("kernel", "saxpy.cu"), .result = 0});
    for (int i = 0; i < 3; ++i)
        w.addKernelLaunch({.sessionId = sess, .trackId = track, .startNs = (1200 + 400 * i) * ms, .durNs = 2 * ms,
                           .name = I("kernel", "saxpy"), .gridX = 256, .gridY = 1, .gridZ = 1, .blockX = 256,
                           .blockY = 1, .blockZ = 1});
    // Julia invalidation log (Julia <= 1.11: one list, RPN, docs/formats.md 1.1), the Enzyme.jl #776 case (docs/invalidations.md) story: a
    // package defines show on a Type, superseding a specialization that Enzyme.__init__ reaches.
    const char* items[][2] = {{"mi", "MethodInstance for Enzyme.Compiler.register_handlers()"},
                              {"int", "1"},
                              {"mi", "MethodInstance for Enzyme.__init__()"},
                              {"int", "2"},
                              {"mi", "MethodInstance for show(::IOBuffer, ::Type)"},
                              {"tag", "\"jl_method_table_insert\""},
                              {"method", "show(io::IO, ::Type{<:Tracker.TrackedReal}) @ Tracker lib.jl:96"},
                              {"tag", "\"jl_method_table_insert\""}};
    for (int i = 0; i < 8; ++i) {
        std::string k = items[i][0];
        int kind = k == "mi" ? CS_INVITEM_METHOD_INSTANCE : k == "int" ? CS_INVITEM_INT : k == "tag" ? CS_INVITEM_TAG
                                                                                                      : CS_INVITEM_METHOD;
        w.addInvalidationItem({.sessionId = sess, .list = CS_INVLIST_METHODS, .ordinal = i, .kind = kind,
                               .text = I("invalidation", items[i][1])});
    }
    // @time_imports: Enzyme.__init__ spent 1.8 s recompiling (the cost the tree root carries).
    auto init = w.addSpan({.trackId = track, .startNs = 0, .durNs = 1900 * ms, .category = CS_CAT_INIT,
                           .name = I("init", "Enzyme.__init__()")});
    w.addSpanArg(init, w.intern("recompile_ns"), std::int64_t{1800} * ms);
    // nvcc --time phases: cicc twice (two inputs), ptxas, fatbinary.
    const std::pair<const char*, std::int64_t> phases[] = {{"cicc", 379}, {"ptxas", 54}, {"cicc", 310}, {"fatbinary", 8}};
    std::int64_t pt = 2000 * ms;
    for (const auto& [phase, durMs] : phases) {
        w.addPhaseTiming({.sessionId = sess, .tool = CS_PHASE_TOOL_NVCC, .input = I("input", "saxpy.cu"),
                          .phase = I("phase", phase), .arch = I("arch", "sm_90"), .startNs = pt, .durNs = durMs * ms});
        pt += durMs * ms;
    }
    w.addStat(sess, L("stat", "malformed_line"), L("stat-source", "import:warp-log"), 2, L("stat-detail", "line 7: bad"));
    w.endSession(sess, 3000 * ms, 0);
    w.finalize();
    return {};
}

}  // namespace cs::test
