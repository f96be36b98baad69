// JAX fixes: a churning static argument dropped from static_argnums / static_argnames, and a padding
// bucket for shape churn (docs/fix.md).
#include "core/engine/fix/runtime_fixes.h"
#include "core/engine/fix/source_text.h"

#include <algorithm>

namespace cs::engine::fix {

namespace {
// The argument a component names: "static argument #1" -> position 1; "static argument n" -> "n".
bool staticArgument(const std::string& component, int& position, std::string& name) {
    const std::string head = "static argument ";
    if (component.rfind(head, 0) != 0) return false;
    auto rest = component.substr(head.size());
    if (!rest.empty() && rest[0] == '#') {
        if (rest.size() < 2 || rest.find_first_not_of("0123456789", 1) != std::string::npos) return false;
        position = std::stoi(rest.substr(1));
        return true;
    }
    name = rest;
    return isIdentifier(name);
}

// Removes `drop` from the keyword `key=` of a decorator line: `key=(1,)`, `key=[1, 2]`, `key=1`,
// `key="n"`; the keyword goes when nothing is left. False when the line holds no such keyword.
bool removeFromKeyword(std::string& line, const std::string& key, const std::string& drop) {
    auto at = line.find(key + "=");
    if (at == std::string::npos) return false;
    size_t valueStart = at + key.size() + 1, valueEnd = 0;
    std::vector<std::string> items;
    bool bracketed = valueStart < line.size() && (line[valueStart] == '(' || line[valueStart] == '[');
    if (bracketed) {
        valueEnd = closingBracket(line, valueStart);
        if (valueEnd == std::string::npos) return false;
        items = splitArgs(line.substr(valueStart + 1, valueEnd - valueStart - 1));
        ++valueEnd;
    } else {
        valueEnd = line.find_first_of(",)", valueStart);
        if (valueEnd == std::string::npos) return false;
        items = {trim(line.substr(valueStart, valueEnd - valueStart))};
    }
    auto kept = items;
    kept.erase(std::remove_if(kept.begin(), kept.end(), [&](const std::string& s) {
                   return s == drop || s == "'" + drop + "'" || s == "\"" + drop + "\"";
               }), kept.end());
    if (kept.size() == items.size()) return false;
    if (!kept.empty()) {
        std::string value = "(";
        for (size_t i = 0; i < kept.size(); ++i) value += (i ? ", " : "") + kept[i];
        value += kept.size() == 1 ? ",)" : ")";
        line = line.substr(0, valueStart) + value + line.substr(valueEnd);
        return true;
    }
    size_t from = at, to = valueEnd;
    auto before = line.find_last_not_of(" ", at == 0 ? 0 : at - 1);
    if (before != std::string::npos && line[before] == ',') from = before;  // ", key=..." 
    else if (to < line.size() && line[to] == ',') to = line.find_first_not_of(" ", to + 1);  // "key=..., "
    line = line.substr(0, from) + line.substr(to);
    return true;
}
}  // namespace

bool jaxStaticFix(const FixInput& in, FixChange& out, std::string& whyNot) {
    auto lookups = evidenceLookups(in);
    if (lookups.empty()) return whyNot = "the finding names no cache lookup", false;
    const auto& facts = in.analysis.cache->facts;
    auto place = placeOfProgram(facts.str(lookups.front()->program));
    auto note = in.finding.evidence.front().note;
    int position = -1;
    std::string name;
    if (!place || !staticArgument(note.substr(0, note.find(" = ")), position, name))
        return whyNot = "the trace does not name the function's file and line or the static argument", false;
    out.runtime = "jax";
    out.language = "python";
    out.file = place->file;
    out.line = place->line;
    auto text = in.context.read(place->file);
    auto lines = text ? splitLines(*text) : std::vector<std::string>{};
    int def = findDef(lines, place->function, place->line);
    auto params = def < 0 ? std::vector<std::string>{} : defParameters(lines, def);
    if (name.empty() && position >= 0 && position < static_cast<int>(params.size())) name = params[position];
    if (position < 0 && !name.empty()) {
        auto it = std::find(params.begin(), params.end(), name);
        if (it != params.end()) position = static_cast<int>(it - params.begin());
    }
    auto label = name.empty() ? "#" + std::to_string(position) : name;
    out.summary = "trace argument " + label + " of " + place->function + " instead of compiling per value";
    setSaving(out, in.finding, "every compile of " + place->function + " after the first");
    out.verify = "record again; " + in.finding.kind + " is resolved and " + place->function + " traces once";
    out.snippet = "jax.jit(" + place->function + ")  # without static_argnums / static_argnames for " + label;
    out.where = "the jax.jit of " + place->function + " at " + place->file + ":" + std::to_string(place->line);
    out.notes.push_back("valid when " + place->function + " uses " + label + " only in array operations; if it drives "
                        "Python control flow or a shape, keep it static and bound the values it takes");
    auto after = lines;
    bool changed = false;
    for (int i = std::max(0, place->line - 1); def >= 0 && i <= def; ++i) {
        if (position >= 0) changed = removeFromKeyword(after[i], "static_argnums", std::to_string(position)) || changed;
        if (!name.empty()) changed = removeFromKeyword(after[i], "static_argnames", name) || changed;
    }
    if (changed) out.diff = unifiedDiff(place->file, lines, after);
    else out.notes.push_back("no static_argnums / static_argnames naming it on the decorator: apply the snippet by hand");
    return true;
}

bool jaxShapeFix(const FixInput& in, FixChange& out, std::string& whyNot) {
    auto lookups = evidenceLookups(in);
    if (lookups.empty()) return whyNot = "the finding names no cache lookup", false;
    auto place = placeOfProgram(in.analysis.cache->facts.str(lookups.front()->program));
    out.runtime = "jax";
    out.language = "python";
    if (place) out.file = place->file, out.line = place->line;
    auto fn = place ? place->function : std::string("f");
    out.summary = "pad the churning dimension to a power-of-two bucket before calling " + fn;
    setSaving(out, in.finding, "all but one compile per bucket");
    out.verify = "record again; " + in.finding.kind + " is resolved: one compile per bucket";
    out.snippet = "import jax.numpy as jnp\n\n"
                  "def pad_to_bucket(x, axis=0):  # compilescope fix: finding " + std::to_string(in.index + 1) + "\n"
                  "    n = x.shape[axis]\n"
                  "    size = 1 << max(0, n - 1).bit_length()\n"
                  "    pad = [(0, 0)] * x.ndim\n"
                  "    pad[axis] = (0, size - n)\n"
                  "    return jnp.pad(x, pad)\n";
    out.where = "call " + fn + "(pad_to_bucket(x), ...) and mask or slice the padded rows in the result";
    out.notes.push_back("not applied: padding changes what the function sees, so where to mask is the program's choice");
    return true;
}

}  // namespace cs::engine::fix
