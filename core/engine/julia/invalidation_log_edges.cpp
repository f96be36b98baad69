// The walk over Julia 1.12's edge invalidation log ("logedges", Base.StaticData), then its
// consolidation with the method-table trees: SnoopCompile's "logedges" parser and its default
// consolidate=true (docs/formats.md 1.1-1.2).
//
// Why a flat switch: each entry is (item, tag, ...) and its tag says how many items follow and what
// they mean. `step` dispatches on the tag, one short handler per case, each returning where the walk
// goes next; a cut-off or unknown entry is counted in `problems` and skipped, never guessed.
#include "core/engine/julia/invalidation_log_builder.h"

#include <compilescope/trace_constants.h>

#include <unordered_map>

namespace cs::engine::invalidation_log {

namespace {

enum class EdgeTag { BackedgesCallee, GlobalRef, VerifyMethods, Unknown };

EdgeTag edgeTagOf(const std::string& tag) {
    if (tag == "insert_backedges_callee") return EdgeTag::BackedgesCallee;
    if (tag == "method_globalref") return EdgeTag::GlobalRef;
    if (tag == "verify_methods") return EdgeTag::VerifyMethods;
    return EdgeTag::Unknown;
}

// The trees of one edge entry, before they join the method-table trees.
struct EdgeTree {
    InvalidationReason reason;
    std::vector<std::string> methods;
    std::vector<MtBackedge> mt;
    std::vector<Backedge> be;
};

class EdgesWalk {
public:
    EdgesWalk(Builder& builder, const std::vector<RawInvalidationItem>& items)
        : b(builder), f(builder.forest()), list(items), n(items.size()) {}

    void run() {
        size_t i = 0;
        while (i + 1 < n) i = step(i);
        if (i < n) {
            if (list[i].kind == CS_INVITEM_ELISION) b.problem("edge list elided with ⋮: trees were built from the visible items only", 1);
            else b.problem("a lone item at the end of the edge list (truncated?)", 1);
        }
        if (!unknown.mt.empty() || !unknown.be.empty()) etrees.push_back(std::move(unknown));
        consolidate();
    }

private:
    size_t step(size_t i) {
        if (list[i].kind == CS_INVITEM_ELISION) return onElision(i);
        if (list[i + 1].kind != CS_INVITEM_TAG) {
            b.problem("edge list out of step: expected a tag as the second item of an entry", 1);
            return i + 1;
        }
        std::string tag = unquote(list[i + 1].text);
        switch (edgeTagOf(tag)) {
        case EdgeTag::BackedgesCallee: return onCallee(i, tag, false);
        case EdgeTag::GlobalRef: return onCallee(i, tag, true);
        case EdgeTag::VerifyMethods: return onVerifyMethods(i);
        case EdgeTag::Unknown: break;
        }
        b.problem("unknown edge tag \"" + tag + "\" (a Julia version this build does not know?)", 2);
        return i + 2;
    }

    // The REPL left items out (or the paste starts here): resume at the next entry, whose second item
    // is a tag; what lies before it belongs to an entry we cannot see.
    size_t onElision(size_t i) {
        b.problem("edge list elided with ⋮: trees were built from the visible items only", 1);
        size_t skipped = 0;
        ++i;
        while (i + 1 < n && list[i + 1].kind != CS_INVITEM_TAG && list[i].kind != CS_INVITEM_ELISION) ++i, ++skipped;
        if (skipped) b.problem("edge list items cut off by an elided stretch (⋮)", static_cast<std::int64_t>(skipped));
        return i;
    }

    // edge, tag, target, matches
    size_t onCallee(size_t i, const std::string& tag, bool globalRef) {
        if (i + 3 >= n) {
            b.problem(tag + " cut off at the end of the list", static_cast<std::int64_t>(n - i));
            return n;
        }
        if (globalRef) onGlobalRef(list[i + 2]);
        else onBackedgesCallee(list[i], list[i + 2], list[i + 3]);
        return i + 4;
    }

    // An implicit GlobalRef edge of `def` changed. SnoopCompile does not attribute these either; the
    // caller tree stays visible under "unknown".
    void onGlobalRef(const RawInvalidationItem& target) {
        auto node = b.newNode(b.instance(target.text), 0, -1);
        callee[target.text] = node;
        unknown.be.push_back({.superseded = std::string(), .root = node});
        b.problem("method_globalref entries (binding edges; listed under \"unknown\")", 4);
    }

    static InvalidationReason reasonOf(const RawInvalidationItem& edge, const RawInvalidationItem& matches,
                                       const std::vector<std::string>& methods) {
        // `nothing` in place of the matches: Julia 1.12 did not record what broke the edge (an invoke
        // edge before julia#57999). The cause is unknown, not a deletion.
        return !methods.empty()                        ? InvalidationReason::Inserting
               : edge.kind == CS_INVITEM_BINDING       ? InvalidationReason::Rebinding
               : matches.kind == CS_INVITEM_NOTHING    ? InvalidationReason::Unknown
                                                       : InvalidationReason::Deleting;
    }

