#include "core/util/units.h"

#include <cctype>
#include <cmath>
#include <cstdio>

namespace cs::util {

namespace {
std::string threeDigits(double v, const char* unit) {
    char buf[48];
    if (v >= 100) std::snprintf(buf, sizeof buf, "%.0f %s", v, unit);
    else if (v >= 10) std::snprintf(buf, sizeof buf, "%.1f %s", v, unit);
    else std::snprintf(buf, sizeof buf, "%.2f %s", v, unit);
    return buf;
}
}  // namespace

std::string formatDuration(std::int64_t ns) {
    // The int64 limits are where saturating arithmetic (saturating.h) stops: not a measured value,
    // and "9223372037 s" read as one (issue 40). 2^63 ns is 292.3 years; a figure within 0.25 % of it
    // (an offset from a saturated start) is the clamp too: no trace spans 290 years.
    constexpr std::int64_t kSaturated = 9'200'000'000'000'000'000;
    if (ns >= kSaturated) return "> 292 years (saturated)";
    if (ns <= -kSaturated) return "< -292 years (saturated)";
    double a = std::fabs(static_cast<double>(ns));
    std::string sign = ns < 0 ? "-" : "";
    if (a < 1e3) return sign + std::to_string(static_cast<long long>(a)) + " ns";
    if (a < 1e6) return sign + threeDigits(a / 1e3, "us");
    if (a < 1e9) return sign + threeDigits(a / 1e6, "ms");
    return sign + threeDigits(a / 1e9, "s");
}

std::string formatOffset(std::int64_t ns) {
    std::string text = formatDuration(ns);
    if (ns >= 0 && std::isdigit(static_cast<unsigned char>(text.front()))) text.insert(0, 1, '+');
    return text;
}

std::string formatBytes(std::int64_t bytes) {
    double b = static_cast<double>(bytes);
    if (b < 1024) return std::to_string(bytes) + " B";
    if (b < 1024.0 * 1024) return threeDigits(b / 1024, "KiB");
    if (b < 1024.0 * 1024 * 1024) return threeDigits(b / (1024.0 * 1024), "MiB");
    return threeDigits(b / (1024.0 * 1024 * 1024), "GiB");
}

std::string formatCount(std::int64_t n) {
    std::string s = std::to_string(n), out;
    for (size_t i = 0; i < s.size(); ++i) {
        if (i && (s.size() - i) % 3 == 0 && s[i - 1] != '-') out += ',';
        out += s[i];
    }
    return out;
}

std::string formatShare(std::int64_t part, std::int64_t whole) {
    if (whole <= 0) return "-";
    return std::to_string(static_cast<long long>(std::floor(100.0 * static_cast<double>(part) / static_cast<double>(whole) + 0.5))) + " %";
}

std::string formatFixed(double v, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

std::string formatList(const std::vector<std::string>& items, std::size_t most) {
    std::string s;
    for (std::size_t i = 0; i < items.size() && i < most; ++i) {
        if (i) s += ", ";
        s += items[i];
    }
    if (items.size() > most) s += ", ... (" + std::to_string(items.size()) + " in all)";
    return s;
}

}  // namespace cs::util
