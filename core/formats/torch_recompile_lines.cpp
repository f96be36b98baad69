#include "core/formats/torch_recompile_lines.h"

#include "core/formats/text_util.h"

#include <compilescope/trace_constants.h>

#include <cctype>

namespace cs::ingest::torch {

namespace {
std::string_view trimRight(std::string_view s) {
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
    return s;
}

// A Python string literal at the start of `s` ('...' or "..."); advances past it.
bool takePyString(std::string_view& s, std::string& out) {
    if (s.empty() || (s[0] != '\'' && s[0] != '"')) return false;
    const char q = s[0];
    out.clear();
    for (size_t i = 1; i < s.size(); ++i) {
        char c = s[i];
        if (c == '\\' && i + 1 < s.size()) {
            char e = s[++i];
            out += e == 'n' ? '\n' : e == 't' ? '\t' : e;
            continue;
        }
        if (c == q) {
            s = s.substr(i + 1);
            return true;
        }
        out += c;
    }
    return false;
}

void skipBlanksAndComma(std::string_view& s) {
    while (!s.empty() && (s[0] == ' ' || s[0] == ',')) s.remove_prefix(1);
}

// "<before>. expected E, actual A[. more]" -> E, A
void expectedActual(std::string_view rest, std::string& expected, std::string& actual) {
    auto e = rest.find("expected ");
    if (e == std::string_view::npos) return;
    auto tail = rest.substr(e + 9);
    auto comma = tail.find(", actual ");
    if (comma == std::string_view::npos) {
        expected = std::string(trimRight(tail));
        return;
    }
    expected = std::string(tail.substr(0, comma));
    auto a = tail.substr(comma + 9);
    auto stop = a.find(". ");
    a = trimRight(a.substr(0, stop));
    if (!a.empty() && a.back() == '.') a.remove_suffix(1);
    actual = std::string(a);
}
}  // namespace

GuardFailure parseGuardFailure(std::string_view raw) {
    GuardFailure g;
    auto t = trim(raw);
    // The entry id: "0/0: " (2024+). Guard texts never start with digits and a slash.
    if (auto colon = t.find(": "); colon != std::string_view::npos && colon < 24 && colon > 2 &&
                                   std::isdigit(static_cast<unsigned char>(t[0]))) {
        auto id = t.substr(0, colon);
        bool ok = id.find('/') != std::string_view::npos;
        for (char c : id) ok = ok && (std::isdigit(static_cast<unsigned char>(c)) || c == '/' || c == '_');
        if (ok) {
            g.entry = std::string(id);
            t = t.substr(colon + 2);
        }
    } else if (t.size() > 2 && std::isdigit(static_cast<unsigned char>(t[0])) && t.back() == ':' &&
               t.find('/') != std::string_view::npos && t.find(' ') == std::string_view::npos) {
        g.entry = std::string(t.substr(0, t.size() - 1));  // "0/0:" with an empty reason (issue 164119)
        t = {};
    }
    // The source comment dynamo appends: "y == 7      # return x + y  # test.py:5 in foo"
    if (auto hash = t.find("  # "); hash != std::string_view::npos) t = t.substr(0, hash);
    t = trimRight(t);
    g.text = std::string(t);
    g.subject = g.text;
    g.role = CS_ROLE_OTHER;
    if (startsWith(t, "tensor '")) {
        // tensor 'NAME' WHAT mismatch[ at index N]. expected E, actual A
        auto mm = t.find(" mismatch");
        auto nameEnd = mm == std::string_view::npos ? mm : t.rfind("' ", mm);
        if (nameEnd != std::string_view::npos && nameEnd > 8) {
            auto name = t.substr(8, nameEnd - 8);
            auto what = t.substr(nameEnd + 2, mm - nameEnd - 2);
            auto after = t.substr(mm + 9);
            std::string index;
            if (startsWith(after, " at index ")) {
                auto idx = after.substr(10);
                index = std::string(idx.substr(0, idx.find('.')));
            }
            g.subject = std::string(what) + " of " + std::string(name) + (index.empty() ? "" : " at index " + index);
            g.role = (what == "size" || what == "stride") ? CS_ROLE_SHAPE : what == "dtype" ? CS_ROLE_TYPE : CS_ROLE_OTHER;
            expectedActual(after, g.expected, g.actual);
        }
        return g;
    }
    // EXPR == CONST[, with LHS value: V]
    auto eq = t.find(" == ");
    if (eq != std::string_view::npos && t.find(" == ", eq + 4) == std::string_view::npos) {
        auto rhs = t.substr(eq + 4);
        auto lhsValue = rhs.find(", with LHS value: ");
        if (lhsValue != std::string_view::npos) {
            g.actual = std::string(trim(rhs.substr(lhsValue + 18)));
            rhs = rhs.substr(0, lhsValue);
        }
        g.subject = std::string(trim(t.substr(0, eq)));
        g.expected = std::string(trim(rhs));
    }
    return g;
}

RecompileLine parseRecompileLine(std::string_view message) {
    RecompileLine r;
    auto m = trimRight(message);
    for (std::string_view tag : {"[__recompiles_verbose]", "[__recompiles]"}) {
        if (startsWith(m, tag)) {
            r.verbose = tag.size() > 15;
            m = m.substr(tag.size());
            break;
        }
    }
    auto t = trim(m);
    if (startsWith(t, "('Recompiling function ") || startsWith(t, "(\"Recompiling function ")) {
        auto s = t.substr(1);
        std::string header, reasons;
        if (!takePyString(s, header)) return r;
        skipBlanksAndComma(s);
        if (!takePyString(s, reasons)) return r;
        auto parsed = parseRecompileLine(header);
        if (parsed.kind != RecompileLineKind::Header) return r;
        r.kind = RecompileLineKind::Tuple;
        r.function = parsed.function;
        r.file = parsed.file;
        std::string_view rs = reasons;
        for (std::string_view p : {"triggered by the following guard failures: ", "triggered by the following guard failure: "}) {
            if (!startsWith(rs, p)) continue;
            rs = trim(rs.substr(p.size()));
            if (p.find("failures") != std::string_view::npos && startsWith(rs, "[")) {
                rs.remove_prefix(1);
                std::string item;
                for (;;) {
                    skipBlanksAndComma(rs);
                    if (!takePyString(rs, item)) break;
                    r.failures.push_back(parseGuardFailure(item));
                }
            } else {
                r.failures.push_back(parseGuardFailure(rs));
            }
            break;
        }
        return r;
    }
    if (startsWith(t, "Recompiling function ")) {
        auto rest = t.substr(21);
        auto in = rest.rfind(" in ");
        if (in == std::string_view::npos) return r;
        r.kind = RecompileLineKind::Header;
        r.function = std::string(rest.substr(0, in));
        r.file = std::string(trim(rest.substr(in + 4)));
        return r;
    }
    if (startsWith(t, "triggered by the following guard failure")) {
        r.kind = RecompileLineKind::TriggeredBy;
        return r;
    }
    if (startsWith(t, "guard ") && t.size() > 16 && t.substr(t.size() - 10) == " failures:") {
        r.kind = RecompileLineKind::GuardGroup;
        return r;
    }
    if (startsWith(t, "- ") || t == "-") {
        r.kind = RecompileLineKind::Failure;
        r.failures.push_back(parseGuardFailure(t.substr(t.size() > 1 ? 2 : 1)));
        return r;
    }
    if (startsWith(t, "torch._dynamo hit config.")) {
        auto rest = t.substr(25);
        auto open = rest.find(" (");
        auto close = rest.find(')', open == std::string_view::npos ? 0 : open);
        long long v = 0;
        if (open == std::string_view::npos || close == std::string_view::npos ||
            !parseInt(rest.substr(open + 2, close - open - 2), v))
            return r;
        r.kind = RecompileLineKind::LimitHit;
        r.limitName = std::string(rest.substr(0, open));
        r.limitValue = v;
        return r;
    }
    if (startsWith(t, "torch._dynamo.exc.FailOnRecompileLimitHit: ")) {
        r.kind = RecompileLineKind::LimitRaised;
        r.message = std::string(t.substr(43));
        return r;
    }
    if (startsWith(t, "function: '")) {
        auto q = t.find("' (", 11);
        if (q == std::string_view::npos || t.back() != ')') return r;
        r.kind = RecompileLineKind::LimitFunction;
        r.function = std::string(t.substr(11, q - 11));
        r.file = std::string(t.substr(q + 3, t.size() - q - 4));
        return r;
    }
    if (startsWith(t, "last reason: ") || t == "last reason:") {
        r.kind = RecompileLineKind::LimitReason;
        r.failures.push_back(parseGuardFailure(t.size() > 13 ? t.substr(13) : std::string_view{}));
        return r;
    }
    return r;
}

}  // namespace cs::ingest::torch
