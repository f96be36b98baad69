// Invalidation trees: SnoopCompile's `invalidation_trees` rebuilt from Julia's raw invalidation log,
// as immutable data the CLI, the GUI and the report render.
//
// Why rebuild them here: SnoopCompile prints trees in a REPL, needs the very Julia session that made
// the log, breaks whenever Julia changes the log (1.9, 1.10, 1.12), and never says what the
// invalidations cost. We keep the raw items in the trace (table invalidation_items), build the
// trees with SnoopCompile's semantics (docs/formats.md 1.1-1.2; SnoopCompile src/invalidations.jl, the
// 2025 "logmeths"/"logedges" parser for Julia 1.12 and the earlier single-list parser for <= 1.11),
// and join them with compile timings so each root carries the recompilation it caused.
//
// Shape (as SnoopCompile): one MethodInvalidations per inserted / deleted method (merged when the
// same method and reason occur twice), holding
//   mt_backedges: (call signature, root node) - callers that had no or an ambiguous match before,
//   backedges:    root node whose MethodInstance is the superseded specialization ("superseding"),
//   mt_cache / mt_disable: dispatch-cache entries and disabled specializations, counted.
// Nodes form a caller tree (a child calls its parent). countChildren() is SnoopCompile's
// `countchildren`: all descendants; trees, entries and children are sorted ascending by it.
//
// What it does not do: guess. Items it cannot attribute (an unknown tag, an elided `⋮` stretch, a
// Julia version this build does not know) are counted in `problems` and named; the trees it can
// build are still built.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cs::engine {

enum class InvalidationReason { Inserting, Deleting, Rebinding, Unknown };
const char* reasonName(InvalidationReason r);  // "inserting", ... as SnoopCompile prints them

// One raw list item: kind is cs_invalidation_item_kind, text as Julia printed it. The text is a
// view: whoever fills an InvalidationInput keeps the characters alive (InvalidationInput::keep),
// because a million items would otherwise be a million heap copies of a few thousand texts.
struct RawInvalidationItem {
    int kind = 0;
    std::string_view text{};
};

// Everything the builder reads; filled from a trace (invalidation_load.h) or by tests/benchmarks.
struct InvalidationInput {
    std::shared_ptr<std::deque<std::string>> storage = std::make_shared<std::deque<std::string>>();
    std::string_view keep(std::string s) { return storage->emplace_back(std::move(s)); }
    std::vector<RawInvalidationItem> methodsList{};  // jl_debug_method_invalidation ("logmeths")
    std::vector<RawInvalidationItem> edgesList{};    // Base.StaticData, Julia >= 1.12 ("logedges")
    std::string juliaVersion{};                      // "1.12.1" when the collector said so, else ""
    // MethodInstance text -> the Method it specializes, when a collector recorded it. Used to print
    // "superseding <method>"; without it the MethodInstance's call form is printed in its place.
    std::vector<std::pair<std::string, std::string>> methodOfInstance{};
    std::vector<std::string> printedTreeLines{};  // SnoopCompile's printed trees, parsed instead of built
};

struct InvalidationNode {
    std::string_view mi{};        // "MethodInstance for f(::Int64)", kept in InvalidationForest::strings
    std::int32_t depth = 0;
    std::int32_t parent = -1;   // index in InvalidationForest::nodes; -1 for a root
    std::vector<std::int32_t> children{};
    std::int64_t hiddenChildren = 0;  // descendants a printed tree counted but did not list
    std::int64_t descendants = 0;     // SnoopCompile countchildren, filled by the builder
    std::int64_t recompileNs = 0;     // this MethodInstance's own recompile time (cost join)
    std::int64_t recompileSpanId = 0; // spans.id of the measurement that gave recompileNs, 0 = none
    std::int64_t subtreeRecompileNs = 0;  // itself plus every descendant
    bool isDummy() const { return mi.empty(); }  // ancestor filled in for a tree starting at depth > 0
};

struct MtBackedge {
    std::string signature{};   // "Tuple{typeof(f), Any}" (or a Binding's globalref)
    std::string formerly{};    // "(formerly <def>)" for delayed invalidations; "" otherwise
    std::int32_t root = -1;
    std::string suffix{};      // text a printed tree had after "(N children)", kept for re-printing
};

