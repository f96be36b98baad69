// The walk over Julia's method-table invalidation log ("logmeths", jl_debug_method_invalidation):
// SnoopCompile's single-list parser for Julia <= 1.11 and its "logmeths" half for 1.12
// (docs/formats.md 1.1-1.2).
//
// Why a flat switch: the list is a stream of (item, tag) pairs whose meaning depends on the kind of
// the item it stands on and, for an instance, on the tag after it. `step` dispatches on the kind and
// `onInstanceTag` on the tag, one short handler per case; each handler returns where the walk goes
// next, so a cut-off or unknown entry is counted in `problems` and skipped, never guessed.
#include "core/engine/julia/invalidation_log_builder.h"

#include <compilescope/trace_constants.h>

#include <charconv>
#include <optional>
#include <unordered_map>

namespace cs::engine::invalidation_log {

namespace {

enum class InstanceTag { MtCache, TableInsert, TableDisable, BackedgesCallee, VerifyMethods, PreJulia19, Unknown };

InstanceTag instanceTagOf(const std::string& tag) {
    if (tag == "invalidate_mt_cache") return InstanceTag::MtCache;
    if (tag == "jl_method_table_insert") return InstanceTag::TableInsert;
    if (tag == "jl_method_table_disable") return InstanceTag::TableDisable;
    if (tag == "insert_backedges_callee") return InstanceTag::BackedgesCallee;
    if (tag == "verify_methods") return InstanceTag::VerifyMethods;
    if (tag == "insert_backedges" || tag == "jl_insert_method_instance" || tag == "jl_insert_method_instance caller")
        return InstanceTag::PreJulia19;
    return InstanceTag::Unknown;
}

class MethodsWalk {
public:
    MethodsWalk(Builder& builder, const std::vector<RawInvalidationItem>& items)
        : b(builder), f(builder.forest()), list(items), n(items.size()) {}

    void run() {
        size_t i = 0;
        while (i < n) i = step(i);
        if (!p.empty() || leaf >= 0)
            b.problem("entries at the end of the list have no Method after them (list truncated?)",
                      static_cast<std::int64_t>(p.entries()) + (leaf >= 0));
    }

private:
    // insert_backedges_callee (Julia <= 1.11): key -> (callee text, callee is a MethodInstance, causes)
    struct Callee {
        std::string text;
        bool isInstance;
        std::vector<std::string> causes;
    };

    size_t step(size_t i) {
        switch (list[i].kind) {
        case CS_INVITEM_METHOD_INSTANCE:
        case CS_INVITEM_CODE_INSTANCE: return onInstance(i);
        case CS_INVITEM_TYPE: return onType(i);
        case CS_INVITEM_METHOD: return onMethod(i);
        case CS_INVITEM_ELISION: return onElision(i);
        case CS_INVITEM_OTHER: return onOther(i);
        default: return unexpected(i);
        }
    }

    int kindAt(size_t i) const { return i < n ? list[i].kind : -1; }

    // What was open is closed: the next entry starts a new tree.
    void resetOpen() {
        p = Pending{};
        leaf = -1;
        reason.reset();
    }

    std::optional<InvalidationReason> checkReason(const std::string& tag, size_t at) {
        InvalidationReason r;
        if (tag == "jl_method_table_insert") r = InvalidationReason::Inserting;
        else if (tag == "jl_method_table_disable") r = InvalidationReason::Deleting;
        else return std::nullopt;
        if (reason && *reason != r)
            b.problem("insertion and deletion tags mixed in one method block (item " + std::to_string(at) + ")", 1);
        reason = r;
        return r;
    }

    // callee, "insert_backedges_callee", key, causes
    size_t readCallee(size_t i, std::string callee, bool isInstance) {
        if (i + 3 >= n) {
            b.problem("insert_backedges_callee cut off at the end of the list", static_cast<std::int64_t>(n - i));
            return n;
        }
        backedgeTable[list[i + 2].text] = {std::move(callee), isInstance, vectorElements(list[i + 3].text)};
        return i + 4;
    }

