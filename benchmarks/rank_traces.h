// The 256 rank traces of one job that bench_ranks and bench_gui_ranks read (issue 22): 100k events
// each, as a distributed training job writes one trace per rank.
//
// The traces: spans on four tracks (a tenth of them compiles), two programs looked up every step
// with their keys, and two ranks that differ: rank 17 compiles a ragged shape at step 50 (a
// divergent program) and rank 200 compiles three times as long as the others (a slow rank).
// They are written once per machine under the temporary directory and reused.
#pragma once

#include "core/trace/writer.h"

#include <compilescope/trace_constants.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace bench_ranks {
constexpr int kRanks = 256;
constexpr std::int64_t kEventsPerRank = 100000;
constexpr std::int64_t kSteps = 100;

inline std::string rankPath(const std::filesystem::path& dir, int rank) {
    std::string name = "rank";
    name += std::to_string(rank);
    return (dir / name / "trace.cstrace").string();
}

inline void writeRank(const std::string& path, int rank) {
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
inline const std::vector<std::string>& rankTraces() {
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

}  // namespace bench_ranks