struct Backedge {
    std::string superseded{};  // the Method of the superseded specialization
    std::int32_t root = -1;
    std::string suffix{};
};

struct MethodInvalidations {
    InvalidationReason reason = InvalidationReason::Inserting;
    std::string method{};               // printed Method ("nothing" when not identifiable)
    std::vector<std::string> methods{}; // edge-validation trees: all methods ("Invalidating methods: ...")
    bool multiMethodHeader = false;   // print the "Invalidating methods:" header
    std::vector<MtBackedge> mtBackedges{};
    std::vector<Backedge> backedges{};
    std::vector<std::string> mtDisable{};
    std::int64_t mtDisableCount = 0;  // printed trees: "+k more" adds k
    std::int64_t mtCacheCount = 0;
    bool incomplete = false;          // part of the list was elided (`⋮`) before this tree closed
    bool orphan = false;              // printed entries whose tree header was not in the paste
    std::string note{};               // said under the tree, e.g. why a root has no callers
    // Filled by the builder / cost join:
    std::int64_t children = 0;        // SnoopCompile countchildren
    std::int64_t invalidatedInstances = 0;  // distinct MethodInstances in the tree (entries + descendants)
    std::int64_t recompileNs = 0;     // recompile time of those MethodInstances, each once
    std::int64_t recompiledInstances = 0;
    std::string module{};               // module of the method, "" when unknown
};

struct InvalidationProblem {
    std::string what{};   // "unknown tag \"foo\" at item 12"
    std::int64_t items = 0;  // how many items it left unattributed
};

struct InvalidationForest {
    // Owns the text the nodes point to: one copy per distinct MethodInstance, shared by copies of the
    // forest (a million nodes would otherwise be a million heap strings).
    std::shared_ptr<std::deque<std::string>> strings = std::make_shared<std::deque<std::string>>();
    std::string_view keep(std::string s) { return strings->emplace_back(std::move(s)); }
    std::vector<InvalidationNode> nodes{};
    std::vector<MethodInvalidations> trees{};  // ascending by children, as SnoopCompile sorts
    std::string juliaVersion{};
    std::int64_t items = 0;            // raw items read (both lists)
    std::int64_t printedLines = 0;     // printed tree lines read
    std::int64_t orphanLines = 0;      // printed lines outside any tree header, not kept as orphan entries
    // "N-element Vector{SnoopCompile.MethodInvalidations}:" of a printed list (summed over lists):
    // more than trees.size() when the printout was cut or elided.
    std::optional<std::int64_t> declaredTrees{};
    std::vector<InvalidationProblem> problems{};
    bool costJoined = false;           // compile timings were found and joined

    std::int64_t countChildren(std::int32_t node) const { return nodes[static_cast<size_t>(node)].descendants; }
};

// The halves of buildInvalidationTrees (core/engine/julia/invalidation_build.h) that read raw
// lists: trees from the methods / edges logs, then "superseding <method>" filled in from the methods
// a collector recorded for instances. Never throw on bad input.
void buildTreesFromLogs(const InvalidationInput& input, InvalidationForest& forest);
void fillSuperseded(const InvalidationInput& input, InvalidationForest& forest);
// Recomputes descendants, sorts (ascending, stable) and fills the per-tree counts.
void finishForest(InvalidationForest& forest);

// True when this build knows the invalidation log format of that Julia version ("" counts as known:
// the format is then judged by its tags).
bool knownJuliaVersion(std::string_view version);

// A copy keeping only trees whose root method is defined in `module` (SnoopCompile `filtermod`, not
// recursive) and whose children count is at least `minChildren`.
std::shared_ptr<const InvalidationForest> filterTrees(const InvalidationForest& forest, std::string_view module,
                                                      std::int64_t minChildren);

// The chain of nodes from an entry root down to the first node whose MethodInstance text contains
// `needle` (SnoopCompile `findcaller`): tree index, entry root and the node path, root first.
struct CallerPath {
    std::size_t tree = 0;
    std::vector<std::int32_t> nodes{};
};
std::optional<CallerPath> findCaller(const InvalidationForest& forest, std::string_view needle);

}  // namespace cs::engine
