// Typed rows of trace format v1, one struct per table (see schema.cpp for the columns' meaning).
//
// Why plain structs: importers, the recorder and tests fill them with designated initializers, so a
// missing or misnamed field is a compile error rather than a silently shifted column. String columns
// hold ids from TraceWriter::intern(); 0 means NULL. Optional integers are NULL when empty.
#pragma once

#include <compilescope/trace_constants.h>

#include <cstdint>
#include <optional>
#include <string>

namespace cs::trace {

using StringId = std::int64_t;  // strings.id; 0 = no string
using OptInt = std::optional<std::int64_t>;

struct SessionRecord {
    OptInt pid{}, ppid{}, parentSessionId{};
    StringId host = 0, cmdline = 0, runtime = 0, source = 0, clock = 0;
    OptInt startNs{}, endNs{}, exitStatus{};
};

struct TrackRecord {
    std::int64_t sessionId = 0;
    int kind = CS_TRACK_THREAD;
    OptInt tid{};
    StringId name = 0;
    OptInt parentTrackId{};
};

struct SpanRecord {
    std::int64_t trackId = 0;
    std::int64_t startNs = 0;
    OptInt durNs{};
    int category = CS_CAT_OTHER;
    StringId name = 0;
    StringId detail = 0;  // what it ran on (a file, a function); 0 = none
};

struct StepRecord {
    std::int64_t sessionId = 0;
    OptInt trackId{};
    std::int64_t tsNs = 0;
    std::int64_t step = 0;
    OptInt epoch{};
    StringId label = 0;
};

struct CacheLookupRecord {
    std::int64_t sessionId = 0;
    OptInt trackId{};
    std::int64_t tsNs = 0;
    StringId cache = 0, program = 0, handle = 0;
    int verdict = CS_VERDICT_UNKNOWN;
    OptInt compileNs{};
    StringId fingerprint = 0;
    OptInt step{};
};

struct KeyComponentRecord {
    std::int64_t lookupId = 0;
    std::int64_t ordinal = 0;
    StringId name = 0;
    int role = CS_ROLE_OTHER;
    StringId digest = 0, value = 0;
};

struct CounterRecord {
    std::int64_t sessionId = 0;
    std::int64_t tsNs = 0;
    StringId scope = 0, name = 0;
    std::int64_t value = 0;
};

struct MethodRecord {
    std::int64_t sessionId = 0;
    OptInt tsNs{};
    int event = CS_METHOD_DEFINE;
    StringId method = 0, signature = 0, module = 0, file = 0;
    OptInt line{}, world{};
};

struct ClosureRecord {
    std::int64_t lookupId = 0;
    StringId method = 0;
    OptInt world{};
};

struct InvalidationItemRecord {
    std::int64_t sessionId = 0;
    int list = CS_INVLIST_METHODS;
    std::int64_t ordinal = 0;
    int kind = CS_INVITEM_OTHER;
    StringId text = 0;
};

struct ModuleLoadRecord {
    std::int64_t sessionId = 0;
    OptInt trackId{}, startNs{}, durNs{};
    StringId name = 0, hash = 0, device = 0;
    OptInt blockDim{};
    int result = CS_MODULE_UNKNOWN;
    OptInt compileNs{}, sourceBytes{}, ltoArtifacts{};
    StringId origin = 0;
};

struct ModuleOptionRecord {
    std::int64_t loadId = 0;
    StringId key = 0, value = 0;
};

struct ModuleKernelRecord {
    std::int64_t loadId = 0;
    StringId kernel = 0, digest = 0, generic = 0;
};

struct CudaProgramRecord {
    std::int64_t sessionId = 0;
    OptInt trackId{};
    int api = CS_CUDA_NVRTC;
    std::int64_t startNs = 0;
    OptInt durNs{};
    StringId name = 0, sourceDigest = 0;
    OptInt result{}, logBytes{}, outputBytes{};
};

struct CudaProgramOptionRecord {
    std::int64_t programId = 0;
    std::int64_t ordinal = 0;
    StringId option = 0;
};

struct CudaProgramInputRecord {
    std::int64_t programId = 0;
    std::int64_t ordinal = 0;
    StringId kind = 0, name = 0;
    OptInt bytes{};
};

struct CudaJitRecord {
    std::int64_t sessionId = 0;
    OptInt startNs{}, durNs{};
    int entryType = CS_JIT_ENTRY_INVALID;
    int operation = CS_JIT_OP_INVALID;
    OptInt device{}, correlationId{}, jitCorrelationId{};
    StringId cachePath = 0;
    OptInt cacheBytes{};
};

struct CudaModuleRecord {
    std::int64_t sessionId = 0;
    std::int64_t tsNs = 0;
    int op = CS_CUDA_MODULE_LOAD;
    OptInt moduleId{}, cubinBytes{};
    StringId digest = 0;
};

struct KernelLaunchRecord {
    std::int64_t sessionId = 0;
    OptInt trackId{};
    std::int64_t startNs = 0;
    OptInt durNs{};
    StringId name = 0;
    OptInt gridX{}, gridY{}, gridZ{}, blockX{}, blockY{}, blockZ{}, sharedBytes{}, stream{}, correlationId{};
};

struct PhaseTimingRecord {
    std::int64_t sessionId = 0;
    int tool = CS_PHASE_TOOL_OTHER;
    StringId input = 0, phase = 0, arch = 0;
    OptInt startNs{};
    std::int64_t durNs = 0;
    OptInt parentId{};
};

struct FlowRecord {
    std::int64_t fromSpanId = 0, toSpanId = 0;
    StringId name = 0;
};

}  // namespace cs::trace
