#include "core/formats/log_prefix.h"

#include "core/formats/text_util.h"

#include <cctype>

namespace cs::ingest {

namespace {
bool digits(std::string_view s, size_t at, size_t n) {
    if (at + n > s.size()) return false;
    for (size_t i = at; i < at + n; ++i)
        if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
    return true;
}

std::int64_t num(std::string_view s, size_t at, size_t n) {
    std::int64_t v = 0;
    for (size_t i = at; i < at + n; ++i) v = v * 10 + (s[i] - '0');
    return v;
}

// Days from 1970-01-01 to y-m-d (proleptic Gregorian; Howard Hinnant's days_from_civil).
std::int64_t daysFromCivil(std::int64_t y, std::int64_t m, std::int64_t d) {
    y -= m <= 2;
    const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
    const std::int64_t yoe = y - era * 400;
    const std::int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const std::int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

std::optional<std::int64_t> timeNs(std::int64_t y, std::int64_t mo, std::int64_t d, std::int64_t h, std::int64_t mi,
                                   std::int64_t s, std::int64_t fracNs) {
    // Years past 2200 would overflow int64 ns; a log that claims one is not trusted for its time.
    if (y < 1900 || y > 2200 || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60) return std::nullopt;
    return ((daysFromCivil(y, mo, d) * 24 + h) * 60 + mi) * 60 * 1000000000LL + s * 1000000000LL + fracNs;
}

// "YYYY-MM-DD HH:MM:SS,mmm" (or '.') at `at`; 23 characters.
std::optional<std::int64_t> isoTime(std::string_view s, size_t at) {
    if (!digits(s, at, 4) || s.size() < at + 23 || s[at + 4] != '-' || s[at + 7] != '-' || s[at + 10] != ' ' ||
        s[at + 13] != ':' || s[at + 16] != ':' || (s[at + 19] != ',' && s[at + 19] != '.') || !digits(s, at + 5, 2) ||
        !digits(s, at + 8, 2) || !digits(s, at + 11, 2) || !digits(s, at + 14, 2) || !digits(s, at + 17, 2) ||
        !digits(s, at + 20, 3))
        return std::nullopt;
    return timeNs(num(s, at, 4), num(s, at + 5, 2), num(s, at + 8, 2), num(s, at + 11, 2), num(s, at + 14, 2),
                  num(s, at + 17, 2), num(s, at + 20, 3) * 1000000);
}

// `path:123] ` ending before the message: returns the index after "] ", or npos.
size_t glogSourceEnd(std::string_view s, size_t from, std::string_view& source) {
    auto close = s.find("] ", from);
    if (close == std::string_view::npos) {
        if (!s.empty() && s.back() == ']') close = s.size() - 1;  // a message-less line
        else return std::string_view::npos;
    }
    auto colon = s.rfind(':', close);
    if (colon == std::string_view::npos || colon < from || colon + 1 == close || !digits(s, colon + 1, close - colon - 1))
        return std::string_view::npos;
    auto path = s.substr(from, colon - from);
    if (path.empty() || path.find(' ') != std::string_view::npos) return std::string_view::npos;
    source = s.substr(from, close - from);
    return std::min(close + 2, s.size());
}

// Launcher tags: "[rank0]:" and "[2025-08-12 03:18:23.088] ".
size_t skipTags(std::string_view s) {
    size_t at = 0;
    for (;;) {
        auto rest = s.substr(at);
        if (startsWith(rest, "[rank")) {
            auto end = rest.find("]:");
            if (end != std::string_view::npos && end < 16 && digits(rest, 5, end - 5)) {
                at += end + 2;
                continue;
            }
        }
        if (rest.size() > 25 && rest[0] == '[' && rest[24] == ']' && isoTime(rest, 1)) {
            at += 25;
            while (at < s.size() && s[at] == ' ') ++at;
            continue;
        }
        return at;
    }
}

constexpr std::string_view kLevels[] = {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"};
}  // namespace

LogPrefix splitLogPrefix(std::string_view line) {
    LogPrefix p;
    p.message = line;
    const size_t at = skipTags(line);
    auto s = line.substr(at);
    // glog: L MMDD HH:MM:SS.uuuuuu thread path:line]
    if (s.size() > 23 && std::string_view("VIWEC").find(s[0]) != std::string_view::npos && digits(s, 1, 4) &&
        s[5] == ' ' && digits(s, 6, 2) && s[8] == ':' && digits(s, 9, 2) && s[11] == ':' && digits(s, 12, 2) &&
        s[14] == '.' && digits(s, 15, 6) && s[21] == ' ') {
        size_t i = 22;
        while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
        const auto thread = s.substr(22, i - 22);
        while (i < s.size() && s[i] == ' ') ++i;
        std::string_view source;
        auto end = glogSourceEnd(s, i, source);
        if (!thread.empty() && thread.size() < 19 && end != std::string_view::npos) {
            p.glog = true;
            p.level = s[0];
            p.thread = num(thread, 0, thread.size());
            p.source = source;
            p.tsNs = timeNs(1970, num(s, 1, 2), num(s, 3, 2), num(s, 6, 2), num(s, 9, 2), num(s, 12, 2),
                            num(s, 15, 6) * 1000);
            p.message = s.substr(end);
            return p;
        }
    }
    // glog with everything before the path elided: ".../torch/_dynamo/guards.py:2772] "
    if (startsWith(s, "...") || startsWith(s, "\u2026")) {
        std::string_view source;
        auto end = glogSourceEnd(s, 0, source);
        if (end != std::string_view::npos) {
            p.glog = true;
            p.source = source;
            p.message = s.substr(end);
            return p;
        }
    }
    // Python logging, 2023 torch: "[2023-04-13 21:42:57,808] logger: [DEBUG] message"
    // (skipTags took the bracketed time; the logger follows).
    if (at > 0 && line[at - 1] == ' ' && at >= 26 && line[at - 26] == '[') {
        p.tsNs = isoTime(line, at - 25);
        auto colon = s.find(": [");
        auto close = colon == std::string_view::npos ? colon : s.find("] ", colon);
        if (close != std::string_view::npos && s.substr(0, colon).find(' ') == std::string_view::npos) {
            p.source = s.substr(0, colon);
            p.level = s[colon + 3];
            p.message = s.substr(close + 2);
            return p;
        }
        p.message = s;
        return p;
    }
    // Python logging, JAX: "LEVEL:YYYY-MM-DD HH:MM:SS,mmm:logger:line: message", "LEVEL:logger:message",
    // "YYYY-MM-DD HH:MM:SS,mmm - LEVEL - message"
    for (auto level : kLevels) {
        if (!startsWith(s, level) || s.size() <= level.size() || s[level.size()] != ':') continue;
        auto rest = s.substr(level.size() + 1);
        p.level = level[0];
        if (auto t = isoTime(rest, 0); t && rest.size() > 24 && rest[23] == ':') {
            p.tsNs = t;
            rest = rest.substr(24);
            auto c1 = rest.find(':');
            auto c2 = c1 == std::string_view::npos ? c1 : rest.find(':', c1 + 1);
            if (c2 != std::string_view::npos && digits(rest, c1 + 1, c2 - c1 - 1)) {
                p.source = rest.substr(0, c2);
                p.message = trim(rest.substr(c2 + 1));
                return p;
            }
            p.message = rest;
            return p;
        }
        auto c = rest.find(':');
        if (c != std::string_view::npos && rest.substr(0, c).find(' ') == std::string_view::npos) {
            p.source = rest.substr(0, c);
            p.message = rest.substr(c + 1);
            return p;
        }
    }
    if (auto t = isoTime(s, 0); t && s.size() > 26 && s.substr(23, 3) == " - ") {
        auto rest = s.substr(26);
        auto dash = rest.find(" - ");
        if (dash != std::string_view::npos && dash <= 8) {
            p.tsNs = t;
            p.level = rest[0];
            p.message = rest.substr(dash + 3);
            return p;
        }
    }
    p.message = s;
    return p;
}

std::string CompileId::text() const {
    auto t = std::to_string(frame) + "/" + std::to_string(compile);
    if (attempt > 0) t += "_" + std::to_string(attempt);
    return t;
}

bool parseCompileId(std::string_view s, CompileId& id) {
    auto slash = s.find('/');
    if (slash == std::string_view::npos || slash == 0 || slash > 9) return false;
    auto rest = s.substr(slash + 1);
    auto under = rest.find('_');
    auto compile = rest.substr(0, under);
    auto attempt = under == std::string_view::npos ? std::string_view{} : rest.substr(under + 1);
    if (compile.empty() || compile.size() > 9 || !digits(compile, 0, compile.size()) || !digits(s, 0, slash)) return false;
    if (under != std::string_view::npos && (attempt.empty() || attempt.size() > 9 || !digits(attempt, 0, attempt.size())))
        return false;
    id.frame = num(s, 0, slash);
    id.compile = num(compile, 0, compile.size());
    id.attempt = attempt.empty() ? 0 : num(attempt, 0, attempt.size());
    return true;
}

bool takeCompileId(std::string_view& s, CompileId& id) {
    if (s.size() < 5 || s[0] != '[') return false;
    auto close = s.find(']');
    if (close == std::string_view::npos || !parseCompileId(s.substr(1, close - 1), id)) return false;
    s = s.substr(close + 1);
    while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
    return true;
}

}  // namespace cs::ingest