    // A MethodInstance or CodeInstance: followed by its depth in a caller tree, or by a tag.
    size_t onInstance(size_t i) {
        std::string_view mi = b.instance(list[i].text);
        if (i + 1 >= n) {
            b.problem("the list ends after a MethodInstance (truncated?)", 1);
            return n;
        }
        if (list[i + 1].kind == CS_INVITEM_INT) return onDepth(i, mi);
        if (list[i + 1].kind != CS_INVITEM_TAG) {
            b.problem("a MethodInstance followed by neither a depth nor a tag", 1);
            return i + 1;
        }
        return onInstanceTag(i, mi);
    }

    size_t onDepth(size_t i, std::string_view mi) {
        const auto& next = list[i + 1];
        long long depth = 0;
        std::from_chars(next.text.data(), next.text.data() + next.text.size(), depth);
        // Real depths are small; a bound keeps the recursive joins and printers safe.
        if (depth < 0 || depth > 10000) {
            b.problem("depth out of range at item " + std::to_string(i + 1), 2);
            return i + 2;
        }
        auto d = static_cast<std::int32_t>(depth);
        if (leaf < 0 || d == 0) {
            if (leaf >= 0) b.problem("a depth-0 instance inside an open tree (item " + std::to_string(i) + ")", 0);
            leaf = b.newLeaf(mi, d);
        } else {
            std::int32_t node = leaf;
            while (node >= 0 && f.nodes[static_cast<size_t>(node)].depth >= d) node = f.nodes[static_cast<size_t>(node)].parent;
            leaf = node >= 0 ? b.newNode(mi, d, node) : b.newLeaf(mi, d);
        }
        return i + 2;
    }

    size_t onInstanceTag(size_t i, std::string_view mi) {
        std::string tag = unquote(list[i + 1].text);
        switch (instanceTagOf(tag)) {
        case InstanceTag::MtCache:
            p.mtCache.push_back(mi);
            leaf = -1;
            return i + 2;
        case InstanceTag::TableInsert:
        case InstanceTag::TableDisable: return onTableTag(i, mi, tag);
        case InstanceTag::BackedgesCallee: return readCallee(i, std::string(mi), true);
        case InstanceTag::VerifyMethods: return onVerifyMethods(i, mi);
        case InstanceTag::PreJulia19:
            b.problem("tag \"" + tag + "\" of the Julia <= 1.8 log format, which this build does not read", 2);
            return i + 2;
        case InstanceTag::Unknown: break;
        }
        b.problem("unknown tag \"" + tag + "\" (a Julia version this build does not know?)", 2);
        return i + 2;
    }

    // jl_method_table_insert / _disable after an instance: the superseded instance that closes a depth
    // run, or (before Julia 1.12, with no run open) a disabled specialization.
    size_t onTableTag(size_t i, std::string_view mi, const std::string& tag) {
        checkReason(tag, i + 1);
        if (tag == "jl_method_table_disable" && leaf < 0 && b.juliaMinor() < 12) p.mtDisable.push_back(mi);
        else b.closeBackedge(mi, leaf, p);
        return i + 2;
    }

    // instance, "verify_methods", ref: ref is an insert_backedges_callee key (an Int or a
    // CodeInstance) or a caller's callee already in a tree (a MethodInstance).
    size_t onVerifyMethods(size_t i, std::string_view mi) {
        if (i + 2 >= n) {
            b.problem("verify_methods cut off at the end of the list", static_cast<std::int64_t>(n - i));
            return n;
        }
        const auto& ref = list[i + 2];
        switch (ref.kind) {
        case CS_INVITEM_INT:
        case CS_INVITEM_CODE_INSTANCE: verifyCallee(ref.text, mi); break;
        case CS_INVITEM_METHOD_INSTANCE: verifyCaller(ref.text, mi); break;
        default: b.problem("verify_methods followed by an unexpected item", 3); break;
        }
        return i + 3;
    }

