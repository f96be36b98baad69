// The shared operations of the two invalidation-log walks, and buildTreesFromLogs, which runs them.
// Why and what: invalidation_log_builder.h; the semantics are SnoopCompile's (docs/formats.md 1.1-1.2).
#include "core/engine/julia/invalidation_log_builder.h"

#include "core/formats/julia_signature.h"

#include <charconv>

namespace cs::engine {

namespace invalidation_log {

std::string_view Builder::instance(std::string_view text) {
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

std::int32_t Builder::newNode(std::string_view mi, std::int32_t depth, std::int32_t parent) {
    auto id = static_cast<std::int32_t>(f.nodes.size());
    f.nodes.push_back(InvalidationNode{.mi = mi, .depth = depth, .parent = parent});
    if (parent >= 0) f.nodes[static_cast<size_t>(parent)].children.push_back(id);
    return id;
}

std::int32_t Builder::newLeaf(std::string_view mi, std::int32_t depth) {
    std::int32_t parent = -1;
    for (std::int32_t d = 0; d < depth; ++d) parent = newNode(std::string_view(), d, parent);
    return newNode(mi, depth, parent);
}

std::int32_t Builder::rootOf(std::int32_t n) const {
    while (f.nodes[static_cast<size_t>(n)].parent >= 0) n = f.nodes[static_cast<size_t>(n)].parent;
    return n;
}

void Builder::problem(std::string what, std::int64_t items) {
    for (auto& p : f.problems)
        if (p.what == what) { p.items += items; return; }
    f.problems.push_back({std::move(what), items});
}

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

std::string unquote(std::string_view s) {
    if (s.size() >= 2 && s.front() == '"' && s.back() == '"') return std::string(s.substr(1, s.size() - 2));
    return std::string(s);
}

std::vector<std::string> vectorElements(std::string_view text) {
    std::vector<std::string> out;
    auto open = text.find('[');
    if (open == std::string_view::npos || text.back() != ']') return out;
    for (auto e : splitTopLevel(text.substr(open + 1, text.size() - open - 2), ','))
        if (!e.empty()) out.emplace_back(e);
    return out;
}

}  // namespace invalidation_log

namespace {

int minorOf(std::string_view version) {
    auto dot = version.find('.');
    if (dot == std::string_view::npos) return -1;
    int minor = -1;
    auto rest = version.substr(dot + 1);
    std::from_chars(rest.data(), rest.data() + rest.size(), minor);
    return minor;
}

}  // namespace

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
        invalidation_log::Builder b(f, minorOf(input.juliaVersion));
        invalidation_log::walkMethodsLog(b, input.methodsList);
        if (!input.edgesList.empty()) invalidation_log::walkEdgesLog(b, input.edgesList);
    }
}

}  // namespace cs::engine
