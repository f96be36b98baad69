#include "core/engine/common/session_time.h"

namespace cs::engine {

const char* timeBaseName(TimeBase base) {
    switch (base) {
    case TimeBase::Recorded: return "recorded clock";
    case TimeBase::OwnClock: return "own clock";
    case TimeBase::Sequence: return "sequence only";
    case TimeBase::Untimed: return "untimed";
    }
    return "untimed";
}

bool isSharedClock(std::string_view clock) {
    return clock == "CLOCK_MONOTONIC" || clock == "CLOCK_MONOTONIC_RAW" || clock == "CLOCK_BOOTTIME" ||
           clock == "CLOCK_REALTIME";
}

TimeBase classifyTimeBase(std::string_view clock, std::string_view runtime) {
    if (isSharedClock(clock)) return TimeBase::Recorded;
    if (clock == "sequence") return TimeBase::Sequence;
    if (clock == "untimed") return TimeBase::Untimed;
    // Importers whose formats print durations but no timestamps (docs/formats.md).
    for (std::string_view id : {"import:warp-log", "import:warp-probe", "import:nvcc-time", "import:julia-timing"})
        if (runtime == id) return TimeBase::Sequence;
    for (std::string_view id : {"import:julia-invalidations", "import:julia-trees"})
        if (runtime == id) return TimeBase::Untimed;
    return TimeBase::OwnClock;
}

}  // namespace cs::engine
