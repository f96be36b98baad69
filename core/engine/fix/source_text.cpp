// Lines, unified diffs and the little Python syntax the fix generator reads (source_text.h).
#include "core/engine/fix/source_text.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace cs::engine::fix {

std::vector<std::string> splitLines(const std::string& text) {
    std::vector<std::string> lines;
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        std::string line = text.substr(start, end - start);
        if (!line.empty() && line.back() == '\r') line.pop_back();
        lines.push_back(std::move(line));
        start = end + 1;
    }
    return lines;
}

std::string joinLines(const std::vector<std::string>& lines) {
    std::string out;
    for (const auto& l : lines) out += l + "\n";
    return out;
}

namespace {
std::string range(size_t start, size_t count) {
    // Unified diff: an empty range names the line before it.
    return std::to_string(count == 0 ? start : start + 1) + "," + std::to_string(count);
}
}  // namespace

std::string unifiedDiff(const std::string& path, const std::vector<std::string>& before,
                        const std::vector<std::string>& after) {
    size_t prefix = 0;
    while (prefix < before.size() && prefix < after.size() && before[prefix] == after[prefix]) ++prefix;
    if (prefix == before.size() && prefix == after.size()) return "";
    size_t suffix = 0;
    while (suffix < before.size() - prefix && suffix < after.size() - prefix &&
           before[before.size() - 1 - suffix] == after[after.size() - 1 - suffix])
        ++suffix;
    const size_t context = 3;
    size_t from = prefix > context ? prefix - context : 0;
    size_t tailB = std::min(before.size(), before.size() - suffix + context);
    size_t tailA = std::min(after.size(), after.size() - suffix + context);
    std::string out = "--- " + path + "\n+++ " + path + "\n";
    out += "@@ -" + range(from, tailB - from) + " +" + range(from, tailA - from) + " @@\n";
    for (size_t i = from; i < prefix; ++i) out += " " + before[i] + "\n";
    for (size_t i = prefix; i < before.size() - suffix; ++i) out += "-" + before[i] + "\n";
    for (size_t i = prefix; i < after.size() - suffix; ++i) out += "+" + after[i] + "\n";
    for (size_t i = before.size() - suffix; i < tailB; ++i) out += " " + before[i] + "\n";
    return out;
}

std::optional<SourcePlace> parseFileLine(const std::string& text) {
    auto colon = text.rfind(':');
    if (colon == std::string::npos || colon == 0) return std::nullopt;
    int line = 0;
    auto [end, ec] = std::from_chars(text.data() + colon + 1, text.data() + text.size(), line);
    if (ec != std::errc() || end != text.data() + text.size() || line <= 0) return std::nullopt;
    return SourcePlace{"", text.substr(0, colon), line};
}

std::optional<SourcePlace> placeOfProgram(const std::string& program) {
    auto open = program.rfind(" (");
    if (open == std::string::npos || program.empty() || program.back() != ')') return std::nullopt;
    auto place = parseFileLine(program.substr(open + 2, program.size() - open - 3));
    if (!place) return std::nullopt;
    place->function = program.substr(0, open);
    return place;
}

std::string indentOf(const std::string& line) {
    size_t n = 0;
    while (n < line.size() && (line[n] == ' ' || line[n] == '\t')) ++n;
    return line.substr(0, n);
}

bool isIdentifier(const std::string& s) {
    if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
    return std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

std::string trim(const std::string& s) {
    size_t a = s.find_first_not_of(" \t");
    if (a == std::string::npos) return "";
    size_t b = s.find_last_not_of(" \t");
    return s.substr(a, b - a + 1);
}

size_t closingBracket(const std::string& s, size_t open) {
    int depth = 0;
    char quote = 0;
    for (size_t i = open; i < s.size(); ++i) {
        char c = s[i];
        if (quote) {
            if (c == '\\') ++i;
            else if (c == quote) quote = 0;
        } else if (c == '\'' || c == '"') {
            quote = c;
        } else if (c == '(' || c == '[' || c == '{') {
            ++depth;
        } else if (c == ')' || c == ']' || c == '}') {
            if (--depth == 0) return i;
        }
    }
    return std::string::npos;
}

std::vector<std::string> splitArgs(const std::string& s) {
    std::vector<std::string> parts;
    int depth = 0;
    char quote = 0;
    std::string cur;
    for (size_t i = 0; i < s.size(); ++i) {
        char c = s[i];
        if (quote) {
            if (c == quote) quote = 0;
        } else if (c == '\'' || c == '"') {
            quote = c;
        } else if (c == '(' || c == '[' || c == '{') {
            ++depth;
        } else if (c == ')' || c == ']' || c == '}') {
            --depth;
        } else if (c == ',' && depth == 0) {
            parts.push_back(trim(cur));
            cur.clear();
            continue;
        }
        cur += c;
    }
    if (!trim(cur).empty()) parts.push_back(trim(cur));
    return parts;
}

int findDef(const std::vector<std::string>& lines, const std::string& name, int from) {
    for (int i = std::max(0, from - 1); i < static_cast<int>(lines.size()) && i < from + 20; ++i) {
        auto t = trim(lines[i]);
        if (t.rfind("def " + name + "(", 0) == 0 || t.rfind("async def " + name + "(", 0) == 0) return i;
    }
    return -1;
}

std::vector<std::string> defParameters(const std::vector<std::string>& lines, int defLine) {
    std::string text;
    for (int i = defLine; i < static_cast<int>(lines.size()) && i < defLine + 10; ++i) text += lines[i] + " ";
    auto open = text.find('(');
    auto close = open == std::string::npos ? std::string::npos : closingBracket(text, open);
    if (close == std::string::npos) return {};
    std::vector<std::string> names;
    for (auto p : splitArgs(text.substr(open + 1, close - open - 1))) {
        p = p.substr(0, std::min(p.find(':'), p.find('=')));
        names.push_back(trim(p));
    }
    return names;
}

}  // namespace cs::engine::fix
