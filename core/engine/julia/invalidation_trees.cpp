#include "core/engine/julia/invalidation_trees.h"

#include "core/formats/julia_signature.h"
#include "core/util/saturating.h"

#include <compilescope/trace_constants.h>

#include <algorithm>
#include <charconv>
#include <unordered_map>
#include <unordered_set>

namespace cs::engine {

const char* reasonName(InvalidationReason r) {
    switch (r) {
    case InvalidationReason::Inserting: return "inserting";
    case InvalidationReason::Deleting: return "deleting";
    case InvalidationReason::Rebinding: return "rebinding";
    case InvalidationReason::Unknown: return "unknown";
    }
    return "unknown";
}

bool knownJuliaVersion(std::string_view version) {
    if (version.empty()) return true;
    int major = 0, minor = 0;
    auto dot = version.find('.');
    if (dot == std::string_view::npos) return false;
    auto r1 = std::from_chars(version.data(), version.data() + dot, major);
    auto rest = version.substr(dot + 1);
    auto r2 = std::from_chars(rest.data(), rest.data() + rest.size(), minor);
    if (r1.ec != std::errc() || r2.ec != std::errc()) return false;
    // 1.9 .. 1.13: the "logmeths" tags of gf.c since julia#46756 and, from 1.12, the StaticData list.
    return major == 1 && minor >= 9 && minor <= 13;
}

namespace {

int minorOf(std::string_view version) {
    auto dot = version.find('.');
    if (dot == std::string_view::npos) return -1;
    int minor = -1;
    auto rest = version.substr(dot + 1);
    std::from_chars(rest.data(), rest.data() + rest.size(), minor);
    return minor;
}

std::string unquote(std::string_view s) {
    if (s.size() >= 2 && s.front() == '"' && s.back() == '"') return std::string(s.substr(1, s.size() - 2));
    return std::string(s);
}


// "Any[f(x) @ M a.jl:1, g(y) @ M a.jl:2]" -> the printed methods. "Any[]" and "nothing" -> none.
std::vector<std::string> vectorElements(std::string_view text) {
    std::vector<std::string> out;
    auto open = text.find('[');
    if (open == std::string_view::npos || text.back() != ']') return out;
    for (auto e : splitTopLevel(text.substr(open + 1, text.size() - open - 2), ','))
        if (!e.empty()) out.emplace_back(e);
    return out;
}

// The mutable state of one build; the forest's nodes are indices into `f.nodes`.
class Builder {
public:
    Builder(InvalidationForest& forest, int minor) : f(forest), m_minor(minor) {}

    void logMethods(const std::vector<RawInvalidationItem>& list);
    void logEdges(const std::vector<RawInvalidationItem>& list);

private:
    struct Pending {
        std::vector<MtBackedge> mt;
        std::vector<Backedge> be;
        std::vector<std::string_view> mtCache, mtDisable;
        bool empty() const { return mt.empty() && be.empty() && mtCache.empty() && mtDisable.empty(); }
        size_t entries() const { return mt.size() + be.size() + mtCache.size() + mtDisable.size(); }
    };
    struct EdgeTree {
        InvalidationReason reason;
        std::vector<std::string> methods;
        std::vector<MtBackedge> mt;
        std::vector<Backedge> be;
    };

    // The pooled text of an instance; a CodeInstance stands for its MethodInstance (SnoopCompile's
    // InstanceNode(ci) uses ci.def). Each distinct text is stored once.
    std::string_view instance(std::string_view text) {
        auto it = m_pool.find(text);
        if (it != m_pool.end()) return it->second;
        std::string mi;
        if (text.substr(0, 17) == "CodeInstance for ") {
            auto rest = text.substr(17);
            mi = rest.substr(0, 19) == "MethodInstance for " ? std::string(rest) : "MethodInstance for " + std::string(rest);
        } else {
            mi = std::string(text);
        }
        auto kept = f.keep(std::move(mi));
        m_pool.emplace(kept, kept);
        // Key by the original spelling too, so the CodeInstance text finds it next time.
        if (text != kept) m_pool.emplace(f.keep(std::string(text)), kept);
        return kept;
    }

