#include "core/engine/julia/invalidation_printed.h"

#include "core/formats/julia_signature.h"
#include "core/formats/snoopcompile_lines.h"
#include "core/util/utf8.h"

#include <charconv>
#include <cstdio>

namespace cs::engine {

using formats::allDigits;
using formats::childrenAt;
using formats::isTreeHeader;
using formats::isVectorHeader;
using formats::toInt;
using formats::classifyPrintedLine;
using formats::PrintedLineKind;

namespace {
std::string_view trimmed(std::string_view s) { return trimSpaces(s); }
bool startsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
bool endsWith(std::string_view s, std::string_view p) {
    return s.size() >= p.size() && s.substr(s.size() - p.size()) == p;
}
}  // namespace

namespace {

// A small state machine: the last tree header opens a tree, the last section label
// (mt_backedges / backedges / mt_disable) says what a continuation line adds to. Anything that does
// not fit is counted once per kind of problem with its first example, so a paste with a thousand
// damaged lines still yields one readable note and every tree that could be read.
class PrintedTreeParser {
public:
    explicit PrintedTreeParser(InvalidationForest& forest) : f(forest) {}

    void line(const std::string& raw) {
        ++f.printedLines;
        std::string_view t = trimmed(raw);
        switch (classifyPrintedLine(raw)) {
        case PrintedLineKind::Blank: return;
        case PrintedLineKind::VectorHeader: return onVectorHeader(t);
        case PrintedLineKind::Elision:
            ++elided;
            tree = nullptr;
            return;
        case PrintedLineKind::TreeHeader: return onTreeHeader(t);
        case PrintedLineKind::TreeBody:
        case PrintedLineKind::Other: return onBody(raw, t);
        }
    }

    void finish() {
        if (unreadable)
            f.problems.push_back({"printed tree lines this build cannot read, e.g. \"" + firstUnreadable + "\"", unreadable});
        if (elided) f.problems.push_back({"printed trees elided with ⋮ (not in the paste)", elided});
        if (f.orphanLines)
            f.problems.push_back({"printed tree lines without a tree header before them that are not entries (orphans)", f.orphanLines});
    }

private:
    enum class Section { None, Mt, Be, Disable };
    enum class BodyLine { MtLabel, BeLabel, DisableLabel, DisableMore, MtCache, Continuation, Unreadable };

    void onVectorHeader(std::string_view t) {
        tree = nullptr;
        std::int64_t n = toInt(t.substr(0, t.find('-')));
        f.declaredTrees = f.declaredTrees.value_or(0) + n;
    }

    void onTreeHeader(std::string_view t) {
        MethodInvalidations t2;
        if (startsWith(t, "Invalidating methods: ")) {
            t2.multiMethodHeader = true;
            t2.method = std::string(t.substr(22));
            for (auto m : splitTopLevel(t2.method, ',')) t2.methods.emplace_back(m);
        } else {
            for (auto r : formats::kTreeReasons)
                if (startsWith(t, r)) {
                    t2.reason = r == "inserting "   ? InvalidationReason::Inserting
                                : r == "deleting "  ? InvalidationReason::Deleting
                                : r == "rebinding " ? InvalidationReason::Rebinding
                                                    : InvalidationReason::Unknown;
                    t2.method = std::string(t.substr(r.size(), t.size() - r.size() - 13));
                    break;
                }
        }
        f.trees.push_back(std::move(t2));
        tree = &f.trees.back();
        section = Section::None;
    }

    void onBody(std::string_view raw, std::string_view t) {
        if (!tree && !openOrphan(t)) return;
        if (!bodyLine(t)) bad(raw);
    }

    // An entry before any header (a paste that starts mid-tree) is kept in an orphan tree with its
    // children count; its section is named by the entry itself. Anything else there is an orphan line.
    bool openOrphan(std::string_view t) {
        std::string_view body = t;
        for (std::string_view label : {"mt_backedges: ", "backedges: "})
            if (startsWith(body, label)) body = body.substr(label.size());
        auto colon = body.find(": ");
        auto rest = colon == std::string_view::npos ? std::string_view() : body.substr(colon + 2);
        Section s = startsWith(rest, "superseding ") ? Section::Be : startsWith(rest, "signature ") ? Section::Mt : Section::None;
        if (s == Section::None) {
            ++f.orphanLines;
            return false;
        }
        MethodInvalidations orphan;
        orphan.reason = InvalidationReason::Unknown;
        orphan.method = "(tree header not in the paste)";
        orphan.orphan = true;
        f.trees.push_back(std::move(orphan));
        tree = &f.trees.back();
        section = s;
        return true;
    }

