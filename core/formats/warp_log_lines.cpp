#include "core/formats/warp_log_lines.h"

#include "core/formats/text_util.h"

#include <cmath>

namespace cs::ingest::warp {

namespace {
bool isHex(std::string_view s, size_t minLen) {
    if (s.size() < minLen) return false;
    for (char c : s)
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
    return true;
}

// Reads "<number> ms" at the start of `s`; returns the rest after " ms", or nullopt.
std::optional<std::string_view> readMs(std::string_view s, std::int64_t& ns) {
    size_t i = 0;
    while (i < s.size() && ((s[i] >= '0' && s[i] <= '9') || s[i] == '.')) ++i;
    double v = 0;
    if (i == 0 || !parseDouble(s.substr(0, i), v) || !std::isfinite(v) || v < 0 || v > 1e12) return std::nullopt;
    s.remove_prefix(i);
    if (!startsWith(s, " ms")) return std::nullopt;
    ns = static_cast<std::int64_t>(std::llround(v * 1e6));
    return s.substr(3);
}

// "<label>" -> name + optional trailing hash (the label's last word when it is >= 6 hex digits).
bool splitLabel(std::string_view label, WarpLine& out) {
    auto sp = label.rfind(' ');
    if (sp != std::string_view::npos && isHex(label.substr(sp + 1), 6)) {
        out.hash = std::string(label.substr(sp + 1));
        label = label.substr(0, sp);
    }
    // Module names are Python module names or "<kernel key>_<hash>": never empty, never spaced.
    if (label.empty() || label.find(' ') != std::string_view::npos) return false;
    out.name = std::string(label);
    return true;
}

// Parses what follows "Module " at the start of `s`. Returns Other when it is not a module record.
WarpLine parseModuleRecord(std::string_view s) {
    WarpLine w;
    static constexpr std::string_view kOnDevice = " load on device '";
    static constexpr std::string_view kOldLoad = " load took ";
    static constexpr std::string_view kOldEntry = " load ...";
    std::string_view rest;
    auto dev = s.find(kOnDevice);
    if (dev != std::string_view::npos) {
        if (!splitLabel(s.substr(0, dev), w)) {
            w.kind = LineKind::Malformed;
            w.error = "module name with spaces or empty";
            return w;
        }
        rest = s.substr(dev + kOnDevice.size());
        auto q = rest.find('\'');
        if (q == std::string_view::npos || q == 0) {
            w.kind = LineKind::Malformed;
            w.error = "unterminated device name";
            return w;
        }
        w.device = std::string(rest.substr(0, q));
        rest.remove_prefix(q + 1);
        if (startsWith(rest, " (block_dim=")) {
            rest.remove_prefix(12);
            auto close = rest.find(')');
            long long bd = 0;
            if (close == std::string_view::npos || !parseInt(rest.substr(0, close), bd) || bd <= 0 || bd > (1 << 20)) {
                w.kind = LineKind::Malformed;
                w.error = "bad block_dim";
                return w;
            }
            w.blockDim = bd;
            rest.remove_prefix(close + 1);
        }
    } else if (auto old = s.find(kOldLoad); old != std::string_view::npos) {
        if (!splitLabel(s.substr(0, old), w)) return {};
        rest = s.substr(old + 5);  // " took ..."
    } else if (auto oe = s.find(kOldEntry); oe != std::string_view::npos && oe + kOldEntry.size() == s.size()) {
        if (!splitLabel(s.substr(0, oe), w)) return {};
        w.kind = LineKind::ModuleEntry;
        return w;
    } else {
        return {};
    }
    if (rest == " ...") {
        w.kind = LineKind::ModuleEntry;
        return w;
    }
    if (!startsWith(rest, " took ")) {
        w.kind = LineKind::Malformed;
        w.error = "expected \" took <ms> ms\" after the device";
        return w;
    }
    auto after = readMs(rest.substr(6), w.durNs);
    if (!after) {
        w.kind = LineKind::Malformed;
        w.error = "bad duration";
        return w;
    }
    std::string_view tail = trim(*after);
    if (tail.empty()) {
        w.result = CS_MODULE_UNKNOWN;  // before v1.3 there was no status
    } else if (tail == "(compiled)") {
        w.result = CS_MODULE_COMPILED;
    } else if (tail == "(cached)") {
        w.result = CS_MODULE_CACHED;
    } else if (tail == "(error)") {
        w.result = CS_MODULE_ERROR;
    } else {
        w.kind = LineKind::Malformed;
        w.error = "unknown load status \"" + std::string(tail.substr(0, 40)) + "\"";
        return w;
    }
    w.kind = LineKind::ModuleLoad;
    return w;
}

// "Compile x86 ..." / "Compile CUDA (...) ..." at the start of `s`.
WarpLine parseCompile(std::string_view s) {
    WarpLine w;
    s.remove_prefix(8);  // "Compile "
    if (startsWith(s, "x86")) w.compiler = "x86";
    else if (startsWith(s, "CUDA")) w.compiler = "CUDA";
    else return {};
    s.remove_prefix(w.compiler.size());
    if (startsWith(s, " (")) {
        auto close = s.find(')');
        if (close == std::string_view::npos) return {};
        for (auto field : splitTrimmed(s.substr(2, close - 2), ',')) {
            auto eq = field.find('=');
            if (eq == std::string_view::npos) continue;
            auto k = field.substr(0, eq), v = field.substr(eq + 1);
            long long bd = 0;
            if (k == "arch") w.arch = std::string(v);
            else if (k == "mode") w.mode = std::string(v);
            else if (k == "block_dim" && parseInt(v, bd) && bd > 0) w.blockDim = bd;
        }
        s.remove_prefix(close + 1);
    }
    if (s == " ...") return {};  // debug entry marker of a compile timer: nothing to record
    if (!startsWith(s, " took ")) return {};
    auto after = readMs(s.substr(6), w.durNs);
    if (!after || !trim(*after).empty()) {
        w.kind = LineKind::Malformed;
        w.error = "bad Compile timer duration";
        return w;
    }
    w.kind = LineKind::Compile;
    return w;
}

// "<key> (<old> -> <new>)" of the hash-change debug lines.
bool parseHashChange(std::string_view s, WarpLine& w) {
    s = trim(s);
    auto open = s.rfind(" (");
    if (open == std::string_view::npos || s.back() != ')') return false;
    auto inner = s.substr(open + 2, s.size() - open - 3);
    auto arrow = inner.find(" -> ");
    if (arrow == std::string_view::npos) return false;
    w.name = std::string(s.substr(0, open));
    w.oldHash = std::string(inner.substr(0, arrow));
    w.hash = std::string(inner.substr(arrow + 4));
    return !w.name.empty();
}
// "Failed to find <mode> kernel '<key>' from module '<name>' for device '<dev>'" anywhere in the line.
bool parseLookupFailure(std::string_view s, WarpLine& w) {
    auto at = s.find("Failed to find ");
    if (at == std::string_view::npos) return false;
    s.remove_prefix(at + 15);
    auto quoted = [&](std::string_view prefix, std::string& out) {
        auto p = s.find(prefix);
        if (p == std::string_view::npos) return false;
        s.remove_prefix(p + prefix.size());
        auto q = s.find('\'');
        if (q == std::string_view::npos) return false;
        out = std::string(s.substr(0, q));
        s.remove_prefix(q + 1);
        return true;
    };
    auto sp = s.find(' ');
    if (sp == std::string_view::npos || s.substr(sp, 9) != " kernel '") return false;
    w.mode = std::string(s.substr(0, sp));
    return quoted(" kernel '", w.kernel) && quoted(" from module '", w.name) && quoted(" for device '", w.device) &&
           !w.name.empty();
}
}  // namespace

WarpLine parseWarpLine(std::string_view raw) {
    // Most lines of a real log are the application's own output: reject them before copying. Colour
    // codes wrap whole records, so the markers survive in the raw text.
    if (raw.find("Module ") == std::string_view::npos && raw.find("Compile ") == std::string_view::npos &&
        raw.find("Failed to find ") == std::string_view::npos && raw.find("[Module") == std::string_view::npos)
        return {};
    std::string clean = stripAnsi(raw);
    while (!clean.empty() && (clean.back() == '\r' || clean.back() == '\n')) clean.pop_back();
    std::string_view line = clean;
    size_t lead = 0;
    while (lead < line.size() && line[lead] == ' ') ++lead;
    std::string_view body = line.substr(lead);

    if (startsWith(body, "Compile ")) {
        WarpLine w = parseCompile(body);
        w.indent = static_cast<int>(lead);
        return w;
    }
    static constexpr std::string_view kKernelChanged = "[ModuleHasher] Kernel hash changed: ";
    static constexpr std::string_view kGenericChanged = "[ModuleHasher] Generic kernel hash changed: ";
    static constexpr std::string_view kModuleChanged = "[Module.load] Module hash changed, recompiling: ";
    struct HashLine {
        std::string_view prefix;
        LineKind kind;
        bool generic;
    };
    static constexpr HashLine kHashLines[] = {{kKernelChanged, LineKind::KernelHashChanged, false},
                                              {kGenericChanged, LineKind::KernelHashChanged, true},
                                              {kModuleChanged, LineKind::ModuleHashChanged, false}};
    for (auto [prefix, kind, generic] : kHashLines) {
        auto at = body.find(prefix);
        if (at == std::string_view::npos) continue;
        WarpLine w;
        if (!parseHashChange(body.substr(at + prefix.size()), w)) {
            w.kind = LineKind::Malformed;
            w.error = "unreadable hash-change line";
            return w;
        }
        w.kind = kind;
        w.generic = generic;
        return w;
    }

    if (WarpLine f; parseLookupFailure(body, f)) {
        f.kind = LineKind::KernelLookupFailed;
        return f;
    }

    // A Module record may start the line (after indentation) or be glued after other output. Try
    // every "Module " occurrence; the first that parses wins, a malformed one is reported only when
    // no later occurrence parses.
    WarpLine firstMalformed;
    for (size_t at = 0; (at = body.find("Module ", at)) != std::string_view::npos; ++at) {
        WarpLine w = parseModuleRecord(body.substr(at + 7));
        if (w.kind == LineKind::Other) continue;
        if (w.kind == LineKind::Malformed) {
            if (firstMalformed.kind == LineKind::Other) firstMalformed = w;
            continue;
        }
        w.indent = at == 0 ? static_cast<int>(lead) : 0;
        return w;
    }
    return firstMalformed;
}

bool isUniqueModuleName(std::string_view name, std::string_view hash7) {
    auto us = name.rfind('_');
    if (us == std::string_view::npos || us == 0) return false;
    auto suffix = name.substr(us + 1);
    if (suffix.size() != 8 || !isHex(suffix, 8)) return false;
    return hash7.empty() || startsWith(suffix, hash7);
}

}  // namespace cs::ingest::warp