    std::int32_t newNode(std::string_view mi, std::int32_t depth, std::int32_t parent) {
        auto id = static_cast<std::int32_t>(f.nodes.size());
        f.nodes.push_back(InvalidationNode{.mi = mi, .depth = depth, .parent = parent});
        if (parent >= 0) f.nodes[static_cast<size_t>(parent)].children.push_back(id);
        return id;
    }
    // A leaf at `depth` with dummy ancestors up to depth 0 (SnoopCompile InstanceNode(mi, depth)).
    std::int32_t newLeaf(std::string_view mi, std::int32_t depth) {
        std::int32_t parent = -1;
        for (std::int32_t d = 0; d < depth; ++d) parent = newNode(std::string_view(), d, parent);
        return newNode(mi, depth, parent);
    }
    std::int32_t rootOf(std::int32_t n) const {
        while (f.nodes[static_cast<size_t>(n)].parent >= 0) n = f.nodes[static_cast<size_t>(n)].parent;
        return n;
    }
    void problem(std::string what, std::int64_t items) {
        // Problems of one kind add up, so a million bad items stay one readable line.
        for (auto& p : f.problems)
            if (p.what == what) { p.items += items; return; }
        f.problems.push_back({std::move(what), items});
    }
    void joinBranches(std::int32_t to, std::int32_t from);
    void mergeMtBackedge(std::vector<MtBackedge>& into, MtBackedge e);
    void addMethodTrigger(const std::string& method, InvalidationReason reason, Pending& p);
    void closeBackedge(std::string_view mi, std::int32_t& leaf, Pending& p);