    BodyLine kindOf(std::string_view t) const {
        if (startsWith(t, "mt_backedges: ")) return BodyLine::MtLabel;
        if (startsWith(t, "backedges: ")) return BodyLine::BeLabel;
        if (startsWith(t, "mt_disable: ")) return BodyLine::DisableLabel;
        if (section == Section::Disable && startsWith(t, "+") && endsWith(t, " more")) return BodyLine::DisableMore;
        if (endsWith(t, " mt_cache") && allDigits(t.substr(0, t.size() - 9))) return BodyLine::MtCache;
        if (section == Section::Mt || section == Section::Be) return BodyLine::Continuation;
        return BodyLine::Unreadable;
    }

    // One line inside a tree; false when it cannot be read.
    bool bodyLine(std::string_view t) {
        switch (kindOf(t)) {
        case BodyLine::MtLabel:
            section = Section::Mt;
            return addEntry(t.substr(14));
        case BodyLine::BeLabel:
            section = Section::Be;
            return addEntry(t.substr(11));
        case BodyLine::DisableLabel:
            section = Section::Disable;
            tree->mtDisable.emplace_back(t.substr(12));
            tree->mtDisableCount = 1;
            return true;
        case BodyLine::DisableMore: tree->mtDisableCount += toInt(t.substr(1, t.size() - 6)); return true;
        case BodyLine::MtCache: tree->mtCacheCount = toInt(t.substr(0, t.size() - 9)); return true;
        case BodyLine::Continuation: return addEntry(t);
        case BodyLine::Unreadable: break;
        }
        return false;
    }

    void bad(std::string_view line) {
        if (!unreadable++) firstUnreadable = std::string(util::utf8Prefix(trimmed(line), 120));
    }

    // "12: signature ... triggered MethodInstance for ... (N children)" or "superseding ... with ...".
    bool addEntry(std::string_view body) {
        body = trimmed(body);  // indices are right-aligned: " 1:" .. "12:"
        auto colon = body.find(": ");
        if (colon == std::string_view::npos || !allDigits(body.substr(0, colon))) return false;
        body = body.substr(colon + 2);
        std::int64_t count = 0;
        std::string suffix;
        // The compact IO form joins entries with ", " and ends with ";": not the REPL display, and
        // splitting it would mean guessing where each MethodInstance ends.
        if (body.find(" children), ") != std::string_view::npos || endsWith(body, ";")) return false;
        size_t open = childrenAt(body, count, suffix);
        if (open == std::string_view::npos) return false;
        auto head = body.substr(0, open);
        if (section == Section::Mt && startsWith(head, "signature ")) return addMtEntry(head, count, std::move(suffix));
        if (section == Section::Be && startsWith(head, "superseding ")) return addBeEntry(head, count, std::move(suffix));
        return false;
    }

    std::int32_t node(std::string_view mi, std::int64_t hiddenChildren) {
        auto id = static_cast<std::int32_t>(f.nodes.size());
        f.nodes.push_back(InvalidationNode{.mi = f.keep(std::string(mi)), .hiddenChildren = hiddenChildren});
        return id;
    }

    // The MethodInstance is the only part that always starts with a fixed prefix; signatures and
    // methods may contain anything, so the split is made at " triggered MethodInstance for ".
    bool addMtEntry(std::string_view head, std::int64_t count, std::string suffix) {
        size_t trig = head.find(" triggered MethodInstance for ");
        if (trig == std::string_view::npos) trig = head.rfind(" triggered ");
        if (trig == std::string_view::npos) return false;
        std::string_view sig = head.substr(10, trig - 10);
        std::string formerly;
        size_t fm = sig.find(" (formerly ");
        if (fm != std::string_view::npos && endsWith(sig, ")")) {
            formerly = std::string(sig.substr(fm + 11, sig.size() - fm - 12));
            sig = sig.substr(0, fm);
        }
        tree->mtBackedges.push_back({.signature = std::string(sig), .formerly = formerly,
                                     .root = node(head.substr(trig + 11), count), .suffix = std::move(suffix)});
        return true;
    }

    bool addBeEntry(std::string_view head, std::int64_t count, std::string suffix) {
        size_t with = head.find(" with MethodInstance for ");
        if (with == std::string_view::npos) with = head.rfind(" with ");
        if (with == std::string_view::npos) return false;
        tree->backedges.push_back({.superseded = std::string(head.substr(12, with - 12)),
                                   .root = node(head.substr(with + 6), count), .suffix = std::move(suffix)});
        return true;
    }

    InvalidationForest& f;
    Section section = Section::None;
    MethodInvalidations* tree = nullptr;
    std::int64_t unreadable = 0, elided = 0;
    std::string firstUnreadable;
};

}  // namespace

void parsePrintedTrees(const std::vector<std::string>& lines, InvalidationForest& f) {
    PrintedTreeParser parser(f);
    for (const auto& raw : lines) parser.line(raw);
    parser.finish();
}

std::string formatMs(std::int64_t ns) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.1f ms", static_cast<double>(ns) / 1e6);
    return buf;
}

