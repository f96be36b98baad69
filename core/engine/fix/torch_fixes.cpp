// PyTorch fixes: mark_dynamic before the calls of a frame whose input shape churns, dynamic=True for
// integer specialisation, and the recompile limit only as a last resort (docs/fix.md).
#include "core/engine/fix/runtime_fixes.h"
#include "core/engine/fix/source_text.h"

#include <algorithm>
#include <cctype>

namespace cs::engine::fix {

namespace {
// "size of x at index 0" / "size of L['x'] at index 0" -> {"x", "0"}.
bool parseSizeComponent(std::string text, std::string& param, std::string& dim) {
    auto eq = text.find(" = ");
    if (eq != std::string::npos) text = text.substr(0, eq);
    const std::string head = "size of ", mid = " at index ";
    auto at = text.find(mid);
    if (text.rfind(head, 0) != 0 || at == std::string::npos) return false;
    param = text.substr(head.size(), at - head.size());
    dim = text.substr(at + mid.size());
    if (param.rfind("L['", 0) == 0 && param.size() > 5) param = param.substr(3, param.size() - 5);
    return isIdentifier(param) && !dim.empty() && dim.find_first_not_of("0123456789") == std::string::npos;
}

bool dottedName(const std::string& s) {
    size_t start = 0;
    while (true) {
        auto dot = s.find('.', start);
        if (!isIdentifier(s.substr(start, dot - start))) return false;
        if (dot == std::string::npos) return true;
        start = dot + 1;
    }
}

// The expression passed for parameter `position` / `param` in the one-line call starting at `open`.
std::string argumentAt(const std::string& line, size_t open, size_t position, const std::string& param) {
    auto close = closingBracket(line, open);
    if (close == std::string::npos) return "";
    auto args = splitArgs(line.substr(open + 1, close - open - 1));
    for (const auto& a : args)
        if (a.rfind(param + "=", 0) == 0) return trim(a.substr(param.size() + 1));
    if (position < args.size() && args[position].find('=') == std::string::npos) return args[position];
    return "";
}

// Lines that call `fn(` outside its own definition, with the expression passed as the parameter.
std::vector<std::pair<int, std::string>> callSites(const std::vector<std::string>& lines, const std::string& fn,
                                                   int defLine, size_t position, const std::string& param) {
    std::vector<std::pair<int, std::string>> sites;
    for (int i = 0; i < static_cast<int>(lines.size()); ++i) {
        if (i == defLine) continue;
        const auto& l = lines[i];
        for (size_t at = l.find(fn + "("); at != std::string::npos; at = l.find(fn + "(", at + 1)) {
            if (at > 0 && (std::isalnum(static_cast<unsigned char>(l[at - 1])) || l[at - 1] == '_' || l[at - 1] == '.')) continue;
            auto expr = argumentAt(l, at + fn.size(), position, param);
            sites.emplace_back(i, expr);
            break;
        }
    }
    return sites;
}

bool hasImport(const std::vector<std::string>& lines, const std::string& module) {
    for (const auto& l : lines)
        if (l == "import " + module || l.rfind("import " + module + " ", 0) == 0 || l.rfind("import " + module + ",", 0) == 0) return true;
    return false;
}
}  // namespace

bool torchShapeFix(const FixInput& in, FixChange& out, std::string& whyNot) {
    auto lookups = evidenceLookups(in);
    if (lookups.empty()) return whyNot = "the finding names no cache lookup", false;
    const auto& facts = in.analysis.cache->facts;
    if (facts.str(lookups.front()->cache) == "jax tracing cache") return jaxShapeFix(in, out, whyNot);
    auto place = placeOfProgram(facts.str(lookups.front()->program));
    std::string param, dim;
    if (!place || in.finding.evidence.empty() || !parseSizeComponent(in.finding.evidence.front().note, param, dim))
        return whyNot = "the trace does not name the frame's file and line or the churning dimension", false;
    out.runtime = "torch";
    out.language = "python";
    out.file = place->file;
    out.line = place->line;
    out.summary = "mark dimension " + dim + " of " + param + " dynamic before calling " + place->function;
    setSaving(out, in.finding, "every compile of " + place->function + " after the first (" +
                                   std::to_string(lookups.size() - 1) + " of " + std::to_string(lookups.size()) + ")");
    out.verify = "record again; " + in.finding.kind + " is resolved and " + place->function + " compiles once";
    out.snippet = "torch._dynamo.mark_dynamic(" + param + ", " + dim + ")";
    out.where = "before the first call of " + place->function + " (" + place->file + ":" + std::to_string(place->line) +
                "), on the tensor passed as " + param;
    auto text = in.context.read(place->file);
    if (!text) return out.notes.push_back("the source file cannot be read here: apply the snippet by hand"), true;
    auto lines = splitLines(*text);
    int def = findDef(lines, place->function, place->line);
    auto params = def < 0 ? std::vector<std::string>{} : defParameters(lines, def);
    size_t position = std::find(params.begin(), params.end(), param) - params.begin();
    if (position == params.size()) return out.notes.push_back("the def of " + place->function + " was not found"), true;
    auto after = lines;
    int inserted = 0;
    for (const auto& [line, expr] : callSites(lines, place->function, def, position, param)) {
        if (!dottedName(expr)) return out.notes.push_back("a call passes an expression, not a name: apply the snippet by hand"), true;
        auto mark = indentOf(lines[line]) + "torch._dynamo.mark_dynamic(" + expr + ", " + dim + ")  # compilescope fix: finding " +
                    std::to_string(in.index + 1);
        after.insert(after.begin() + line + inserted++, mark);
    }
    if (inserted == 0) return out.notes.push_back("no call of " + place->function + " in its file: apply the snippet by hand"), true;
    if (!hasImport(lines, "torch")) after.insert(after.begin(), "import torch");
    out.diff = unifiedDiff(place->file, lines, after);
    return true;
}

bool intSpecialisationFix(const FixInput& in, FixChange& out, std::string& whyNot) {
    auto lookups = evidenceLookups(in);
    if (lookups.empty()) return whyNot = "the finding names no cache lookup", false;
    const auto& facts = in.analysis.cache->facts;
    if (facts.str(lookups.front()->cache) == "jax tracing cache") return jaxStaticFix(in, out, whyNot);
    auto place = placeOfProgram(facts.str(lookups.front()->program));
    if (!place) return whyNot = "the trace does not name the frame's file and line", false;
    out.runtime = "torch";
    out.language = "python";
    out.file = place->file;
    out.line = place->line;
    out.summary = "compile " + place->function + " with dynamic=True so the integer is symbolic";
    setSaving(out, in.finding, "every compile of " + place->function + " after the first");
    out.verify = "record again; " + in.finding.kind + " is resolved and " + place->function + " compiles at most twice";
    out.snippet = "@torch.compile(dynamic=True)\ndef " + place->function + "(*args):  # the def as it is\n    ...\n";
    out.where = "the torch.compile of " + place->function + " at " + place->file + ":" + std::to_string(place->line);
    out.notes.push_back("or pass the counter as a tensor (torch.tensor(t)): a tensor's value is never specialised");
    auto text = in.context.read(place->file);
    if (!text) return true;
    auto lines = splitLines(*text);
    int row = place->line - 1;
    if (row < 0 || row >= static_cast<int>(lines.size())) return true;
    auto& l = lines[row];
    auto at = l.find("torch.compile");
    if (at == std::string::npos || l.find("dynamic") != std::string::npos) return true;
    auto after = lines;
    auto open = at + std::string("torch.compile").size();
    if (open < l.size() && l[open] == '(') {
        auto close = closingBracket(l, open);
        if (close == std::string::npos) return true;
        bool empty = trim(l.substr(open + 1, close - open - 1)).empty();
        after[row] = l.substr(0, close) + (empty ? "dynamic=True" : ", dynamic=True") + l.substr(close);
    } else {
        after[row] = l.substr(0, open) + "(dynamic=True)" + l.substr(open);
    }
    out.diff = unifiedDiff(place->file, lines, after);
    return true;
}

bool recompileLimitFix(const FixInput& in, FixChange& out, std::string&) {
    out.runtime = "torch";
    out.language = "python";
    out.summary = "raise the recompile limit: a last resort, after the churn findings' own fixes";
    setSaving(out, in.finding, "the eager fallback: the frame keeps running compiled past the limit");
    out.verify = "record again; " + in.finding.kind + " is gone, and no churn finding is left (fix those first)";
    out.snippet = "import torch\ntorch._dynamo.config.recompile_limit = 16  # last resort: each recompile still costs a compile";
    out.where = "at the top of the program, before the first compiled call";
    out.notes.push_back("a last resort: a higher limit only lets the frame recompile more often; mark_dynamic or "
                        "dynamic=True (the churn findings) removes the recompiles");
    return true;
}

}  // namespace cs::engine::fix
