// Julia fixes: the precompile workload of a trace's --trace-compile statements (no finding of its
// own: every first-call compile is a candidate), and, for an invalidation tree, the method to make
// more specific or the package to report upstream, with the tree as evidence (docs/fix.md, "Julia").
#include "core/engine/fix/julia_workload.h"
#include "core/engine/fix/runtime_fixes.h"

#include "core/engine/julia/invalidation_findings.h"
#include "core/engine/julia/invalidation_printed.h"
#include "core/util/units.h"

#include <sstream>

namespace cs::engine::fix {

namespace {
std::string workloadSummary(const JuliaWorkload& w) {
    std::string names;
    for (size_t i = 0; i < w.packages.size() && i < 4; ++i) names += (i ? ", " : "") + w.packages[i].name;
    if (w.packages.size() > 4) names += ", ...";
    return "a PrecompileTools workload of the " + std::to_string(w.nameable) + " nameable --trace-compile statement(s), one "
           "block per package (" + names + ")";
}

void workloadNotes(const JuliaWorkload& w, FixChange& out) {
    for (const auto& e : w.excluded)
        out.notes.push_back("left out " + std::to_string(e.signatures.size()) + " statement(s): " + e.reason);
    out.notes.push_back("or, without PrecompileTools: the precompile(...) lines alone, at the end of each package's module");
    out.notes.push_back("a block naming another package's types needs that package as a dependency of the module it is in");
}

// The tree behind an invalidation finding (its evidence row: 1 + the tree's index).
const MethodInvalidations* treeOf(const FixInput& in) {
    if (!in.analysis.invalidations) return nullptr;
    const auto& trees = in.analysis.invalidations->trees;
    for (const auto& e : in.finding.evidence)
        if (e.table == kInvalidationTreeEvidence && e.rowId >= 1 && static_cast<size_t>(e.rowId) <= trees.size())
            return &trees[static_cast<size_t>(e.rowId - 1)];
    return nullptr;
}

// "show(io::IO, x::Type) @ Pkg ~/src/a.jl:12" -> method "show(io::IO, x::Type)", module Pkg, where ~/src/a.jl:12;
// the older "show(...) in Pkg at a.jl:12" likewise.
void splitMethod(const std::string& m, std::string& method, std::string& module, std::string& where) {
    method = m;
    if (auto at = m.rfind(" @ "); at != std::string::npos) {
        method = m.substr(0, at);
        auto rest = m.substr(at + 3);
        auto sp = rest.find(' ');
        module = rest.substr(0, sp);
        if (sp != std::string::npos) where = rest.substr(sp + 1);
    } else if (auto in = m.rfind(" in "); in != std::string::npos && m.find(" at ", in) != std::string::npos) {
        method = m.substr(0, in);
        auto at2 = m.find(" at ", in);
        module = m.substr(in + 4, at2 - in - 4);
        where = m.substr(at2 + 4);
    }
}

std::string commentedTree(const InvalidationForest& forest, const MethodInvalidations& t) {
    std::ostringstream tree;
    printTree(tree, forest, t, TreePrintOptions{false, true, false}, "");
    std::string out, line;
    std::istringstream lines(tree.str());
    for (int n = 0; std::getline(lines, line); ++n) {
        if (n == 40) {
            out += "#   ... (the whole tree: compilescope trees)\n";
            break;
        }
        out += "#   " + line + "\n";
    }
    return out;
}
}  // namespace

bool juliaWorkload(const FixSources& analysis, FixChange& out) {
    if (!analysis.juliaTiming) return false;
    std::vector<JuliaInput> in;
    for (const auto& s : analysis.juliaTiming->statements)
        if (!s.workload) in.push_back({s.name, s.ns});
    if (in.empty()) return false;
    const JuliaWorkload w = buildJuliaWorkload(in);
    out.finding = kNoFinding;
    out.kind = kJuliaWorkloadKind;
    out.runtime = out.language = "julia";
    out.summary = workloadSummary(w);
    out.snippet = workloadText(w);
    out.where = "each block in its package's module (src/PACKAGE.jl), after the definitions it calls";
    if (w.timed) out.savingNs = w.timedNs;
    out.saving = "these first-call compiles move into the packages' precompile caches" +
                 (w.timed ? " (" + util::formatDuration(w.timedNs) + " of timed compiling in this run)"
                          : std::string(" (times not recorded: run with --trace-compile-timing)"));
    out.verify = "precompile the packages, run again with --trace-compile=stderr --trace-compile-timing and import the log: "
                 "these statements no longer print (`compilescope diff` of the two traces)";
    workloadNotes(w, out);
    return w.nameable > 0;
}

bool juliaInvalidationFix(const FixInput& in, FixChange& out, std::string& whyNot) {
    const MethodInvalidations* t = treeOf(in);
    if (!t) return (whyNot = "the trace holds no tree for this finding"), false;
    if (t->orphan || t->multiMethodHeader || t->reason == InvalidationReason::Unknown || t->method == "nothing") {
        whyNot = "the tree does not name one method that caused it (see its fix)";
        return false;
    }
    std::string method, module, where;
    splitMethod(t->method, method, module, where);
    if (module.empty()) module = t->module.empty() ? "the package that defines it" : t->module;
    const bool deleting = t->reason == InvalidationReason::Deleting;
    out.runtime = out.language = "julia";
    const bool script = module == "Main" || module.rfind("Main.", 0) == 0;  // a script or the REPL: nothing upstream
    out.summary = (deleting ? "define `" + method + "` once instead of deleting or overwriting it"
                            : "make `" + method + "` more specific") + " (in " + module + ")" +
                  (script ? "" : ", or report it upstream to " + module);
    out.where = where.empty() ? "the method's definition in " + module : where + " (the method's definition, in " + module + ")";
    out.snippet = "# The method that invalidated " + std::to_string(t->invalidatedInstances) + " MethodInstance(s):\n#   " +
                  method + "\n# If " + module + " is your package: " +
                  (deleting ? "define the method once; do not overwrite or delete it at load time.\n"
                            : "restrict it to argument types your package owns (no methods on Base functions for "
                              "Base types, none on bare Type or Any).\n") +
                  (script ? "# The tree, as evidence:\n" : "# Otherwise: report it upstream to " + module + ", with this tree as evidence:\n") +
                  commentedTree(*in.analysis.invalidations, *t);
    setSaving(out, in.finding, "the recompilation of this tree's MethodInstances");
    out.verify = "record the invalidations again (@snoop_invalidations): this tree is gone; or the `# recompile` "
                 "statements of its MethodInstances no longer print";
    return true;
}

}  // namespace cs::engine::fix
