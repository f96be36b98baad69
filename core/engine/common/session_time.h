// Session time bases: what kind of clock stands behind each session's timestamps.
//
// Why: a trace can hold a recorded job (a machine clock), an imported -ftime-trace (its own clock,
// from zero), a Warp verbose log (durations only, laid end to end by the importer) and a Julia
// invalidation list (no time at all). A share of wall time exists only where there is a wall
// clock; work laid end to end must never be drawn or summed as if it ran beside clocked work. The
// engine classifies each session once here and every view reads the class (docs/accounting.md).
#pragma once

#include <cstdint>
#include <string_view>

namespace cs::engine {

enum class TimeBase {
    Recorded,  // a machine clock shared by recorded sessions (CLOCK_MONOTONIC, ...)
    OwnClock,  // an imported file with timestamps of its own, counting from its own zero
    Sequence,  // durations without timestamps, laid end to end by the importer
    Untimed,   // no time at all (an invalidation list, a printed tree)
};

// "recorded clock", "own clock", "sequence only", "untimed".
const char* timeBaseName(TimeBase base);

// Whether timestamps of this base describe when work happened (a wall clock of some kind).
inline bool isClocked(TimeBase base) { return base == TimeBase::Recorded || base == TimeBase::OwnClock; }

// From the session's clock name and runtime. Importers write "sequence" or "untimed" as the clock of
// sessions without timestamps; traces written before that used "relative" for every import, so the
// importer's id (runtime "import:<id>") decides there.
TimeBase classifyTimeBase(std::string_view clock, std::string_view runtime);

// Clocks whose readings are comparable across sessions.
bool isSharedClock(std::string_view clock);

}  // namespace cs::engine
