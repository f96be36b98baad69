// Numba fix: the dispatcher's decorator gets an explicit signature list with the types seen, so every
// overload compiles once at definition instead of at a call (docs/fix.md).
#include "core/engine/fix/runtime_fixes.h"
#include "core/engine/fix/source_text.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace cs::engine::fix {

namespace {
bool plainTypeName(const std::string& s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
        return std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_';
    });
}

// Numba's printed type -> its signature-string spelling: "int64" as is, "array(float64, 2d, C)" ->
// "float64[:, ::1]", "array(int32, 1d, A)" -> "int32[:]"; "" for a type the string cannot name.
std::string signatureType(const std::string& t) {
    if (plainTypeName(t)) return t;
    if (t.rfind("array(", 0) != 0 || t.back() != ')') return "";
    auto parts = splitArgs(t.substr(6, t.size() - 7));
    if (parts.size() != 3 || !plainTypeName(parts[0]) || parts[1].size() < 2 || parts[1].back() != 'd') return "";
    int ndim = std::atoi(parts[1].c_str());
    if (ndim < 1 || ndim > 8 || (parts[2] != "C" && parts[2] != "A")) return "";
    std::string dims;
    for (int i = 0; i < ndim; ++i) dims += (i ? ", " : "") + std::string(i == ndim - 1 && parts[2] == "C" ? "::1" : ":");
    return parts[0] + "[" + dims + "]";
}

// The quoted signatures of every call-time compile of the finding's dispatcher, in first-seen order.
bool signaturesSeen(const FixInput& in, const Lookup& first, std::vector<std::string>& sigs, std::string& whyNot) {
    const auto& facts = in.analysis.cache->facts;
    for (const auto& l : facts.lookups) {
        if (l.sessionId != first.sessionId || l.program != first.program || l.cache != first.cache) continue;
        std::string sig;
        for (const auto& c : l.components) {
            if (facts.str(c.name).rfind("type of arg ", 0) != 0) continue;
            auto t = signatureType(facts.str(c.value));
            if (t.empty()) return whyNot = "type " + facts.str(c.value) + " has no signature-string spelling", false;
            sig += (sig.empty() ? "" : ", ") + t;
        }
        sig = "\"(" + sig + ")\"";
        if (std::find(sigs.begin(), sigs.end(), sig) == sigs.end()) sigs.push_back(sig);
    }
    return true;
}

// `@numba.njit`, `@njit(cache=True)`, `@numba.jit(nopython=True)` -> the same with the list first.
bool addSignatures(std::string& line, const std::string& list) {
    auto t = trim(line);
    static const char* names[] = {"@numba.njit", "@numba.jit", "@njit", "@jit"};
    for (const char* n : names) {
        std::string name = n;
        if (t.rfind(name, 0) != 0) continue;
        auto rest = t.substr(name.size());
        if (rest.empty()) return line = indentOf(line) + name + "(" + list + ")", true;
        if (rest[0] != '(') continue;
        auto close = closingBracket(rest, 0);
        if (close == std::string::npos) return false;
        auto args = splitArgs(rest.substr(1, close - 1));
        if (!args.empty() && args.front().find('=') == std::string::npos) return false;  // already has signatures
        return line = indentOf(line) + name + "(" + list + (args.empty() ? "" : ", ") + rest.substr(1), true;
    }
    return false;
}
}  // namespace

bool numbaSignatureFix(const FixInput& in, FixChange& out, std::string& whyNot) {
    auto lookups = evidenceLookups(in);
    if (lookups.empty()) return whyNot = "the finding names no cache lookup", false;
    const auto& facts = in.analysis.cache->facts;
    std::vector<std::string> sigs;
    if (!signaturesSeen(in, *lookups.front(), sigs, whyNot)) return false;
    std::string list = "[";
    for (size_t i = 0; i < sigs.size(); ++i) list += (i ? ", " : "") + sigs[i];
    list += "]";
    auto program = facts.str(lookups.front()->program);
    auto fn = program.substr(program.rfind('.') + 1);
    out.runtime = "numba";
    out.language = "python";
    out.summary = "give " + program + " an explicit signature list: " + list;
    setSaving(out, in.finding, "the call-time compiles: each overload compiles once, at definition");
    out.verify = "record again; " + in.finding.kind + " is resolved: no compile of " + program + " waits for a call";
    out.snippet = "@numba.njit(" + list + ")\ndef " + fn + "(*args):  # the def as it is\n    ...\n";
    out.where = "the decorator of " + program;
    out.notes.push_back("a call with other types now raises TypeError instead of compiling: add its signature to the list");
    auto place = parseFileLine(componentValue(facts, *lookups.front(), "source"));
    if (!place) return out.notes.push_back("the trace does not name the function's file (record with a newer collector)"), true;
    out.file = place->file;
    out.line = place->line;
    out.where += " at " + place->file + ":" + std::to_string(place->line);
    auto text = in.context.read(place->file);
    if (!text) return out.notes.push_back("the source file cannot be read here: apply the snippet by hand"), true;
    auto lines = splitLines(*text);
    int def = findDef(lines, fn, place->line);
    auto after = lines;
    bool changed = false;
    for (int i = std::max(0, place->line - 1); def >= 0 && i < def && !changed; ++i) changed = addSignatures(after[i], list);
    if (changed) out.diff = unifiedDiff(place->file, lines, after);
    else out.notes.push_back("no @numba.njit / @numba.jit decorator to extend: apply the snippet by hand");
    return true;
}

}  // namespace cs::engine::fix
