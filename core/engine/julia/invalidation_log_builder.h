// The forest under construction while Julia's raw invalidation logs are walked (inside the engine
// only; invalidation_trees.h is the public face).
//
// Why a class of its own: the two walks (invalidation_log_methods.cpp over "logmeths",
// invalidation_log_edges.cpp over "logedges") read different item grammars but build the same
// thing, SnoopCompile's trees (docs/formats.md 1.1-1.2): nodes of a caller tree, and one
// MethodInvalidations per (method, reason) into which later entries merge. Those shared operations
// live here, so each walk is only its grammar: a flat switch over the item it stands on.
#pragma once

#include "core/engine/julia/invalidation_trees.h"

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace cs::engine::invalidation_log {

// Entries read since the last Method (or cause) that they belong to.
struct Pending {
    std::vector<MtBackedge> mt;
    std::vector<Backedge> be;
    std::vector<std::string_view> mtCache, mtDisable;
    bool empty() const { return mt.empty() && be.empty() && mtCache.empty() && mtDisable.empty(); }
    size_t entries() const { return mt.size() + be.size() + mtCache.size() + mtDisable.size(); }
};

// The mutable state of one build; the forest's nodes are indices into `forest().nodes`.
class Builder {
public:
    Builder(InvalidationForest& forest, int minor) : f(forest), m_minor(minor) {}

    InvalidationForest& forest() { return f; }
    int juliaMinor() const { return m_minor; }

    // The pooled text of an instance; a CodeInstance stands for its MethodInstance (SnoopCompile's
    // InstanceNode(ci) uses ci.def). Each distinct text is stored once.
    std::string_view instance(std::string_view text);
    std::int32_t newNode(std::string_view mi, std::int32_t depth, std::int32_t parent);
    // A leaf at `depth` with dummy ancestors up to depth 0 (SnoopCompile InstanceNode(mi, depth)).
    std::int32_t newLeaf(std::string_view mi, std::int32_t depth);
    std::int32_t rootOf(std::int32_t n) const;
    // Problems of one kind add up, so a million bad items stay one readable line.
    void problem(std::string what, std::int64_t items);

    // An mt_backedge with the same signature and root MethodInstance as one already there merges its
    // branches into it (SnoopCompile join_invalidations! for pairs); otherwise it is appended.
    void mergeMtBackedge(std::vector<MtBackedge>& into, MtBackedge e);
    // SnoopCompile add_method_trigger!: the same (method, reason) seen again merges into one tree.
    // Empties `p` and clears the incomplete mark.
    void addMethodTrigger(const std::string& method, InvalidationReason reason, Pending& p);
    // The instance a depth run ended at: the open tree's root becomes it (a superseded instance).
    void closeBackedge(std::string_view mi, std::int32_t& leaf, Pending& p);
    // The trees made until the next Method come from an elided (⋮) printout.
    void markIncomplete() { m_incomplete = true; }

private:
    void joinBranches(std::int32_t to, std::int32_t from);

    InvalidationForest& f;
    int m_minor;
    std::unordered_map<std::string, size_t> m_treeIndex;  // reason + method -> tree
    std::unordered_map<std::string_view, std::string_view> m_pool;  // instance text -> pooled text
    bool m_incomplete = false;
};

// The list items' own spelling: `"tag"` -> tag.
std::string unquote(std::string_view s);
// "Any[f(x) @ M a.jl:1, g(y) @ M a.jl:2]" -> the printed methods. "Any[]" and "nothing" -> none.
std::vector<std::string> vectorElements(std::string_view text);

// The two walks (each in its own file).
void walkMethodsLog(Builder& b, const std::vector<RawInvalidationItem>& list);
void walkEdgesLog(Builder& b, const std::vector<RawInvalidationItem>& list);

}  // namespace cs::engine::invalidation_log
