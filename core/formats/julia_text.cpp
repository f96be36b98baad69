#include "core/formats/julia_text.h"

#include "core/formats/text_util.h"

#include <compilescope/trace_constants.h>

#include <cmath>

namespace cs::ingest {

namespace {
bool endsWith(std::string_view s, std::string_view p) { return s.size() >= p.size() && s.substr(s.size() - p.size()) == p; }

bool allDigits(std::string_view s) {
    if (s.empty()) return false;
    for (char c : s)
        if (c < '0' || c > '9') return false;
    return true;
}

std::int64_t msToNs(double ms) { return static_cast<std::int64_t>(std::llround(ms * 1e6)); }

// "64.10% compilation time" / " (100% recompilation)" / "(<1% recompilation)" tails of import rows.
void parseCompileTail(std::string_view tail, double& compilePct, double& recompilePct, bool& below1) {
    auto pc = tail.find("% compilation time");
    if (pc != std::string_view::npos) {
        auto start = tail.rfind(' ', pc);
        start = start == std::string_view::npos ? 0 : start + 1;
        parseDouble(tail.substr(start, pc - start), compilePct);
    }
    auto pr = tail.find("% recompilation)");
    if (pr != std::string_view::npos) {
        auto open = tail.rfind('(', pr);
        if (open != std::string_view::npos) {
            auto num = tail.substr(open + 1, pr - open - 1);
            if (num == "<1") below1 = true;
            else parseDouble(num, recompilePct);
        }
    }
}
}  // namespace

// The order of the tests matters: an Int32 depth and a quoted tag are unambiguous; the Method test
// comes last because a printed Method is the only form recognised by what follows its call
// ("@ Mod file:line" or "in Mod at file:line"), and MethodInstances contain call forms too.
int classifyJuliaItem(std::string_view t) {
    t = trim(t);
    if (t == "⋮") return CS_INVITEM_ELISION;
    if (t.empty()) return CS_INVITEM_OTHER;
    long long v = 0;
    if (parseInt(t, v)) return CS_INVITEM_INT;
    if (t.size() >= 2 && t.front() == '"' && t.back() == '"') return CS_INVITEM_TAG;
    if (startsWith(t, "MethodInstance for ")) return CS_INVITEM_METHOD_INSTANCE;
    if (startsWith(t, "CodeInstance for ")) return CS_INVITEM_CODE_INSTANCE;
    if (t == "nothing") return CS_INVITEM_NOTHING;
    if (startsWith(t, "Tuple{") || startsWith(t, "Type{")) return CS_INVITEM_TYPE;
    if (startsWith(t, "Binding ") || startsWith(t, "Core.Binding")) return CS_INVITEM_BINDING;
    if (startsWith(t, "Any[") || startsWith(t, "Method[") || startsWith(t, "Core.Method[")) return CS_INVITEM_VECTOR;
    if (startsWith(t, "Core.TypeMapEntry")) return CS_INVITEM_OTHER;
    // A printed Method: "f(x::Int) @ Mod file:line" (Julia >= 1.9) or "f(x::Int) in Mod at file:line".
    auto at = t.rfind(" @ ");
    if (at != std::string_view::npos && t.find('(') < at && t.find(' ', at + 3) != std::string_view::npos) return CS_INVITEM_METHOD;
    auto in = t.rfind(" in ");
    if (in != std::string_view::npos && t.find('(') < in && t.find(" at ", in) != std::string_view::npos) return CS_INVITEM_METHOD;
    return CS_INVITEM_OTHER;
}

bool parseAnyVectorHeader(std::string_view line, std::int64_t& count) {
    auto t = trim(line);
    auto dash = t.find("-element ");
    if (dash == std::string_view::npos || !allDigits(t.substr(0, dash))) return false;
    auto type = t.substr(dash + 9);
    if (type != "Vector{Any}:" && type != "Array{Any,1}:" && type != "Array{Any, 1}:") return false;
    long long n = 0;
    if (!parseInt(t.substr(0, dash), n)) return false;
    count = n;
    return true;
}

// gf.c prints `#= %6.1f ms =# ` only with timing on, then `precompile(` + the static signature + `)`,
// then ` # recompile` for a MethodInstance that already had compiled code (and, on a colour
// terminal, wraps the line in yellow: the caller strips ANSI first). Anything after the tag, or a
// timing that is not a number of ms, makes the line not a statement rather than a guess.
bool parseCompileStatement(std::string_view line, CompileStatement& out) {
    auto t = trim(line);
    out = CompileStatement{};
    if (startsWith(t, "#=")) {
        auto close = t.find("=#");
        if (close == std::string_view::npos) return false;
        auto inner = trim(t.substr(2, close - 2));
        if (!endsWith(inner, " ms")) return false;
        double ms = 0;
        if (!parseDouble(inner.substr(0, inner.size() - 3), ms) || !std::isfinite(ms) || ms < 0 || ms > 1e9) return false;
        out.ns = msToNs(ms);
        t = trim(t.substr(close + 2));
    }
    if (!startsWith(t, "precompile(")) return false;
    auto tag = t.rfind("# recompile");
    if (tag != std::string_view::npos) {
        if (!trim(t.substr(tag + 11)).empty()) return false;
        out.recompile = true;
        t = trim(t.substr(0, tag));
    }
    if (t.back() != ')') return false;
    out.signature = std::string(trim(t.substr(11, t.size() - 12)));
    return !out.signature.empty();
}

// base/timing.jl: seconds padded to width 10 with 6 decimals, then optional parenthesised parts
// separated by ", "; the compilation part may end with ": P% of which was recompilation", "<1"
// when below one percent (kept as a flag: the real share is unknown, not zero).
bool parseTimeLine(std::string_view line, TimeLine& out) {
    auto t = trim(line);
    out = TimeLine{};
    auto sec = t.find(" seconds");
    if (sec == std::string_view::npos) return false;
    double s = 0;
    if (!parseDouble(t.substr(0, sec), s) || !std::isfinite(s) || s < 0 || s > 1e7) return false;
    out.ns = static_cast<std::int64_t>(std::llround(s * 1e9));
    auto rest = trim(t.substr(sec + 8));
    if (rest.empty()) return true;
    if (rest.front() != '(' || rest.back() != ')') return false;
    out.detail = std::string(rest.substr(1, rest.size() - 2));
    for (auto part : splitTrimmed(out.detail, ',')) {
        auto pct = part.find("% ");
        if (endsWith(part, "% gc time")) parseDouble(part.substr(0, pct), out.gcPct);
        auto comp = part.find("% compilation time");
        if (comp != std::string_view::npos) {
            parseDouble(part.substr(0, comp), out.compilePct);
            auto of = part.find(": ");
            if (of != std::string_view::npos) {
                auto r = part.substr(of + 2);
                auto p = r.find("% of which was recompilation");
                if (p != std::string_view::npos) {
                    if (r.substr(0, p) == "<1") out.recompileBelow1 = true;
                    else parseDouble(r.substr(0, p), out.recompilePct);
                }
            }
        }
    }
    return true;
}

// base/loading.jl: package rows are `lpad(ms, 9) * " ms  " * name` (extensions as "Parent → Ext"),
// init rows are indented with a "┌" (first) or "├" connector and name "Mod.__init__()"; both may end
// with "X% compilation time" and " (Y% recompilation)", Y being a share of the compile time.
bool parseImportRow(std::string_view line, ImportRow& out) {
    out = ImportRow{};
    auto t = trim(line);
    for (std::string_view connector : {"┌ ", "├ "}) {
        if (startsWith(t, connector)) {
            out.isInit = true;
            t = trim(t.substr(connector.size()));
        }
    }
    auto ms = t.find(" ms ");
    if (ms == std::string_view::npos) return false;
    double v = 0;
    if (!parseDouble(t.substr(0, ms), v) || !std::isfinite(v) || v < 0 || v > 1e10) return false;
    out.ns = msToNs(v);
    auto rest = trim(t.substr(ms + 4));
    if (rest.empty()) return false;
    // The name ends where the compile tail starts (a number followed by "% compilation time").
    auto tailAt = rest.find("% compilation time");
    std::string_view name = rest, tail;
    if (tailAt != std::string_view::npos) {
        auto sp = rest.rfind(' ', tailAt);
        if (sp == std::string_view::npos) return false;
        name = trim(rest.substr(0, sp));
        tail = rest.substr(sp);
    }
    if (out.isInit) {
        if (!endsWith(name, ".__init__()")) return false;
    } else {
        auto arrow = name.find(" → ");
        if (arrow != std::string_view::npos) out.extensionOf = std::string(name.substr(0, arrow));
        if (name.find(' ') != std::string_view::npos && arrow == std::string_view::npos) return false;
    }
    out.name = std::string(name);
    parseCompileTail(tail, out.compilePct, out.recompilePct, out.recompileBelow1);
    return true;
}

}  // namespace cs::ingest
