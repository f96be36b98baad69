// SnoopCompile's printed lines, classified one at a time (see snoopcompile_lines.h).
#include "core/formats/snoopcompile_lines.h"

#include "core/formats/julia_signature.h"

#include <charconv>

namespace cs::formats {

bool allDigits(std::string_view s) {
    if (s.empty()) return false;
    for (char c : s)
        if (c < '0' || c > '9') return false;
    return true;
}

std::int64_t toInt(std::string_view s) {
    std::int64_t v = 0;
    std::from_chars(s.data(), s.data() + s.size(), v);
    return v;
}

namespace {
bool startsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
bool endsWith(std::string_view s, std::string_view p) {
    return s.size() >= p.size() && s.substr(s.size() - p.size()) == p;
}
}  // namespace

bool isVectorHeader(std::string_view t) {
    // "3-element Vector{SnoopCompile.MethodInvalidations}:" or the old "Array{...,1}" spelling.
    auto dash = t.find("-element ");
    if (dash == std::string_view::npos || !allDigits(t.substr(0, dash)) || !endsWith(t, ":")) return false;
    return t.find("MethodInvalidations") != std::string_view::npos;
}

const std::string_view kTreeReasons[] = {"inserting ", "deleting ", "rebinding ", "unknown "};

bool isTreeHeader(std::string_view t) {
    if (startsWith(t, "Invalidating methods: ")) return true;
    if (!endsWith(t, " invalidated:")) return false;
    for (auto r : kTreeReasons)
        if (startsWith(t, r)) return true;
    return false;
}

// "(12 children)" at the end of `s` (before an optional suffix such as " more specific"):
// returns the position of " (" and fills count and suffix; npos when absent.
size_t childrenAt(std::string_view s, std::int64_t& count, std::string& suffix) {
    size_t pos = s.rfind(" children)");
    while (pos != std::string_view::npos) {
        size_t open = s.rfind(" (", pos);
        if (open != std::string_view::npos && allDigits(s.substr(open + 2, pos - open - 2))) {
            count = toInt(s.substr(open + 2, pos - open - 2));
            suffix = std::string(s.substr(pos + 10));
            return open;
        }
        if (pos == 0) break;
        pos = s.rfind(" children)", pos - 1);
    }
    return std::string_view::npos;
}

// Classification looks at one line alone, so importers can sniff and filter without state. A
// continuation entry (" 12: superseding ...") is recognised by its leading space and numeric index;
// at column 0 the same text is not SnoopCompile's and is left to the caller as Other.
PrintedLineKind classifyPrintedLine(std::string_view line) {
    auto t = engine::trimSpaces(line);
    if (t.empty()) return PrintedLineKind::Blank;
    if (t == "⋮") return PrintedLineKind::Elision;
    if (isVectorHeader(t)) return PrintedLineKind::VectorHeader;
    if (isTreeHeader(t)) return PrintedLineKind::TreeHeader;
    if (startsWith(t, "mt_backedges: ") || startsWith(t, "backedges: ") || startsWith(t, "mt_disable: ") ||
        (endsWith(t, " mt_cache") && allDigits(t.substr(0, t.size() - 9))))
        return PrintedLineKind::TreeBody;
    if (line.size() > t.size() && (line[0] == ' ')) {
        auto colon = t.find(": ");
        if (colon != std::string_view::npos && allDigits(t.substr(0, colon))) return PrintedLineKind::TreeBody;
        if (startsWith(t, "+") && endsWith(t, " more") && allDigits(t.substr(1, t.size() - 6)))
            return PrintedLineKind::TreeBody;
    }
    return PrintedLineKind::Other;
}

}  // namespace cs::formats
