#include "core/formats/ninja_log_lines.h"

#include <array>
#include <charconv>

namespace cs::ingest {

namespace {
bool wholeInt(std::string_view s, std::int64_t& v) {
    if (s.empty() || s.size() > 19) return false;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    return ec == std::errc() && p == s.data() + s.size() && v >= 0;
}
}  // namespace

std::optional<int> ninjaLogVersion(std::string_view line) {
    constexpr std::string_view kHeader = "# ninja log v";
    if (!line.starts_with(kHeader)) return std::nullopt;
    line.remove_prefix(kHeader.size());
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
    std::int64_t v = 0;
    if (!wholeInt(line, v) || v > 1000) return std::nullopt;
    return static_cast<int>(v);
}

std::string parseNinjaLogLine(std::string_view line, NinjaLogEntry& out) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    std::array<std::string_view, 5> f;
    size_t n = 0;
    while (n < f.size()) {
        size_t tab = line.find('\t');
        f[n++] = line.substr(0, tab);
        if (tab == std::string_view::npos) {
            line = {};
            break;
        }
        line.remove_prefix(tab + 1);
    }
    if (n < f.size() || !line.empty())
        return "expected 5 tab-separated fields (start, end, mtime, output, hash), found " +
               std::string(n < f.size() ? std::to_string(n) : "more");
    if (!wholeInt(f[0], out.startMs)) return "start \"" + std::string(f[0].substr(0, 40)) + "\" is not a number of ms";
    if (!wholeInt(f[1], out.endMs)) return "end \"" + std::string(f[1].substr(0, 40)) + "\" is not a number of ms";
    if (out.endMs < out.startMs) return "end before start";
    // Milliseconds of one build: anything past ~292 years overflows as nanoseconds.
    if (out.endMs > 9'000'000'000'000) return "end out of range";
    if (!wholeInt(f[2], out.mtime)) return "mtime \"" + std::string(f[2].substr(0, 40)) + "\" is not a number";
    if (f[3].empty()) return "empty output path";
    out.output = f[3];
    out.commandHash = f[4];
    return {};
}

}  // namespace cs::ingest
