// Warp fixes: an option set after a module's first load moved before it; module="unique" removed
// from stable kernels; block_dim variants and late generic overloads as snippets. Options that
// change numerics are listed, never applied (docs/fix.md).
#include "core/engine/fix/runtime_fixes.h"
#include "core/engine/fix/source_text.h"

#include <algorithm>

namespace cs::engine::fix {

namespace {
// Options whose value changes the numbers a kernel computes: moving them before the first load would
// change the results of the launches that ran before, so the user decides (docs/fix.md).
bool changesNumerics(const std::string& option) {
    static const char* names[] = {"fast_math", "fuse_fp", "mode", "optimization_level"};
    return std::any_of(std::begin(names), std::end(names), [&](const char* n) { return option == n; });
}

// "module NAME built under ..." -> NAME.
std::string moduleOf(const Finding& f) {
    const std::string head = "module ";
    if (f.title.rfind(head, 0) != 0) return "";
    return f.title.substr(head.size(), f.title.find(' ', head.size()) - head.size());
}

// The options an evidence note says changed: "... option changed: max_unroll 16 -> 8, option changed: ...".
std::vector<std::string> changedOptions(const Finding& f) {
    std::vector<std::string> names;
    const std::string tag = "option changed: ";
    for (const auto& e : f.evidence)
        for (auto at = e.note.find(tag); at != std::string::npos; at = e.note.find(tag, at + 1)) {
            auto start = at + tag.size();
            auto name = e.note.substr(start, e.note.find(' ', start) - start);
            if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
        }
    return names;
}

// The file of a Warp module: the session's script for __main__, else pkg/mod.py beside the script.
std::string moduleFile(const FixInput& in, const std::string& module) {
    auto it = in.finding.sessionId ? in.context.scripts.find(*in.finding.sessionId) : in.context.scripts.end();
    if (it == in.context.scripts.end() && in.context.scripts.size() == 1) it = in.context.scripts.begin();
    if (it == in.context.scripts.end()) return "";
    if (module == "__main__") return it->second;
    auto dir = it->second.substr(0, it->second.rfind('/') + 1);
    auto path = module;
    std::replace(path.begin(), path.end(), '.', '/');
    return dir + path + ".py";
}

bool mentions(const std::string& line, const std::string& option) {
    return line.find("\"" + option + "\"") != std::string::npos || line.find("'" + option + "'") != std::string::npos;
}

// Where a module-scope option line goes: after `wp.init()`, else after the last import of warp.
int earliestPlace(const std::vector<std::string>& lines, int before) {
    int place = -1;
    for (int i = 0; i < before; ++i) {
        auto t = lines[i];
        if (t.rfind("import warp", 0) == 0 || t.rfind("from warp", 0) == 0 || t.rfind("wp.init()", 0) == 0 ||
            t.rfind("warp.init()", 0) == 0)
            place = i + 1;
    }
    return place;
}
}  // namespace

bool warpOptionFix(const FixInput& in, FixChange& out, std::string& whyNot) {
    auto module = moduleOf(in.finding);
    auto options = changedOptions(in.finding);
    if (module.empty() || options.empty()) return whyNot = "the trace does not say which option changed", false;
    std::string list;
    for (const auto& o : options) list += (list.empty() ? "" : ", ") + o;
    out.runtime = "warp";
    out.language = "python";
    out.summary = "set " + list + " of module " + module + " before its first load";
    setSaving(out, in.finding, "the builds of module " + module + " under its earlier options");
    out.verify = "record again; " + in.finding.kind + " is resolved and " + module + " compiles once";
    out.snippet = "wp.set_module_options({...})  # the " + list + " value the program sets later";
    out.where = "at module scope of " + module + ", before any of its kernels launches";
    for (const auto& o : options)
        if (changesNumerics(o)) {
            out.notes.push_back("not applied: " + o + " changes the numbers the kernels compute; moving it changes the "
                                "results of the launches before it, so decide and move it by hand");
        }
    if (!out.notes.empty()) return true;
    out.file = moduleFile(in, module);
    auto text = out.file.empty() ? std::nullopt : in.context.read(out.file);
    if (!text) return out.notes.push_back("the module's source file is not known here: apply the snippet by hand"), true;
    auto lines = splitLines(*text);
    auto set = std::find_if(lines.begin(), lines.end(), [&](const std::string& l) {
        return l.rfind("wp.set_module_options(", 0) == 0 && std::any_of(options.begin(), options.end(), [&](auto& o) { return mentions(l, o); });
    });
    int row = static_cast<int>(set - lines.begin());
    int to = set == lines.end() ? -1 : earliestPlace(lines, row);
    if (to < 0) return out.notes.push_back("no module-scope wp.set_module_options line to move: apply the snippet by hand"), true;
    out.line = row + 1;
    auto after = lines;
    after.erase(after.begin() + row);
    after.insert(after.begin() + to, lines[row]);
    out.diff = unifiedDiff(out.file, lines, after);
    if (out.diff.empty()) return out.notes.push_back("the option line already comes first"), true;
    return true;
}

bool warpUniqueFix(const FixInput& in, FixChange& out, std::string&) {
    out.runtime = "warp";
    out.language = "python";
    out.summary = "drop module=\"unique\" from kernels whose content never changes";
    setSaving(out, in.finding, "one module build per unique kernel");
    out.verify = "record again; " + in.finding.kind + " is resolved and the kernels share their module";
    out.snippet = "@wp.kernel  # was @wp.kernel(module=\"unique\")\ndef kernel(a: wp.array(dtype=float)):  # the def as it is\n    ...\n";
    out.where = "the kernels the finding names";
    return true;
}

bool warpBlockDimFix(const FixInput& in, FixChange& out, std::string&) {
    auto module = moduleOf(in.finding);
    out.runtime = "warp";
    out.language = "python";
    out.summary = "split the kernels of " + module + " into one module per block_dim";
    setSaving(out, in.finding, "the rebuilds of the whole module for each further block_dim");
    out.verify = "record again; " + in.finding.kind + " is resolved: each module builds at one block_dim";
    out.snippet = "@wp.kernel(module=\"" + module + ".bd256\")  # kernels launched with block_dim=256\n"
                  "def kernel(a: wp.array(dtype=float)):  # the def as it is\n    ...\n";
    out.where = "the kernels of " + module + " launched with each block_dim";
    return true;
}

bool warpGenericFix(const FixInput& in, FixChange& out, std::string&) {
    auto module = moduleOf(in.finding);
    out.runtime = "warp";
    out.language = "python";
    out.summary = "register the generic overloads of " + module + " before its first load";
    setSaving(out, in.finding, "the rebuild of " + module + " for each late overload");
    out.verify = "record again; " + in.finding.kind + " is resolved and " + module + " builds once";
    out.snippet = "wp.overload(kernel, {\"x\": wp.array(dtype=wp.float64)})  # each instance the run used, kept alive";
    out.where = "at module scope of " + module + ", after the generic kernel's definition and before any launch";
    return true;
}

}  // namespace cs::engine::fix
