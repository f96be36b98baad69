// Saturating and checked integer arithmetic for values read from outside (trace files, imported
// logs). Why: a foreign integer is untrusted, and signed overflow in C++ is undefined behaviour, not
// a wrap: a TEF pid near 1e13 times a hash constant, a start plus a duration near the int64 limit,
// or a negated INT64_MIN once printed "-1 ns" in release builds and stopped UBSan builds. Every
// place where such a value meets + - * or negation uses one of these; importers that must tell the
// user use the checked forms and count the clamp in `stats`.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>

namespace cs::util {

inline constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();
inline constexpr std::int64_t kInt64Min = std::numeric_limits<std::int64_t>::min();

inline std::int64_t satAdd(std::int64_t a, std::int64_t b) {
    std::int64_t r;
    if (__builtin_add_overflow(a, b, &r)) return b > 0 ? kInt64Max : kInt64Min;
    return r;
}

inline std::int64_t satSub(std::int64_t a, std::int64_t b) {
    std::int64_t r;
    if (__builtin_sub_overflow(a, b, &r)) return b < 0 ? kInt64Max : kInt64Min;
    return r;
}

inline std::int64_t satMul(std::int64_t a, std::int64_t b) {
    std::int64_t r;
    if (__builtin_mul_overflow(a, b, &r)) return (a < 0) != (b < 0) ? kInt64Min : kInt64Max;
    return r;
}

// -INT64_MIN does not exist; it saturates to INT64_MAX.
inline std::int64_t satNeg(std::int64_t a) { return a == kInt64Min ? kInt64Max : -a; }

// Checked forms: nullopt where the exact result does not fit, for callers that count the clamp.
inline std::optional<std::int64_t> checkedAdd(std::int64_t a, std::int64_t b) {
    std::int64_t r;
    if (__builtin_add_overflow(a, b, &r)) return std::nullopt;
    return r;
}

inline std::optional<std::int64_t> checkedSub(std::int64_t a, std::int64_t b) {
    std::int64_t r;
    if (__builtin_sub_overflow(a, b, &r)) return std::nullopt;
    return r;
}

// A double (a bucket edge, a scaled time) as int64: converting a double outside the range is
// undefined behaviour, so it clamps; NaN gives 0.
inline std::int64_t clampToInt64(double v) {
    if (!(v == v)) return 0;
    if (v >= 9.2e18) return kInt64Max;
    if (v <= -9.2e18) return kInt64Min;
    return static_cast<std::int64_t>(v);
}

// A hash-mixing product that wraps on purpose, with the wrap defined (unsigned arithmetic).
inline std::uint64_t wrapMul(std::uint64_t a, std::uint64_t b) { return a * b; }

}  // namespace cs::util
