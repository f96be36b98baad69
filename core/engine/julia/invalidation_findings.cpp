#include "core/engine/julia/invalidation_findings.h"

#include "core/engine/julia/invalidation_load.h"
#include "core/engine/julia/invalidation_printed.h"

#include "core/trace/reader.h"

#include <algorithm>

namespace cs::engine {

namespace {
// Tree's own method text without its file:line, for a one-line title.
std::string shortMethod(const std::string& m) {
    auto at = m.rfind(" @ ");
    if (at != std::string::npos) return m.substr(0, at);
    auto in = m.rfind(" in ");
    if (in != std::string::npos && m.find(" at ", in) != std::string::npos) return m.substr(0, in);
    return m;
}
}  // namespace

// Trees that invalidated nothing (only mt_cache entries) are not findings: dispatch-cache entries
// cost no compilation. Severity is Warning from 100 ms of recompilation or 100 children - the
// scale at which SnoopCompile's documentation calls a tree worth fixing.
std::vector<Finding> invalidationFindings(const InvalidationForest& forest) {
    std::vector<const MethodInvalidations*> trees;
    for (const auto& t : forest.trees)
        if (t.invalidatedInstances > 0) trees.push_back(&t);
    std::stable_sort(trees.begin(), trees.end(), [](auto* a, auto* b) {
        if (a->recompileNs != b->recompileNs) return a->recompileNs > b->recompileNs;
        return a->children > b->children;
    });
    std::vector<Finding> out;
    for (const auto* t : trees) {
        Finding f;
        f.kind = "julia.invalidation_tree";
        bool costly = t->recompileNs >= 100'000'000 || t->children >= 100;
        f.severity = costly ? Severity::Warning : Severity::Info;
        const bool noCause = t->reason == InvalidationReason::Unknown && !t->orphan;
        std::string who = t->multiMethodHeader ? "methods " + t->method
                          : t->orphan          ? "printed entries whose tree header is not in the paste"
                          : noCause            ? "an invalidation with an unknown cause"
                                               : std::string(reasonName(t->reason)) + " " + shortMethod(t->method);
        f.title = who + " invalidated " + std::to_string(t->invalidatedInstances) + " MethodInstances";
        if (forest.costJoined) f.title += " costing " + formatMs(t->recompileNs) + " of recompilation";
        f.mechanism =
            std::string(noCause ? "Julia's log records no cause for these invalidations (`nothing` where the methods that "
                                  "broke the edge belong, as Julia 1.12 logs invoke edges before julia#57999). "
                                : t->orphan ? "The paste starts inside a tree, so the method that caused it is not named. "
                                            : "") +
            "Julia compiled these MethodInstances against the method table before this method was " +
            std::string(t->reason == InvalidationReason::Deleting ? "deleted" : "added") +
            "; the change made their dispatch results wrong, so every caller in the tree was discarded and is "
            "compiled again on its next call (" + std::to_string(t->mtBackedges.size()) + " mt_backedges, " +
            std::to_string(t->backedges.size()) + " backedges, " + std::to_string(t->children) + " children)." +
            (forest.costJoined ? " " + std::to_string(t->recompiledInstances) +
                                     " of them were recompiled in this trace (`# recompile` statements and "
                                     "__init__ recompilation)."
                               : " The trace has no compile timings, so the cost is unknown.");
        if (!t->note.empty()) f.mechanism += " Note: " + t->note + ".";
        if (forest.costJoined && t->recompileNs > 0) f.costNs = t->recompileNs;
        // Evidence: the recompile measurements of the costliest instances in the tree.
        std::vector<const InvalidationNode*> measured;
        std::vector<std::int32_t> walk;
        for (const auto& e : t->mtBackedges) walk.push_back(e.root);
        for (const auto& b : t->backedges) walk.push_back(b.root);
        while (!walk.empty()) {
            const auto& n = forest.nodes[static_cast<size_t>(walk.back())];
            walk.pop_back();
            if (n.recompileSpanId) measured.push_back(&n);
            for (auto c : n.children) walk.push_back(c);
        }
        std::stable_sort(measured.begin(), measured.end(), [](auto* a, auto* b) { return a->recompileNs > b->recompileNs; });
        for (size_t k = 0; k < measured.size() && f.evidence.size() < 5; ++k) {
            bool dup = false;
            for (const auto& e : f.evidence) dup = dup || e.rowId == measured[k]->recompileSpanId;
            if (!dup)
                f.evidence.push_back({"spans", measured[k]->recompileSpanId,
                                      std::string(measured[k]->mi) + " recompiled, " + formatMs(measured[k]->recompileNs)});
        }
        // And the tree itself, so a viewer can open it (the finding has no time range of its own):
        // row = 1 + its index in the forest, the order `compilescope trees` prints.
        f.evidence.push_back({kInvalidationTreeEvidence, static_cast<std::int64_t>(t - forest.trees.data()) + 1,
                              who + ", " + std::to_string(t->children) + " children"});
        f.fix = noCause ? "Record again with `@snoop_invalidations` on a Julia that logs the cause (1.12 with julia#57999 "
                          "or later), then read `invalidation_trees`; the tree root names the method to fix."
              : t->orphan ? "Paste the whole `invalidation_trees` output (from its `N-element Vector` line) so each entry "
                            "has the method that caused it."
              : t->reason == InvalidationReason::Deleting
                    ? "Avoid deleting or overwriting methods at load time (method overwriting during precompilation, "
                      "Base.delete_method); define the method once."
                    : "Do not add methods to functions you do not own for types you do not own (type piracy), and "
                      "never on a bare Type or abstract argument such as show(::IO, ::Type{T}); restrict the method "
                      "to your own concrete types. In the invalidated package, make the callers infer concretely so "
                      "they do not depend on this dispatch, or move work out of __init__ so it is not recompiled "
                      "at load.";
        out.push_back(std::move(f));
    }
    for (const auto& p : forest.problems) {
        Finding f;
        f.kind = "julia.invalidation_log_unread";
        f.severity = Severity::Info;
        f.title = "invalidation log: " + p.what + " (" + std::to_string(p.items) + " items)";
        f.mechanism = "Part of the invalidation log could not be attributed to a tree; the trees shown are built "
                      "from the rest and are reported as such, not guessed.";
        f.fix = "Record with the CompileScope Julia collector (CompileScope.record) instead of pasting REPL "
                "output, or print the whole list (no ⋮) with show(stdout, MIME\"text/plain\"(), list; limit=false).";
        out.push_back(std::move(f));
    }
    return out;
}


}  // namespace cs::engine
