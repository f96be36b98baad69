// The guide's measurement protocol for Warp cold starts: isolated cold samples, each followed by a
// warm re-run against the cache it populated.
//
// Why this shape (the Warp guide (docs/warp.md), "Find the real cost" and references/measurement.md): a cold number is
// only evidence when the caches were really empty, so every sample gets private WARP_CACHE_PATH,
// WARP_CACHE_ROOT and CUDA_CACHE_PATH directories under the system temp dir, never the user's caches
// (isolating only Warp's cache lets the driver's compute cache donate work); the directories are
// removed after the sample, so measuring never requires deleting a live cache. The warm pass is not
// optional: it separates a cold-start cost from a per-run one (cache not reused) and supplies the
// warm wall clock, so compile elapsed = cold wall - warm wall does not double-count overlapped
// builds. Build times have outliers, so samples are summarised by median and MAD. The JSON report
// uses the probe's keys, so `compare` and the warp-probe importer read either tool's reports.
#pragma once

#include "core/util/json_reader.h"

#include <chrono>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace cs::engine::warp {


// What one run's output says about module work.
struct LogSummary {
    double compiledMs = 0, allModuleMs = 0, nativeMs = 0;
    int compiled = 0, cached = 0, errors = 0;
    int identities = 0, modules = 0;  // distinct compiled (name+hash, device, block_dim) / names
    struct Event {
        std::string label, name, hash, device, status;
        std::optional<std::int64_t> blockDim;
        double ms = 0;
    };
    std::vector<Event> events{};
};
LogSummary summariseWarpOutput(std::istream& in);

struct RunRecord {
    int sample = 0;
    std::string phase;  // "cold" or "warm"
    int exitCode = 0;
    bool timedOut = false;
    double wallMs = 0;
    LogSummary log{};
    std::int64_t warpCacheFiles = 0, cudaCacheFiles = 0;  // after the run
};

struct SampleIsolation {
    std::string scratch, warpCache, cudaCache;
    bool removed = false;
};

struct MeasureOptions {
    std::vector<std::string> command;
    int samples = 3;
    std::chrono::milliseconds timeout{900000};
    std::string label;
    bool instrumentPython = true;  // inject the sitecustomize that enables Warp timers and records launches
};

struct MeasureReport {
    MeasureOptions options;
    std::vector<RunRecord> runs;
    std::vector<SampleIsolation> isolation;
    std::string cwd;
    int failedSamples = 0;
    double coldMedian = 0, coldMad = 0, nativeMedian = 0;
    std::vector<double> coldValues, coldWallValues;
    std::optional<double> warmMedian, warmWallMedian, elapsedMedian, elapsedMad, overlap;
    double coldWallMedian = 0, coldWallMad = 0;
    LogSummary reference;  // first successful cold run
    std::int64_t sourceBytes = 0, ltoArtifacts = 0, ltoBytes = 0;
    util::JsonValue launches;  // array of the reference run's recorded launches (empty when none)
};

// Runs the protocol; `progress` gets one line per run. Throws std::runtime_error when no sample ran.
MeasureReport measure(const MeasureOptions& options, std::ostream& progress);

void writeMeasureJson(const MeasureReport& r, std::ostream& out);
void printMeasureReport(const MeasureReport& r, std::ostream& out);

}  // namespace cs::engine::warp
