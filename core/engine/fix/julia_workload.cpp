// The Julia workload: which --trace-compile statements a package can name, and the text (julia_workload.h).
#include "core/engine/fix/julia_workload.h"

#include "core/formats/julia_signature.h"
#include "core/util/saturating.h"
#include "core/util/units.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace cs::engine::fix {

namespace {
// The class names `fix` prints (docs/fix.md, "Julia"); one per SnoopCompile rule.
const char* kUnparseable = "signature does not parse as Tuple{...}";
const char* kGensym = "closure or gensym'd name (var\"#...\", #1): renamed by every build, no top-level code can name it";
const char* kMain = "defined in Main (a script or the REPL), not in a package: no package's workload can name it";
const char* kCompiler = "Core.Compiler internals: not public, and part of Julia's own image";

bool identChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '!' || static_cast<unsigned char>(c) >= 0x80;
}

// Brackets balance outside var"..." names, and nothing follows the closing brace.
bool balanced(std::string_view s) {
    int depth = 0;
    bool quoted = false;
    for (size_t i = 0; i < s.size(); ++i) {
        char c = s[i];
        if (c == '"') quoted = !quoted;
        if (quoted) continue;
        if (c == '{' || c == '(' || c == '[') ++depth;
        if (c == '}' || c == ')' || c == ']') {
            if (--depth < 0) return false;
            if (depth == 0 && i + 1 != s.size() && c == '}') return false;
        }
    }
    return depth == 0 && !quoted;
}

// Each top-level module a signature qualifies a name with ("Base" for Base.IdDict), in text order.
std::vector<std::string> qualifiers(std::string_view s) {
    std::vector<std::string> out;
    bool quoted = false;
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '"') quoted = !quoted;
        if (quoted || !identChar(s[i]) || (i > 0 && (identChar(s[i - 1]) || s[i - 1] == '.' || s[i - 1] == ':'))) continue;
        size_t j = i;
        while (j < s.size() && identChar(s[j])) ++j;
        if (j < s.size() && s[j] == '.' && !std::isdigit(static_cast<unsigned char>(s[i]))) out.emplace_back(s.substr(i, j - i));
        i = j - 1;
    }
    return out;
}

bool names(std::string_view s, const std::string& module) {
    auto q = qualifiers(s);
    return std::find(q.begin(), q.end(), module) != q.end();
}

std::string comment(const std::string& text) { return "# " + text + "\n"; }
}  // namespace

std::string unnameableReason(std::string_view signature) {
    if (!balanced(signature) || precompileSignatureKey(signature).empty()) return kUnparseable;
    if (signature.find('#') != std::string_view::npos) return kGensym;  // inside var"..." or bare (#1, ##kw)
    if (names(signature, "Main")) return kMain;
    if (signature.find("Core.Compiler.") != std::string_view::npos) return kCompiler;
    return "";
}

std::string packageOf(std::string_view signature) {
    auto elems = splitTopLevel(signature.substr(6, signature.size() - 7), ',');
    if (elems.empty()) return "Base";
    auto own = qualifiers(elems[0]);
    std::string pkg = own.empty() ? "Core" : own.front();
    if (pkg != "Base" && pkg != "Core") return pkg;
    for (size_t i = 1; i < elems.size(); ++i)
        for (const auto& q : qualifiers(elems[i]))
            if (q != "Base" && q != "Core") return q;
    return "Base";
}

JuliaWorkload buildJuliaWorkload(const std::vector<JuliaInput>& statements) {
    JuliaWorkload w;
    std::set<std::string> seen;
    for (const auto& s : statements) {
        if (!seen.insert(s.signature).second) continue;
        ++w.statements;
        if (auto why = unnameableReason(s.signature); !why.empty()) {
            auto it = std::find_if(w.excluded.begin(), w.excluded.end(), [&](const auto& e) { return e.reason == why; });
            if (it == w.excluded.end()) it = w.excluded.insert(w.excluded.end(), {why, {}});
            it->signatures.push_back(s.signature);
            continue;
        }
        ++w.nameable;
        const std::string pkg = packageOf(s.signature);
        auto it = std::find_if(w.packages.begin(), w.packages.end(), [&](const auto& p) { return p.name == pkg; });
        if (it == w.packages.end()) it = w.packages.insert(w.packages.end(), {pkg, {}, 0});
        it->signatures.push_back(s.signature);
        if (s.ns >= 0) {
            it->timedNs = util::satAdd(it->timedNs, s.ns);  // stored times are untrusted: no UB (issue 40)
            w.timedNs = util::satAdd(w.timedNs, s.ns);
            w.timed = true;
        }
    }
    return w;
}

std::string workloadText(const JuliaWorkload& w) {
    std::string out = comment("precompile workload from " + std::to_string(w.statements) + " --trace-compile statement(s): " +
                              std::to_string(w.nameable) + " nameable, in " + std::to_string(w.packages.size()) +
                              " package(s); " + std::to_string(w.statements - w.nameable) + " left out");
    for (const auto& e : w.excluded) {
        out += comment("left out, " + std::to_string(e.signatures.size()) + " statement(s): " + e.reason);
        for (const auto& s : e.signatures) out += comment("  precompile(" + s + ")");
    }
    for (const auto& p : w.packages) {
        out += "\n" + comment("package " + p.name + ": " + std::to_string(p.signatures.size()) + " statement(s)" +
                              (p.timedNs > 0 ? ", " + util::formatDuration(p.timedNs) + " timed" : std::string()) +
                              (p.name == "Base" ? ". Base functions on Base types: put this block in your own package's "
                                                  "module (Base's image is not rebuilt)."
                                                : ". Put this block in module " + p.name + ", after the definitions it calls."));
        out += "using PrecompileTools\n@setup_workload begin\n    @compile_workload begin\n";
        for (const auto& s : p.signatures) out += "        precompile(" + s + ")\n";
        out += "    end\nend\n";
    }
    return out;
}

}  // namespace cs::engine::fix
