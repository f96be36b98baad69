#include "core/formats/julia_signature.h"

namespace cs::engine {

std::string_view trimSpaces(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
    return s;
}

namespace {
std::string_view trimmed(std::string_view s) { return trimSpaces(s); }

bool identChar(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '!' ||
           c == '#' || static_cast<unsigned char>(c) >= 0x80;
}

// Drops spaces and module qualifiers: "Base.IOContext{Core.Int64}" -> "IOContext{Int64}".
std::string stripQualifiers(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    size_t i = 0;
    while (i < s.size()) {
        char c = s[i];
        if (c == ' ') { ++i; continue; }
        if (identChar(c) && !(c >= '0' && c <= '9')) {
            size_t j = i;
            while (j < s.size() && identChar(s[j])) ++j;
            // A qualifier is an identifier followed by '.' and another name (or ':' of Base.:(+)).
            if (j + 1 < s.size() && s[j] == '.' && (identChar(s[j + 1]) || s[j + 1] == ':') &&
                !(s[j + 1] >= '0' && s[j + 1] <= '9')) {
                i = j + 1;
                continue;
            }
            out.append(s.substr(i, j - i));
            i = j;
            continue;
        }
        out += c;
        ++i;
    }
    return out;
}

// Folds aliases on an already unqualified type: Array{T,1} -> Vector{T}, GenericIOBuffer{..} -> IOBuffer.
std::string foldAliases(std::string_view s, int level = 0) {
    s = trimmed(s);
    // Hostile input can nest braces arbitrarily deep; real signatures never pass a few dozen levels.
    if (level > 64) return std::string(s);
    size_t brace = s.find('{');
    if (brace == std::string_view::npos || s.back() != '}') return std::string(s);
    // Only a plain `Name{...}` is rewritten; other shapes (unions with where) keep their text.
    std::string_view name = s.substr(0, brace);
    auto params = splitTopLevel(s.substr(brace + 1, s.size() - brace - 2), ',');
    std::vector<std::string> p;
    for (auto q : params) p.push_back(foldAliases(q, level + 1));
    if (name == "GenericIOBuffer") return "IOBuffer";
    if (name == "Array" && p.size() == 2 && (p[1] == "1" || p[1] == "2")) {
        std::string out = p[1] == "1" ? "Vector{" : "Matrix{";
        out += p[0];
        out += '}';
        return out;
    }
    std::string out(name);
    out += '{';
    for (size_t i = 0; i < p.size(); ++i) {
        if (i) out += ',';
        out += p[i];
    }
    out += '}';
    return out;
}

std::string normType(std::string_view s) { return foldAliases(stripQualifiers(s)); }

// "Enzyme.Compiler.f" -> "f", "Base.:(+)" -> "+", ":(==)" -> "==".
std::string lastName(std::string_view fname) {
    fname = trimmed(fname);
    if (fname.size() > 3 && fname.substr(fname.size() - 1) == ")") {
        size_t p = fname.rfind(":(");
        if (p != std::string_view::npos) return std::string(fname.substr(p + 2, fname.size() - p - 3));
    }
    size_t dot = fname.rfind('.');
    if (dot != std::string_view::npos && dot + 1 < fname.size()) return std::string(fname.substr(dot + 1));
    return std::string(fname);
}
}  // namespace

std::vector<std::string_view> splitTopLevel(std::string_view s, char sep) {
    std::vector<std::string_view> out;
    int depth = 0;
    size_t start = 0;
    for (size_t i = 0; i < s.size(); ++i) {
        char c = s[i];
        if (c == '(' || c == '{' || c == '[') ++depth;
        else if (c == ')' || c == '}' || c == ']') --depth;
        else if (c == sep && depth == 0) {
            out.push_back(trimmed(s.substr(start, i - start)));
            start = i + 1;
        }
    }
    auto last = trimmed(s.substr(start));
    if (!last.empty() || !out.empty()) out.push_back(last);
    return out;
}

namespace {
// "Enzyme.Compiler.f" -> "Enzyme.Compiler"; "Base.:(+)" -> "Base"; "f" -> "".
std::string qualifierOf(std::string_view fname) {
    fname = trimmed(fname);
    size_t colon = fname.rfind(".:(");
    if (colon != std::string_view::npos) return std::string(fname.substr(0, colon));
    size_t dot = fname.rfind('.');
    return dot == std::string_view::npos ? std::string() : std::string(fname.substr(0, dot));
}
}  // namespace

bool qualifiersAgree(std::string_view mi, std::string_view full) {
    if (mi.empty() || mi == full) return true;
    return full.size() > mi.size() && full.substr(full.size() - mi.size()) == mi && full[full.size() - mi.size() - 1] == '.';
}

std::string methodInstanceKey(std::string_view text, std::string* qualifier) {
    text = trimmed(text);
    for (std::string_view prefix : {"MethodInstance for ", "CodeInstance for "})
        if (text.substr(0, prefix.size()) == prefix) text.remove_prefix(prefix.size());
    if (text.substr(0, 19) == "MethodInstance for ") text.remove_prefix(19);
    if (text.empty() || text.back() != ')') return {};
    // The argument list is the last top-level "( ... )".
    int depth = 0;
    size_t open = std::string_view::npos;
    for (size_t i = text.size(); i-- > 0;) {
        char c = text[i];
        if (c == ')' || c == '}' || c == ']') ++depth;
        else if (c == '(' || c == '{' || c == '[') {
            if (--depth == 0 && c == '(') { open = i; break; }
        }
    }
    if (open == std::string_view::npos || open == 0) return {};
    std::string_view fname = text.substr(0, open);
    std::string key;
    if (fname.size() > 4 && fname.substr(0, 3) == "(::" && fname.back() == ')') {
        key = "T:";
        key += normType(fname.substr(3, fname.size() - 4));
    } else {
        key = "F:";
        key += lastName(stripQualifiers(fname));
        if (qualifier) *qualifier = qualifierOf(fname);
    }
    key += '(';
    auto args = splitTopLevel(text.substr(open + 1, text.size() - open - 2), ',');
    for (size_t i = 0; i < args.size(); ++i) {
        std::string_view a = args[i];
        size_t dc = a.find("::");
        if (dc != std::string_view::npos) a = a.substr(dc + 2);
        if (i) key += ',';
        key += normType(a);
    }
    key += ')';
    return key;
}

std::string precompileSignatureKey(std::string_view sig, std::string* qualifier) {
    sig = trimmed(sig);
    if (sig.substr(0, 11) == "precompile(" && sig.back() == ')') sig = sig.substr(11, sig.size() - 12);
    if (sig.substr(0, 6) != "Tuple{" || sig.back() != '}') return {};
    auto elems = splitTopLevel(sig.substr(6, sig.size() - 7), ',');
    if (elems.empty()) return {};
    std::string key;
    std::string_view f = elems[0];
    if (f.substr(0, 7) == "typeof(" && f.back() == ')') {
        key = "F:";
        key += lastName(stripQualifiers(f.substr(7, f.size() - 8)));
        if (qualifier) *qualifier = qualifierOf(f.substr(7, f.size() - 8));
    } else {
        key = "T:";
        key += normType(f);
    }
    key += '(';
    for (size_t i = 1; i < elems.size(); ++i) {
        if (i > 1) key += ',';
        key += normType(elems[i]);
    }
    key += ')';
    return key;
}

std::string moduleOfText(std::string_view text) {
    text = trimmed(text);
    // A printed Method: "f(x) @ Mod file:line" (Julia >= 1.9) or "f(x) in Mod at file:line".
    size_t at = text.rfind(" @ ");
    if (at != std::string_view::npos) {
        auto rest = text.substr(at + 3);
        return std::string(rest.substr(0, rest.find(' ')));
    }
    size_t in = text.rfind(" in ");
    if (in != std::string_view::npos) {
        auto rest = text.substr(in + 4);
        size_t sp = rest.find(" at ");
        if (sp != std::string_view::npos) return std::string(rest.substr(0, sp));
    }
    for (std::string_view prefix : {"MethodInstance for ", "CodeInstance for "})
        if (text.substr(0, prefix.size()) == prefix) text.remove_prefix(prefix.size());
    if (text.substr(0, 3) == "(::") text.remove_prefix(3);
    size_t end = 0;
    while (end < text.size() && identChar(text[end])) ++end;
    if (end > 0 && end < text.size() && text[end] == '.' && end + 1 < text.size() &&
        (identChar(text[end + 1]) || text[end + 1] == ':'))
        return std::string(text.substr(0, end));
    return {};
}

}  // namespace cs::engine