    InvalidationForest& f;
    int m_minor;
    std::unordered_map<std::string, size_t> m_treeIndex;  // reason + method -> tree
    std::unordered_map<std::string_view, std::string_view> m_pool;  // instance text -> pooled text
    bool m_incomplete = false;
};

void Builder::joinBranches(std::int32_t to, std::int32_t from) {
    auto fromChildren = f.nodes[static_cast<size_t>(from)].children;
    for (auto cf : fromChildren) {
        bool found = false;
        for (auto ct : f.nodes[static_cast<size_t>(to)].children) {
            if (f.nodes[static_cast<size_t>(ct)].mi == f.nodes[static_cast<size_t>(cf)].mi) {
                joinBranches(ct, cf);
                found = true;
                break;
            }
        }
        if (!found) {
            f.nodes[static_cast<size_t>(to)].children.push_back(cf);
            f.nodes[static_cast<size_t>(cf)].parent = to;
        }
    }
    f.nodes[static_cast<size_t>(from)].children.clear();
}

// An mt_backedge with the same signature and root MethodInstance as one already there merges its
// branches into it (SnoopCompile join_invalidations! for pairs); otherwise it is appended.
void Builder::mergeMtBackedge(std::vector<MtBackedge>& into, MtBackedge e) {
    for (auto& have : into) {
        if (have.signature == e.signature &&
            f.nodes[static_cast<size_t>(have.root)].mi == f.nodes[static_cast<size_t>(e.root)].mi) {
            joinBranches(have.root, e.root);
            return;
        }
    }
    into.push_back(std::move(e));
}

// SnoopCompile add_method_trigger!: the same (method, reason) seen again merges into one tree; an
// mt_backedge with the same signature and MethodInstance merges its branches.
void Builder::addMethodTrigger(const std::string& method, InvalidationReason reason, Pending& p) {
    std::string key = std::string(reasonName(reason)) + '\n' + method;
    auto it = m_treeIndex.find(key);
    if (it == m_treeIndex.end()) {
        MethodInvalidations t;
        t.reason = reason;
        t.method = method;
        t.mtBackedges = std::move(p.mt);
        t.backedges = std::move(p.be);
        t.mtCacheCount = static_cast<std::int64_t>(p.mtCache.size());
        t.mtDisable.assign(p.mtDisable.begin(), p.mtDisable.end());
        t.mtDisableCount = static_cast<std::int64_t>(t.mtDisable.size());
        t.incomplete = m_incomplete;
        m_treeIndex.emplace(std::move(key), f.trees.size());
        f.trees.push_back(std::move(t));
    } else {
        auto& t = f.trees[it->second];
        for (auto& e : p.mt) mergeMtBackedge(t.mtBackedges, std::move(e));
        for (auto& b : p.be) t.backedges.push_back(std::move(b));
        t.mtCacheCount += static_cast<std::int64_t>(p.mtCache.size());
        for (auto d : p.mtDisable) t.mtDisable.emplace_back(d);
        t.mtDisableCount = static_cast<std::int64_t>(t.mtDisable.size());
        t.incomplete = t.incomplete || m_incomplete;
    }
    p = Pending{};
    m_incomplete = false;
}

void Builder::closeBackedge(std::string_view mi, std::int32_t& leaf, Pending& p) {
    if (leaf >= 0) {
        auto root = rootOf(leaf);
        f.nodes[static_cast<size_t>(root)].mi = mi;  // the dummy root becomes the superseded instance
        p.be.push_back({.superseded = std::string(), .root = root});
    } else if (m_minor >= 12) {
        // SnoopCompile 3 (Julia 1.12) keeps a superseded instance even when nothing called it.
        p.be.push_back({.superseded = std::string(), .root = newNode(mi, 0, -1)});
    }
    leaf = -1;
}

void Builder::logMethods(const std::vector<RawInvalidationItem>& list) {
    Pending p;
    std::int32_t leaf = -1;
    std::optional<InvalidationReason> reason;
    // insert_backedges_callee (Julia <= 1.11): key -> (callee text, callee is a MethodInstance, causes)
    struct Callee {
        std::string text;
        bool isInstance;
        std::vector<std::string> causes;
    };
    std::unordered_map<std::string_view, Callee> backedgeTable;  // keyed by the list's own text
    std::unordered_map<std::string_view, std::int32_t> nodeOfInstance;
    const size_t n = list.size();
    auto kindAt = [&](size_t i) { return i < n ? list[i].kind : -1; };
    auto checkReason = [&](const std::string& tag, size_t at) -> std::optional<InvalidationReason> {
        InvalidationReason r;
        if (tag == "jl_method_table_insert") r = InvalidationReason::Inserting;
        else if (tag == "jl_method_table_disable") r = InvalidationReason::Deleting;
        else return std::nullopt;
        if (reason && *reason != r) problem("insertion and deletion tags mixed in one method block (item " + std::to_string(at) + ")", 1);
        reason = r;
        return r;
    };
    auto readCallee = [&](size_t i, std::string callee, bool isInstance) {
        // callee, "insert_backedges_callee", key, causes
        if (i + 3 >= n) {
            problem("insert_backedges_callee cut off at the end of the list", static_cast<std::int64_t>(n - i));
            return n;
        }
        backedgeTable[list[i + 2].text] = {std::move(callee), isInstance, vectorElements(list[i + 3].text)};
        return i + 4;
    };

    size_t i = 0;
    while (i < n) {
        const auto& item = list[i];
        switch (item.kind) {
        case CS_INVITEM_METHOD_INSTANCE:
        case CS_INVITEM_CODE_INSTANCE: {
            std::string_view mi = instance(item.text);
            if (i + 1 >= n) {
                problem("the list ends after a MethodInstance (truncated?)", 1);
                i = n;
                break;
            }
            const auto& next = list[i + 1];
            if (next.kind == CS_INVITEM_INT) {
                long long depth = 0;
                std::from_chars(next.text.data(), next.text.data() + next.text.size(), depth);
                // Real depths are small; a bound keeps the recursive joins and printers safe.
                if (depth < 0 || depth > 10000) {
                    problem("depth out of range at item " + std::to_string(i + 1), 2);
                    i += 2;
                    break;
                }
                auto d = static_cast<std::int32_t>(depth);
                if (leaf < 0 || d == 0) {
                    if (leaf >= 0) problem("a depth-0 instance inside an open tree (item " + std::to_string(i) + ")", 0);
                    leaf = newLeaf(mi, d);
                } else {
                    std::int32_t node = leaf;
                    while (node >= 0 && f.nodes[static_cast<size_t>(node)].depth >= d) node = f.nodes[static_cast<size_t>(node)].parent;
                    leaf = node >= 0 ? newNode(mi, d, node) : newLeaf(mi, d);
                }
                i += 2;
                break;
            }
            if (next.kind != CS_INVITEM_TAG) {
                problem("a MethodInstance followed by neither a depth nor a tag", 1);
                i += 1;
                break;
            }
            std::string tag = unquote(next.text);
            if (tag == "invalidate_mt_cache") {
                p.mtCache.push_back(mi);
                leaf = -1;
                i += 2;
            } else if (tag == "jl_method_table_insert" || tag == "jl_method_table_disable") {
                checkReason(tag, i + 1);
                if (tag == "jl_method_table_disable" && leaf < 0 && m_minor < 12) p.mtDisable.push_back(mi);
                else closeBackedge(mi, leaf, p);
                i += 2;
            } else if (tag == "insert_backedges_callee") {
                i = readCallee(i, std::string(mi), true);
            } else if (tag == "verify_methods") {
                if (i + 2 >= n) {
                    problem("verify_methods cut off at the end of the list", static_cast<std::int64_t>(n - i));
                    i = n;
                    break;
                }
                const auto& ref = list[i + 2];
                i += 3;
                if (ref.kind == CS_INVITEM_INT || ref.kind == CS_INVITEM_CODE_INSTANCE) {
                    auto it = backedgeTable.find(ref.text);
                    if (it == backedgeTable.end()) {
                        problem("verify_methods refers to an insert_backedges_callee entry that is not in the list", 3);
                        break;
                    }
                    if (it->second.isInstance) {
                        auto root = newNode(instance(it->second.text), 0, -1);
                        auto child = newNode(mi, 1, root);
                        p.be.push_back({.superseded = std::string(), .root = root});
                        nodeOfInstance[f.nodes[static_cast<size_t>(root)].mi] = root;
                        nodeOfInstance[mi] = child;
                    } else {
                        auto node = newLeaf(mi, 1);
                        p.mt.push_back({.signature = it->second.text, .formerly = std::string(), .root = node});
                        nodeOfInstance[mi] = node;
                    }
                    auto causes = it->second.causes;
                    if (causes.empty()) problem("verify_methods entries whose causes are empty (not attributed)", 1);
                    // Every cause gets the same entries (SnoopCompile passes the same vectors to each).
                    for (size_t c = 0; c < causes.size(); ++c) {
                        Pending copy = p;
                        addMethodTrigger(causes[c], InvalidationReason::Inserting, copy);
                    }
                    p = Pending{};
                    leaf = -1;
                    reason.reset();
                } else if (ref.kind == CS_INVITEM_METHOD_INSTANCE) {
                    auto it = nodeOfInstance.find(ref.text);
                    if (it == nodeOfInstance.end()) {
                        problem("verify_methods caller whose callee was never invalidated in this list", 3);
                        break;
                    }
                    bool found = false;
                    for (auto c : f.nodes[static_cast<size_t>(it->second)].children)
                        if (f.nodes[static_cast<size_t>(c)].mi == mi) found = true;
                    if (!found) {
                        auto parent = it->second;
                        auto child = newNode(mi, f.nodes[static_cast<size_t>(parent)].depth + 1, parent);
                        nodeOfInstance.emplace(mi, child);
                    }
                } else {
                    problem("verify_methods followed by an unexpected item", 3);
                }
            } else if (tag == "insert_backedges" || tag == "jl_insert_method_instance" ||
                       tag == "jl_insert_method_instance caller") {
                problem("tag \"" + tag + "\" of the Julia <= 1.8 log format, which this build does not read", 2);
                i += 2;
            } else {
                problem("unknown tag \"" + tag + "\" (a Julia version this build does not know?)", 2);
                i += 2;
            }
            break;
        }
        case CS_INVITEM_TYPE:
            if (kindAt(i + 1) == CS_INVITEM_TAG && unquote(list[i + 1].text) == "insert_backedges_callee") {
                i = readCallee(i, std::string(item.text), false);
                break;
            }
            if (leaf < 0) {
                problem("a signature with no invalidated caller before it", 1);
            } else {
                auto root = rootOf(leaf);
                if (f.nodes[static_cast<size_t>(root)].isDummy())
                    problem("an mt_backedges signature whose tree does not start at depth 0", 1);
                else
                    p.mt.push_back({.signature = std::string(item.text), .formerly = std::string(), .root = root});
            }
            leaf = -1;
            i += 1;
            break;
        case CS_INVITEM_METHOD: {
            if (kindAt(i + 1) != CS_INVITEM_TAG) {
                problem("a Method not followed by its tag", 1);
                i += 1;
                break;
            }
            auto r = checkReason(unquote(list[i + 1].text), i + 1);
            if (!r) {
                problem("a Method followed by tag " + std::string(list[i + 1].text), 2);
            } else {
                addMethodTrigger(std::string(item.text), *r, p);
            }
            leaf = -1;
            reason.reset();
            i += 2;
            break;
        }
        case CS_INVITEM_ELISION:
            // The REPL left items out: whatever was open belongs to a method we cannot see.
            if (!p.empty() || leaf >= 0)
                problem("entries cut off by an elided stretch (⋮) of the printed list", static_cast<std::int64_t>(p.entries()) + (leaf >= 0));
            problem("printed list elided with ⋮: trees were built from the visible items only", 1);
            p = Pending{};
            leaf = -1;
            reason.reset();
            m_incomplete = true;
            i += 1;
            break;
        case CS_INVITEM_OTHER:
            if (item.text.substr(0, 17) == "Core.TypeMapEntry" && kindAt(i + 1) == CS_INVITEM_TAG) {
                i += 2;  // a dispatch-cache entry dropped: harmless, SnoopCompile skips it too
                break;
            }
            [[fallthrough]];
        default:
            problem("unexpected " + (item.kind == CS_INVITEM_TAG ? "tag " + std::string(item.text) : std::string("item")) +
                        " outside a MethodInstance / Method pair",
                    1);
            i += 1;
            break;
        }
    }
    if (!p.empty() || leaf >= 0)
        problem("entries at the end of the list have no Method after them (list truncated?)",
                static_cast<std::int64_t>(p.entries()) + (leaf >= 0));
}

void Builder::logEdges(const std::vector<RawInvalidationItem>& list) {
    std::vector<EdgeTree> etrees;
    EdgeTree unknown{InvalidationReason::Unknown, {}, {}, {}};
    std::unordered_map<std::string_view, std::int32_t> callee;  // keyed by the list's own text
    const size_t n = list.size();
    size_t i = 0;
    while (i + 1 < n) {
        if (list[i].kind == CS_INVITEM_ELISION) {
            // The REPL left items out (or the paste starts here): resume at the next entry, whose
            // second item is a tag; what lies before it belongs to an entry we cannot see.
            problem("edge list elided with ⋮: trees were built from the visible items only", 1);
            size_t skipped = 0;
            ++i;
            while (i + 1 < n && list[i + 1].kind != CS_INVITEM_TAG && list[i].kind != CS_INVITEM_ELISION) ++i, ++skipped;
            if (skipped) problem("edge list items cut off by an elided stretch (⋮)", static_cast<std::int64_t>(skipped));
            continue;
        }
        if (list[i + 1].kind != CS_INVITEM_TAG) {
            problem("edge list out of step: expected a tag as the second item of an entry", 1);
            i += 1;
            continue;
        }
        std::string tag = unquote(list[i + 1].text);
        if (tag == "insert_backedges_callee" || tag == "method_globalref") {
            if (i + 3 >= n) {
                problem(tag + " cut off at the end of the list", static_cast<std::int64_t>(n - i));
                break;
            }
            const auto& edge = list[i];
            const auto& target = list[i + 2];
            const auto& matches = list[i + 3];
            i += 4;
            if (tag == "method_globalref") {
                // An implicit GlobalRef edge of `def` changed. SnoopCompile does not attribute these
                // either; the caller tree stays visible under "unknown".
                auto node = newNode(instance(target.text), 0, -1);
                callee[target.text] = node;
                unknown.be.push_back({.superseded = std::string(), .root = node});
                problem("method_globalref entries (binding edges; listed under \"unknown\")", 4);
                continue;
            }
            auto methods = vectorElements(matches.text);
            // `nothing` in place of the matches: Julia 1.12 did not record what broke the edge (an
            // invoke edge before julia#57999). The cause is unknown, not a deletion.
            InvalidationReason r = !methods.empty() ? InvalidationReason::Inserting
                                   : edge.kind == CS_INVITEM_BINDING ? InvalidationReason::Rebinding
                                   : matches.kind == CS_INVITEM_NOTHING ? InvalidationReason::Unknown
                                                                        : InvalidationReason::Deleting;
            EdgeTree t{r, r == InvalidationReason::Rebinding ? std::vector<std::string>{std::string(edge.text)} : methods, {}, {}};
            if (edge.kind == CS_INVITEM_TYPE || edge.kind == CS_INVITEM_BINDING) {
                auto node = newNode(instance(target.text), 0, -1);
                callee[target.text] = node;
                std::string sig(edge.text);
                if (edge.kind == CS_INVITEM_BINDING && sig.substr(0, 8) == "Binding ") sig = sig.substr(8);
                t.mt.push_back({.signature = sig, .formerly = std::string(), .root = node});
            } else {
                auto it = callee.find(edge.text);
                std::int32_t root;
                if (it == callee.end()) {
                    root = newNode(instance(edge.text), 0, -1);
                    t.be.push_back({.superseded = std::string(), .root = root});
                    callee[edge.text] = root;
                } else {
                    root = it->second;
                }
                callee[target.text] = newNode(instance(target.text), f.nodes[static_cast<size_t>(root)].depth + 1, root);
            }
            if (r == InvalidationReason::Unknown) {
                for (auto& e : t.mt) unknown.mt.push_back(std::move(e));
                for (auto& b : t.be) unknown.be.push_back(std::move(b));
            } else {
                etrees.push_back(std::move(t));
            }
        } else if (tag == "verify_methods") {
            if (i + 2 >= n) {
                problem("verify_methods cut off at the end of the list", static_cast<std::int64_t>(n - i));
                break;
            }
            const auto& caller = list[i];
            const auto& cause = list[i + 2];
            i += 3;
            if (caller.text == cause.text) continue;
            auto it = callee.find(cause.text);
            std::int32_t node;
            if (it == callee.end()) {
                node = newNode(instance(cause.text), 0, -1);
                unknown.be.push_back({.superseded = std::string(), .root = node});
                callee[cause.text] = node;
            } else {
                node = it->second;
            }
            callee[caller.text] = newNode(instance(caller.text), f.nodes[static_cast<size_t>(node)].depth + 1, node);
        } else {
            problem("unknown edge tag \"" + tag + "\" (a Julia version this build does not know?)", 2);
            i += 2;
        }
    }
    if (i < n && i + 1 >= n) {
        if (list[i].kind == CS_INVITEM_ELISION) problem("edge list elided with ⋮: trees were built from the visible items only", 1);
        else problem("a lone item at the end of the edge list (truncated?)", 1);
    }
    if (!unknown.mt.empty() || !unknown.be.empty()) etrees.push_back(std::move(unknown));

    // Consolidate with the method-table trees (SnoopCompile's default, consolidate=true).
    std::unordered_map<std::string, size_t> byMethod;
    for (size_t t = 0; t < f.trees.size(); ++t) byMethod.emplace(f.trees[t].method, t);
    auto joinInto = [&](MethodInvalidations& into, const EdgeTree& from) {
        for (const auto& e : from.mt) mergeMtBackedge(into.mtBackedges, e);
        for (const auto& b : from.be) into.backedges.push_back(b);
    };
    // A root that no verify_methods entry attached a caller to is itself the invalidated code; said
    // in a note, so a tree of such roots never reads as empty.
    auto rootsNote = [&](const EdgeTree& et) {
        std::int64_t alone = 0, roots = 0;
        for (const auto& e : et.mt) ++roots, alone += f.nodes[static_cast<size_t>(e.root)].children.empty();
        for (const auto& b : et.be) ++roots, alone += f.nodes[static_cast<size_t>(b.root)].children.empty();
        if (!alone) return std::string();
        return std::to_string(alone) + " of " + std::to_string(roots) +
               (roots == 1 ? " root has" : " roots have") +
               " no callers in the log: the root itself is the invalidated code";
    };
    for (const auto& et : etrees) {
        if (et.reason == InvalidationReason::Unknown || et.reason == InvalidationReason::Deleting) {
            MethodInvalidations t;
            t.reason = et.reason;
            t.method = "nothing";
            t.mtBackedges = et.mt;
            t.backedges = et.be;
            t.note = rootsNote(et);
            if (et.reason == InvalidationReason::Deleting)
                problem("deleted methods behind edge invalidations are not named in the log (SnoopCompile looks them up "
                        "in the live session); shown as \"deleting nothing\"",
                        1);
            f.trees.push_back(std::move(t));
            continue;
        }
        for (const auto& m : et.methods) {
            auto it = byMethod.find(m);
            if (it != byMethod.end()) {
                joinInto(f.trees[it->second], et);
            } else {
                MethodInvalidations t;
                t.reason = et.reason;
                t.method = et.reason == InvalidationReason::Rebinding && m.substr(0, 8) == "Binding " ? m.substr(8) : m;
                joinInto(t, et);
                byMethod.emplace(m, f.trees.size());
                f.trees.push_back(std::move(t));
            }
        }
    }
}

}  // namespace

void finishForest(InvalidationForest& f) {
    // Joins may move children below lower-numbered parents; recompute in index order is then wrong,
    // so sort each child list and count with an explicit post-order walk instead.
    std::vector<std::int32_t> order;
    order.reserve(f.nodes.size());
    std::vector<std::int32_t> stack;
    for (size_t k = 0; k < f.nodes.size(); ++k) {
        if (f.nodes[k].parent >= 0) continue;
        stack.push_back(static_cast<std::int32_t>(k));
        while (!stack.empty()) {
            auto v = stack.back();
            stack.pop_back();
            order.push_back(v);
            for (auto c : f.nodes[static_cast<size_t>(v)].children) stack.push_back(c);
        }
    }
    for (auto& n : f.nodes) {
        n.descendants = n.hiddenChildren;
        n.subtreeRecompileNs = n.recompileNs;
    }
    for (size_t k = order.size(); k-- > 0;) {
        auto& n = f.nodes[static_cast<size_t>(order[k])];
        for (auto c : n.children) {
            n.descendants = util::satAdd(n.descendants, util::satAdd(1, f.nodes[static_cast<size_t>(c)].descendants));
            n.subtreeRecompileNs = util::satAdd(n.subtreeRecompileNs, f.nodes[static_cast<size_t>(c)].subtreeRecompileNs);
        }
    }
    auto byCount = [&](std::int32_t a, std::int32_t b) {
        return f.nodes[static_cast<size_t>(a)].descendants < f.nodes[static_cast<size_t>(b)].descendants;
    };
    for (auto& n : f.nodes) std::stable_sort(n.children.begin(), n.children.end(), byCount);
    for (auto& t : f.trees) {
        std::stable_sort(t.mtBackedges.begin(), t.mtBackedges.end(),
                         [&](const MtBackedge& a, const MtBackedge& b) { return byCount(a.root, b.root); });
        std::stable_sort(t.backedges.begin(), t.backedges.end(),
                         [&](const Backedge& a, const Backedge& b) { return byCount(a.root, b.root); });
        t.children = 0;
        t.invalidatedInstances = 0;
        t.recompileNs = 0;
        t.recompiledInstances = 0;
        // Distinct MethodInstances of the tree: each is counted, and costs, once.
        // Instance texts are pooled (one copy per distinct text), so identity of the characters is
        // identity of the instance: hashing pointers instead of a million strings.
        std::unordered_set<const char*> seen;
        std::vector<std::int32_t> walk;
        auto visitEntry = [&](std::int32_t root) {
            t.children = util::satAdd(t.children, f.nodes[static_cast<size_t>(root)].descendants);
            walk.push_back(root);
            while (!walk.empty()) {
                auto v = walk.back();
                walk.pop_back();
                const auto& n = f.nodes[static_cast<size_t>(v)];
                if (!n.isDummy() && seen.insert(n.mi.data()).second) {
                    // Counts come from printed text ((N children)): saturate, never overflow.
                    t.invalidatedInstances = util::satAdd(t.invalidatedInstances, util::satAdd(1, n.hiddenChildren));
                    t.recompileNs = util::satAdd(t.recompileNs, n.recompileNs);
                    if (n.recompileNs > 0) ++t.recompiledInstances;
                } else if (n.hiddenChildren) {
                    t.invalidatedInstances = util::satAdd(t.invalidatedInstances, n.hiddenChildren);
                }
                for (auto c : n.children) walk.push_back(c);
            }
        };
        for (const auto& e : t.mtBackedges) visitEntry(e.root);
        for (const auto& b : t.backedges) visitEntry(b.root);
        if (t.module.empty()) t.module = moduleOfText(t.method);
    }
    std::stable_sort(f.trees.begin(), f.trees.end(),
                     [](const MethodInvalidations& a, const MethodInvalidations& b) { return a.children < b.children; });
}

void buildTreesFromLogs(const InvalidationInput& input, InvalidationForest& f) {
    f.juliaVersion = input.juliaVersion;
    f.items = static_cast<std::int64_t>(input.methodsList.size() + input.edgesList.size());
    if (!knownJuliaVersion(input.juliaVersion)) {
        f.problems.push_back({"Julia " + input.juliaVersion +
                                  " writes an invalidation log this build does not know; trees were not built",
                              f.items});
    } else {
        // About every other item is a node; reserving avoids moving a million nodes while growing.
        f.nodes.reserve((input.methodsList.size() + input.edgesList.size()) / 2 + 16);
        Builder b(f, minorOf(input.juliaVersion));
        b.logMethods(input.methodsList);
        if (!input.edgesList.empty()) b.logEdges(input.edgesList);
    }
}

void fillSuperseded(const InvalidationInput& input, InvalidationForest& f) {
    // Fill in "superseding <method>" where a collector recorded each instance's Method.
    std::unordered_map<std::string_view, std::string_view> methodOf;
    for (const auto& [mi, m] : input.methodOfInstance) methodOf.emplace(mi, m);
    for (auto& t : f.trees)
        for (auto& b : t.backedges)
            if (b.superseded.empty()) {
                auto it = methodOf.find(f.nodes[static_cast<size_t>(b.root)].mi);
                if (it != methodOf.end()) b.superseded = std::string(it->second);
            }
}


std::shared_ptr<const InvalidationForest> filterTrees(const InvalidationForest& forest, std::string_view module,
                                                      std::int64_t minChildren) {
    auto out = std::make_shared<InvalidationForest>(forest);
    out->trees.clear();
    if (!module.empty() || minChildren > 0) out->declaredTrees.reset();  // a selection, not the printout
    for (const auto& t : forest.trees) {
        if (!module.empty() && t.module != module) continue;
        if (t.children < minChildren) continue;
        out->trees.push_back(t);
    }
    return out;
}

std::optional<CallerPath> findCaller(const InvalidationForest& f, std::string_view needle) {
    // Depth-first from each entry root, largest trees last as printed; the first match wins.
    for (size_t t = 0; t < f.trees.size(); ++t) {
        std::vector<std::int32_t> roots;
        for (const auto& e : f.trees[t].mtBackedges) roots.push_back(e.root);
        for (const auto& b : f.trees[t].backedges) roots.push_back(b.root);
        for (auto r : roots) {
            std::vector<std::pair<std::int32_t, size_t>> stack{{r, 0}};
            if (f.nodes[static_cast<size_t>(r)].mi.find(needle) != std::string::npos) return CallerPath{t, {r}};
            while (!stack.empty()) {
                auto& [v, next] = stack.back();
                const auto& kids = f.nodes[static_cast<size_t>(v)].children;
                if (next >= kids.size()) {
                    stack.pop_back();
                    continue;
                }
                auto c = kids[next++];
                stack.push_back({c, 0});
                if (f.nodes[static_cast<size_t>(c)].mi.find(needle) != std::string::npos) {
                    CallerPath p{t, {}};
                    for (auto& s : stack) p.nodes.push_back(s.first);
                    return p;
                }
            }
        }
    }
    return std::nullopt;
}

}  // namespace cs::engine