namespace {
std::string lpad(std::size_t i, std::size_t width) {
    std::string s = std::to_string(i);
    return std::string(width > s.size() ? width - s.size() : 0, ' ') + s;
}

void printNode(std::ostream& out, const InvalidationForest& f, std::int32_t id, const std::string& lead, int depth) {
    const auto& n = f.nodes[static_cast<size_t>(id)];
    out << lead << std::string(static_cast<size_t>(depth), ' ') << (n.isDummy() ? "(not logged)" : n.mi) << " ("
        << n.descendants << " children)";
    if (n.recompileNs > 0) out << " [recompiled " << formatMs(n.recompileNs) << "]";
    out << "\n";
    for (auto c : n.children) printNode(out, f, c, lead, depth + 1);
}
}  // namespace

// The layout is SnoopCompile's non-compact show: three spaces of indent, the section label, indices
// right-aligned to the width of the entry count, continuation lines aligned under the first entry.
// Cost and node lines come after the SnoopCompile lines so a tree without costs re-prints verbatim.
void printTree(std::ostream& out, const InvalidationForest& f, const MethodInvalidations& t,
               const TreePrintOptions& options, const std::string& lead) {
    if (t.multiMethodHeader) out << lead << "Invalidating methods: " << t.method << "\n";
    else out << lead << reasonName(t.reason) << " " << t.method << " invalidated:\n";
    const std::string indent = "   ";
    auto list = [&](std::string_view label, std::size_t n, auto&& entry) {
        std::size_t width = std::to_string(n).size();
        std::string cont(indent.size() + label.size() + 2, ' ');
        for (std::size_t i = 0; i < n; ++i) {
            out << (i == 0 ? indent + std::string(label) + ": " : cont) << lpad(i + 1, width) << ": ";
            entry(i);
            out << "\n";
        }
    };
    if (!t.mtBackedges.empty())
        list("mt_backedges", t.mtBackedges.size(), [&](std::size_t i) {
            const auto& e = t.mtBackedges[i];
            out << "signature " << e.signature;
            if (!e.formerly.empty()) out << " (formerly " << e.formerly << ")";
            out << " triggered " << f.nodes[static_cast<size_t>(e.root)].mi << " (" << f.countChildren(e.root)
                << " children)" << e.suffix;
        });
    if (!t.backedges.empty())
        list("backedges", t.backedges.size(), [&](std::size_t i) {
            const auto& b = t.backedges[i];
            out << "superseding " << (b.superseded.empty() ? "(method not in the log)" : b.superseded) << " with "
                << f.nodes[static_cast<size_t>(b.root)].mi << " (" << f.countChildren(b.root) << " children)"
                << b.suffix;
        });
    if (t.mtDisableCount > 0) {
        out << indent << "mt_disable: " << (t.mtDisable.empty() ? "" : t.mtDisable.front()) << "\n";
        if (t.mtDisableCount > 1) out << indent << std::string(12, ' ') << "+" << (t.mtDisableCount - 1) << " more\n";
    }
    if (t.mtCacheCount > 0) out << indent << t.mtCacheCount << " mt_cache\n";
    if (!t.note.empty()) out << indent << "note: " << t.note << "\n";
    if (options.costs && f.costJoined && t.recompileNs > 0)
        out << indent << "recompiled: " << formatMs(t.recompileNs) << " in " << t.recompiledInstances << " of "
            << t.invalidatedInstances << " invalidated MethodInstances\n";
    if (options.nodes) {
        for (const auto& e : t.mtBackedges) printNode(out, f, e.root, indent + "  ", 0);
        for (const auto& b : t.backedges) printNode(out, f, b.root, indent + "  ", 0);
    }
}

void printTrees(std::ostream& out, const InvalidationForest& f, const TreePrintOptions& options) {
    // A cut printout keeps its declared length, so the reprint says what the original said and how
    // much of it is here.
    const auto present = static_cast<std::int64_t>(f.trees.size());
    const bool cut = f.declaredTrees && *f.declaredTrees > present;
    if (options.vectorHeader)
        out << (cut ? *f.declaredTrees : present) << "-element Vector{SnoopCompile.MethodInvalidations}:\n";
    if (cut)
        out << (options.vectorHeader ? " " : "") << "# " << present << " of " << *f.declaredTrees
            << " trees present: the printout was cut\n";
    for (std::size_t i = 0; i < f.trees.size(); ++i) {
        if (i) out << "\n";
        printTree(out, f, f.trees[i], options, options.vectorHeader ? " " : "");
    }
}

void printCallerPath(std::ostream& out, const InvalidationForest& f, const CallerPath& path) {
    const auto& t = f.trees[path.tree];
    out << reasonName(t.reason) << " " << t.method << " invalidated:\n";
    for (std::size_t k = 0; k < path.nodes.size(); ++k) {
        const auto& n = f.nodes[static_cast<size_t>(path.nodes[k])];
        out << std::string(k + 1, ' ') << n.mi << " (" << n.descendants << " children)";
        if (n.recompileNs > 0) out << " [recompiled " << formatMs(n.recompileNs) << "]";
        out << "\n";
    }
}

}  // namespace cs::engine
