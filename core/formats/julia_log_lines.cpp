// Julia's context lines, one at a time (see julia_log_lines.h).
#include "core/formats/julia_log_lines.h"

#include "core/formats/text_util.h"

#include <cmath>

namespace cs::ingest {

std::string_view uncommented(std::string_view line) {
    auto t = trim(line);
    if (t.empty() || t.front() != '#' || startsWith(t, "#=")) return line;
    while (!t.empty() && t.front() == '#') t.remove_prefix(1);
    return t;
}

bool parseReplPrompt(std::string_view line, std::string& input) {
    auto t = trim(line);
    if (!startsWith(t, "julia>")) return false;
    input = std::string(trim(t.substr(6)));
    return true;
}

bool isPasteContext(std::string_view line) {
    auto t = trim(line);
    if (t.empty()) return false;
    std::string input;
    if (parseReplPrompt(t, input)) return true;
    for (std::string_view p : {"shell>", "help?>", "% ", "$ ", "... ", "using SnoopCompile", "import SnoopCompile"})
        if (startsWith(t, p)) return true;
    if (t == "..." || t == "…") return true;
    auto pkg = t.find(") pkg>");  // "(@v1.10) pkg> add X", "(MyEnv) pkg>"
    if (startsWith(t, "(") && pkg != std::string_view::npos && t.find(' ') > pkg) return true;
    if (t.find("@snoop_invalidations") != std::string_view::npos || t.find("invalidation_trees(") != std::string_view::npos)
        return true;
    std::string_view message;
    return logFrame(t, message) != LogFrame::None;
}

std::string timedExpression(std::string_view input) {
    auto t = trim(input);
    for (std::string_view macro : {"@time ", "@timev ", "@showtime "})
        if (startsWith(t, macro)) {
            auto e = trim(t.substr(macro.size()));
            while (!e.empty() && e.back() == ';') e = trim(e.substr(0, e.size() - 1));  // output suppressed
            return std::string(e);
        }
    return {};
}

// Logging's ConsoleLogger draws a one-line message as "[ Level: msg" and a longer one as a box:
// "┌ Level: first", "│ more", "└ last" (or "└ @ Mod file:line" when it shows the location).
LogFrame logFrame(std::string_view line, std::string_view& message) {
    auto t = trim(line);
    auto afterLevel = [&](std::string_view rest) {
        auto colon = rest.find(": ");
        if (colon == std::string_view::npos) {
            // "┌ Info:" with nothing after the level (the text starts on the next line).
            if (!rest.empty() && rest.back() == ':' && rest.find(' ') == std::string_view::npos) {
                message = {};
                return true;
            }
            return false;
        }
        auto level = rest.substr(0, colon);
        if (level != "Info" && level != "Warning" && level != "Debug" && level != "Error") return false;
        message = rest.substr(colon + 2);
        return true;
    };
    if (startsWith(t, "[ ")) return afterLevel(t.substr(2)) ? LogFrame::Single : LogFrame::None;
    if (startsWith(t, "┌ ")) return afterLevel(t.substr(4)) ? LogFrame::BoxHead : LogFrame::None;
    if (startsWith(t, "│")) {
        message = t.substr(3);
        if (!message.empty() && message.front() == ' ') message.remove_prefix(1);
        return LogFrame::BoxBody;
    }
    if (startsWith(t, "└")) {
        message = t.substr(3);
        if (!message.empty() && message.front() == ' ') message.remove_prefix(1);
        return LogFrame::BoxEnd;
    }
    return LogFrame::None;
}

// base/loading.jl: "Precompiling $(repr("text/plain", pkg))" prints "Name [uuid]"; from Julia 1.10
// a parenthesised reason follows when caches existed but could not be used.
bool parsePrecompilingMessage(std::string_view message, PrecompilingLine& out) {
    out = PrecompilingLine{};
    auto t = trim(message);
    if (!startsWith(t, "Precompiling ")) return false;
    t = t.substr(13);
    auto open = t.find(" [");
    auto close = t.find(']');
    if (open == std::string_view::npos || close == std::string_view::npos || close < open) return false;
    out.package = std::string(t.substr(0, open));
    out.uuid = std::string(t.substr(open + 2, close - open - 2));
    if (out.package.empty() || out.package.find(' ') != std::string::npos || out.uuid.size() != 36) return false;
    auto rest = trim(t.substr(close + 1));
    if (!rest.empty()) {
        if (rest.front() != '(' || rest.back() != ')') return false;
        out.reason = std::string(rest.substr(1, rest.size() - 2));
    }
    return true;
}

// PrecompileTools PR #72: `@info lpad(ms, 7) * " ms: " * string(ex)`, whole milliseconds. A box's
// head carries "N ms:" alone (the expression printed on several lines below it).
bool parseWorkloadMessage(std::string_view message, WorkloadRow& out) {
    out = WorkloadRow{};
    auto t = trim(message);
    auto ms = t.find(" ms:");
    if (ms == std::string_view::npos) return false;
    double v = 0;
    if (!parseDouble(trim(t.substr(0, ms)), v) || !std::isfinite(v) || v < 0 || v > 1e10) return false;
    out.ns = static_cast<std::int64_t>(std::llround(v * 1e6));
    out.expression = std::string(trim(t.substr(ms + 4)));
    return true;
}

}  // namespace cs::ingest
