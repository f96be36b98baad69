// The timeline's runtime lanes: the one list of their tables and names.
//
// Why one list: the GUI's timeline (timeline_data.h), the report's digest (timeline_digest.h) and
// the Perfetto export (export/tef_export.h) each draw a lane per runtime table. Named in three
// places, they drifted ("NVRTC programs" in the report, "NVRTC / nvJitLink" on the timeline); each
// now takes its lane's name from here, and the report adds only what it splits a lane by
// ("module loads: compiled").
#pragma once

#include <cstddef>
#include <cstdint>

namespace cs::engine {

// The table a lane's row ids point into. Spans: a track's own lane, named for its track ("thread
// 4121"). LookupCompiles: the compile a cache lookup reports (compile_ns) where no compile span of
// its session covers it, drawn from the lookup's time for that long (issue 39: a cost otherwise only
// a tick).
enum class LaneSource : std::uint8_t { Spans, ModuleLoads, CudaPrograms, CudaJit, KernelLaunches, PhaseTimings, LookupCompiles };

struct LaneKind {
    LaneSource source;
    const char* table;  // the trace table its rows come from
    const char* name;   // the lane's name on every surface
};

// Every lane source, in the order the timeline reads them; kLaneKinds[i].source == LaneSource(i).
inline constexpr LaneKind kLaneKinds[] = {
    {LaneSource::Spans, "spans", "spans"},
    {LaneSource::ModuleLoads, "module_loads", "module loads"},
    {LaneSource::CudaPrograms, "cuda_programs", "NVRTC / nvJitLink"},
    {LaneSource::CudaJit, "cuda_jit", "driver JIT"},
    {LaneSource::KernelLaunches, "kernel_launches", "kernel launches"},
    {LaneSource::PhaseTimings, "phase_timings", "compiler phases"},
    {LaneSource::LookupCompiles, "cache_lookups", "compiles (from cache lookups)"},
};

constexpr const LaneKind& laneKind(LaneSource s) { return kLaneKinds[static_cast<std::size_t>(s)]; }
// The table a lane's row ids point into ("module_loads").
constexpr const char* laneSourceTable(LaneSource s) { return laneKind(s).table; }
// The name of a runtime lane ("module loads"), as the timeline, the report and the export show it.
constexpr const char* laneName(LaneSource s) { return laneKind(s).name; }

static_assert(sizeof(kLaneKinds) / sizeof(kLaneKinds[0]) == static_cast<std::size_t>(LaneSource::LookupCompiles) + 1,
              "one LaneKind per LaneSource");
static_assert(laneKind(LaneSource::LookupCompiles).source == LaneSource::LookupCompiles, "kLaneKinds in LaneSource order");

}  // namespace cs::engine