    void onBackedgesCallee(const RawInvalidationItem& edge, const RawInvalidationItem& target,
                           const RawInvalidationItem& matches) {
        auto methods = vectorElements(matches.text);
        InvalidationReason r = reasonOf(edge, matches, methods);
        EdgeTree t{r, r == InvalidationReason::Rebinding ? std::vector<std::string>{std::string(edge.text)} : methods, {}, {}};
        if (edge.kind == CS_INVITEM_TYPE || edge.kind == CS_INVITEM_BINDING) {
            auto node = b.newNode(b.instance(target.text), 0, -1);
            callee[target.text] = node;
            std::string sig(edge.text);
            if (edge.kind == CS_INVITEM_BINDING && sig.substr(0, 8) == "Binding ") sig = sig.substr(8);
            t.mt.push_back({.signature = sig, .formerly = std::string(), .root = node});
        } else {
            auto root = calleeNode(edge.text, t.be);
            callee[target.text] = b.newNode(b.instance(target.text), f.nodes[static_cast<size_t>(root)].depth + 1, root);
        }
        if (r == InvalidationReason::Unknown) {
            for (auto& e : t.mt) unknown.mt.push_back(std::move(e));
            for (auto& be : t.be) unknown.be.push_back(std::move(be));
        } else {
            etrees.push_back(std::move(t));
        }
    }

    // The node of a callee already seen, or a new root for it entered as a backedge in `roots`.
    std::int32_t calleeNode(std::string_view text, std::vector<Backedge>& roots) {
        auto it = callee.find(text);
        if (it != callee.end()) return it->second;
        auto root = b.newNode(b.instance(text), 0, -1);
        roots.push_back({.superseded = std::string(), .root = root});
        callee[text] = root;
        return root;
    }

    // caller, tag, cause: the caller joins the tree below its invalidated callee.
    size_t onVerifyMethods(size_t i) {
        if (i + 2 >= n) {
            b.problem("verify_methods cut off at the end of the list", static_cast<std::int64_t>(n - i));
            return n;
        }
        const auto& caller = list[i];
        const auto& cause = list[i + 2];
        if (caller.text == cause.text) return i + 3;
        auto node = calleeNode(cause.text, unknown.be);
        callee[caller.text] = b.newNode(b.instance(caller.text), f.nodes[static_cast<size_t>(node)].depth + 1, node);
        return i + 3;
    }

    // Consolidate with the method-table trees (SnoopCompile's default, consolidate=true).
    void consolidate() {
        std::unordered_map<std::string, size_t> byMethod;
        for (size_t t = 0; t < f.trees.size(); ++t) byMethod.emplace(f.trees[t].method, t);
        for (const auto& et : etrees) {
            if (et.reason == InvalidationReason::Unknown || et.reason == InvalidationReason::Deleting) {
                addUnattributed(et);
                continue;
            }
            for (const auto& m : et.methods) {
                auto it = byMethod.find(m);
                if (it != byMethod.end()) {
                    joinInto(f.trees[it->second], et);
                    continue;
                }
                MethodInvalidations t;
                t.reason = et.reason;
                t.method = et.reason == InvalidationReason::Rebinding && m.substr(0, 8) == "Binding " ? m.substr(8) : m;
                joinInto(t, et);
                byMethod.emplace(m, f.trees.size());
                f.trees.push_back(std::move(t));
            }
        }
    }

    // An unknown cause, or a deletion the log does not name: one tree "nothing" of that reason.
    void addUnattributed(const EdgeTree& et) {
        MethodInvalidations t;
        t.reason = et.reason;
        t.method = "nothing";
        t.mtBackedges = et.mt;
        t.backedges = et.be;
        t.note = rootsNote(et);
        if (et.reason == InvalidationReason::Deleting)
            b.problem("deleted methods behind edge invalidations are not named in the log (SnoopCompile looks them up "
                      "in the live session); shown as \"deleting nothing\"",
                      1);
        f.trees.push_back(std::move(t));
    }

    void joinInto(MethodInvalidations& into, const EdgeTree& from) {
        for (const auto& e : from.mt) b.mergeMtBackedge(into.mtBackedges, e);
        for (const auto& be : from.be) into.backedges.push_back(be);
    }

    // A root that no verify_methods entry attached a caller to is itself the invalidated code; said
    // in a note, so a tree of such roots never reads as empty.
    std::string rootsNote(const EdgeTree& et) const {
        std::int64_t alone = 0, roots = 0;
        for (const auto& e : et.mt) ++roots, alone += f.nodes[static_cast<size_t>(e.root)].children.empty();
        for (const auto& be : et.be) ++roots, alone += f.nodes[static_cast<size_t>(be.root)].children.empty();
        if (!alone) return std::string();
        return std::to_string(alone) + " of " + std::to_string(roots) + (roots == 1 ? " root has" : " roots have") +
               " no callers in the log: the root itself is the invalidated code";
    }

    Builder& b;
    InvalidationForest& f;
    const std::vector<RawInvalidationItem>& list;
    const size_t n;
    std::vector<EdgeTree> etrees;
    EdgeTree unknown{InvalidationReason::Unknown, {}, {}, {}};
    std::unordered_map<std::string_view, std::int32_t> callee;  // keyed by the list's own text
};

}  // namespace

void walkEdgesLog(Builder& b, const std::vector<RawInvalidationItem>& list) { EdgesWalk(b, list).run(); }

}  // namespace cs::engine::invalidation_log
