// Saturating integer arithmetic for values read from outside (trace files, imported logs): a sum of
// durations or a start plus a duration near the int64 limit clamps instead of overflowing.
#pragma once

#include <cstdint>
#include <limits>

namespace cs::util {

inline std::int64_t satAdd(std::int64_t a, std::int64_t b) {
    std::int64_t r;
    if (__builtin_add_overflow(a, b, &r)) return b > 0 ? std::numeric_limits<std::int64_t>::max() : std::numeric_limits<std::int64_t>::min();
    return r;
}

inline std::int64_t satSub(std::int64_t a, std::int64_t b) {
    std::int64_t r;
    if (__builtin_sub_overflow(a, b, &r)) return b < 0 ? std::numeric_limits<std::int64_t>::max() : std::numeric_limits<std::int64_t>::min();
    return r;
}

}  // namespace cs::util
