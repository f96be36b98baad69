// A mixed 1M-event trace for the benchmarks that read whole traces (report, diff): spans on several
// tracks and categories, cache lookups with keys (a miss every 50), module loads with churning
// hashes, launches, NVRTC programs, phases and invalidation items. `variant` 1 is the same run after a
// change: a miss every 40 lookups and another hash for a tenth of the modules, for diff's benchmark.
#pragma once

#include "core/trace/writer.h"

#include <compilescope/trace_constants.h>

#include <filesystem>
#include <string>

namespace cs::bench {

inline constexpr std::int64_t kEvents = 1000000;

// prefix + number, appended (GCC 12 warns falsely on "x" + std::string at -O3).
inline std::string label(const char* prefix, std::int64_t n) {
    std::string s(prefix);
    s += std::to_string(n);
    return s;
}

inline std::string writeMillionEventTrace(int variant = 0) {
    using namespace cs::trace;
    auto p = (std::filesystem::temp_directory_path() / label("bench-1m-", variant)).string() + ".cstrace";
    TraceWriter w(p, {.overwrite = true});
    auto sess = w.addSession({.runtime = w.intern("bench"), .startNs = 0});
    std::int64_t tracks[4];
    for (auto& t : tracks) t = w.addTrack({.sessionId = sess});
    StringId names[64];
    for (int i = 0; i < 64; ++i) names[i] = w.intern(label("name_", i));
    const int cats[] = {CS_CAT_COMPILE, CS_CAT_INFERENCE, CS_CAT_CODEGEN, CS_CAT_LAUNCH};
    const std::int64_t missEvery = variant ? 40 : 50;
    std::int64_t n = 0;
    for (std::int64_t i = 0; i < 690000; ++i, ++n)
        w.addSpan({.trackId = tracks[i & 3], .startNs = i * 1000, .durNs = 700, .category = cats[(i >> 2) & 3],
                   .name = names[i & 63]});
    StringId programs[3] = {w.intern("gradient"), w.intern("optimizer"), w.intern("eval")};
    StringId shape = w.intern("shape of arg 2"), device = w.intern("lr");
    for (std::int64_t i = 0; i < 100000; ++i, ++n) {
        bool miss = i % missEvery == 0;
        auto id = w.addCacheLookup({.sessionId = sess, .tsNs = i * 6900, .program = programs[i % 3],
                                    .verdict = miss ? CS_VERDICT_MISS : CS_VERDICT_HIT,
                                    .compileNs = miss ? std::optional<std::int64_t>(5000) : std::nullopt,
                                    .step = i / 100 + 1});
        auto v = w.intern(std::to_string(128 - (i / missEvery) % 64) + "x64");
        w.addKeyComponent({.lookupId = id, .ordinal = 0, .name = shape, .role = CS_ROLE_SHAPE, .digest = v, .value = v});
        w.addKeyComponent({.lookupId = id, .ordinal = 1, .name = device, .role = CS_ROLE_DEVICE, .digest = names[i & 63]});
    }
    StringId cuda0 = w.intern("cuda:0");
    for (std::int64_t i = 0; i < 100000; ++i, ++n) {
        const std::int64_t m = i % 2000;
        w.addModuleLoad({.sessionId = sess, .startNs = i * 6900, .durNs = 3000, .name = w.intern(label("mod_", m)),
                         .hash = w.intern(label(variant && m % 10 == 0 ? "g" : "h", m) + label("_", i % 7)),
                         .device = cuda0, .blockDim = 128 << (i % 2),
                         .result = i % 3 ? CS_MODULE_CACHED : CS_MODULE_COMPILED});
    }
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
}

}  // namespace cs::bench