    void verifyCallee(std::string_view key, std::string_view mi) {
        auto it = backedgeTable.find(key);
        if (it == backedgeTable.end()) {
            b.problem("verify_methods refers to an insert_backedges_callee entry that is not in the list", 3);
            return;
        }
        if (it->second.isInstance) {
            auto root = b.newNode(b.instance(it->second.text), 0, -1);
            auto child = b.newNode(mi, 1, root);
            p.be.push_back({.superseded = std::string(), .root = root});
            nodeOfInstance[f.nodes[static_cast<size_t>(root)].mi] = root;
            nodeOfInstance[mi] = child;
        } else {
            auto node = b.newLeaf(mi, 1);
            p.mt.push_back({.signature = it->second.text, .formerly = std::string(), .root = node});
            nodeOfInstance[mi] = node;
        }
        auto causes = it->second.causes;
        if (causes.empty()) b.problem("verify_methods entries whose causes are empty (not attributed)", 1);
        // Every cause gets the same entries (SnoopCompile passes the same vectors to each).
        for (size_t c = 0; c < causes.size(); ++c) {
            Pending copy = p;
            b.addMethodTrigger(causes[c], InvalidationReason::Inserting, copy);
        }
        resetOpen();
    }

    void verifyCaller(std::string_view calleeText, std::string_view mi) {
        auto it = nodeOfInstance.find(calleeText);
        if (it == nodeOfInstance.end()) {
            b.problem("verify_methods caller whose callee was never invalidated in this list", 3);
            return;
        }
        for (auto c : f.nodes[static_cast<size_t>(it->second)].children)
            if (f.nodes[static_cast<size_t>(c)].mi == mi) return;
        auto parent = it->second;
        auto child = b.newNode(mi, f.nodes[static_cast<size_t>(parent)].depth + 1, parent);
        nodeOfInstance.emplace(mi, child);
    }

    // A signature: an insert_backedges_callee key's callee, or the mt_backedge of the open tree.
    size_t onType(size_t i) {
        if (kindAt(i + 1) == CS_INVITEM_TAG && unquote(list[i + 1].text) == "insert_backedges_callee")
            return readCallee(i, std::string(list[i].text), false);
        if (leaf < 0) {
            b.problem("a signature with no invalidated caller before it", 1);
        } else {
            auto root = b.rootOf(leaf);
            if (f.nodes[static_cast<size_t>(root)].isDummy())
                b.problem("an mt_backedges signature whose tree does not start at depth 0", 1);
            else
                p.mt.push_back({.signature = std::string(list[i].text), .formerly = std::string(), .root = root});
        }
        leaf = -1;
        return i + 1;
    }

    // A Method and its tag: everything pending belongs to it.
    size_t onMethod(size_t i) {
        if (kindAt(i + 1) != CS_INVITEM_TAG) {
            b.problem("a Method not followed by its tag", 1);
            return i + 1;
        }
        auto r = checkReason(unquote(list[i + 1].text), i + 1);
        if (!r) b.problem("a Method followed by tag " + std::string(list[i + 1].text), 2);
        else b.addMethodTrigger(std::string(list[i].text), *r, p);
        leaf = -1;
        reason.reset();
        return i + 2;
    }

    // The REPL left items out: whatever was open belongs to a method we cannot see.
    size_t onElision(size_t i) {
        if (!p.empty() || leaf >= 0)
            b.problem("entries cut off by an elided stretch (⋮) of the printed list",
                      static_cast<std::int64_t>(p.entries()) + (leaf >= 0));
        b.problem("printed list elided with ⋮: trees were built from the visible items only", 1);
        resetOpen();
        b.markIncomplete();
        return i + 1;
    }

    size_t onOther(size_t i) {
        // A dispatch-cache entry dropped: harmless, SnoopCompile skips it too.
        if (list[i].text.substr(0, 17) == "Core.TypeMapEntry" && kindAt(i + 1) == CS_INVITEM_TAG) return i + 2;
        return unexpected(i);
    }

    size_t unexpected(size_t i) {
        const auto& item = list[i];
        b.problem("unexpected " + (item.kind == CS_INVITEM_TAG ? "tag " + std::string(item.text) : std::string("item")) +
                      " outside a MethodInstance / Method pair",
                  1);
        return i + 1;
    }

    Builder& b;
    InvalidationForest& f;
    const std::vector<RawInvalidationItem>& list;
    const size_t n;
    Pending p;
    std::int32_t leaf = -1;
    std::optional<InvalidationReason> reason;
    std::unordered_map<std::string_view, Callee> backedgeTable;  // keyed by the list's own text
    std::unordered_map<std::string_view, std::int32_t> nodeOfInstance;
};

}  // namespace

void walkMethodsLog(Builder& b, const std::vector<RawInvalidationItem>& list) { MethodsWalk(b, list).run(); }

}  // namespace cs::engine::invalidation_log
