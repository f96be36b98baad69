#include "core/ingest/julia/julia_invalidations_importer.h"

#include "core/formats/julia_log_lines.h"

#include "core/formats/julia_text.h"
#include "core/formats/text_util.h"
#include "core/util/utf8.h"

#include <compilescope/trace_constants.h>

#include <utility>
#include <vector>

namespace cs::ingest {

namespace {
bool isEdgeTag(std::string_view t) {
    return t == "\"insert_backedges_callee\"" || t == "\"verify_methods\"" || t == "\"method_globalref\"";
}
bool isElisionLine(std::string_view t) { return t == "⋮" || t == "..." || t == "…"; }
}  // namespace

int JuliaInvalidationsImporter::sniff(std::string_view head, std::string_view) const {
    bool header = false, tags = false, edgeTags = false, elision = false;
    forEachHeadLine(head, [&](const std::string& line) {
        std::int64_t n = 0;
        auto t = trim(line);
        if (parseAnyVectorHeader(line, n)) header = true;
        if (isElisionLine(t)) elision = true;
        if (isEdgeTag(t)) edgeTags = true;
        if (line.find("\"jl_method_table_") != std::string::npos ||
            line.find("\"invalidate_mt_cache\"") != std::string::npos || isEdgeTag(t))
            tags = true;
    });
    // A headerless fragment is only claimed with an elision line and the list's own tags.
    return header && tags ? 85 : header ? 30 : elision && edgeTags ? 75 : elision && tags ? 70 : 0;
}

// Streams line by line: a header opens a block, indented lines are its items, a blank or unindented
// line closes it. The block's list is decided at its header (from the line before it), so no block
// has to be held in memory; a block shorter than its header is reported when it closes. A headerless
// fragment holds its items only until its first tag decides the list (a tag comes within a few
// items; past kMaxUndecided the method list is assumed).
ImportSummary JuliaInvalidationsImporter::run(std::istream& in, ImportContext& ctx) const {
    constexpr size_t kMaxUndecided = 64;
    ImportSummary summary;
    auto& w = ctx.writer;
    std::int64_t ordinal[2] = {0, 0};
    int list = -1;                    // the list of the open block, -1 outside a block, -2 undecided
    bool headerless = false;
    std::int64_t declared = 0, seen = 0;
    bool elided = false;
    std::vector<std::pair<int, std::string>> undecided;  // items of a headerless block before its first tag
    std::string previous;             // the last non-blank line outside a block
    std::string line;
    std::int64_t lineNo = 0, blockLine = 0, unused = 0;
    std::string firstUnused;  // the first prompt or preamble line, for the unused_line stat
    auto bad = [&](std::int64_t at, const std::string& why) {
        ctx.malformed("line " + std::to_string(at), why, id());
        ++summary.malformed;
    };
    auto write = [&](int kind, std::string_view text) {
        w.addInvalidationItem({.sessionId = ctx.sessionId, .list = list, .ordinal = ordinal[list]++, .kind = kind,
                               .text = w.intern(text)});
        ++summary.records;
    };
    auto decide = [&](int l) {
        list = l;
        for (const auto& [kind, text] : undecided) write(kind, text);
        undecided.clear();
    };
    auto closeBlock = [&]() {
        if (list == -2) decide(previous.find("logedges") != std::string::npos ? CS_INVLIST_EDGES : CS_INVLIST_METHODS);
        if (list >= 0 && !headerless && !elided && seen < declared)
            bad(blockLine, "list truncated: " + std::to_string(seen) + " of " + std::to_string(declared) + " items");
        list = -1;
        headerless = false;
    };
    while (std::getline(in, line)) {
        ++lineNo;
        std::string clean = stripAnsi(line);
        while (!clean.empty() && clean.back() == '\r') clean.pop_back();
        auto t = trim(clean);
        std::int64_t count = 0;
        if (parseAnyVectorHeader(t, count)) {
            closeBlock();
            list = previous.find("logedges") != std::string::npos ? CS_INVLIST_EDGES : CS_INVLIST_METHODS;
            declared = count;
            seen = 0;
            elided = false;
            blockLine = lineNo;
            continue;
        }
        if (t.empty()) {
            closeBlock();
            continue;
        }
        int kind = isElisionLine(t) ? CS_INVITEM_ELISION : classifyJuliaItem(t);
        bool item = kind != CS_INVITEM_OTHER || startsWith(t, "Core.TypeMapEntry");
        if (list == -1 && item && (kind == CS_INVITEM_ELISION || clean.front() == ' ')) {
            // A fragment with no header: its first tag decides the list.
            list = -2;
            headerless = true;
            elided = false;
            blockLine = lineNo;
        }
        if (list == -1 || (clean.front() != ' ' && !(headerless && item))) {
            closeBlock();
            previous = std::string(t);
            if (isPasteContext(t)) {  // the prompt and SnoopCompile's preamble: context, not lost data
                if (unused++ == 0) firstUnused = "line " + std::to_string(lineNo) + ": \"" + std::string(util::utf8Prefix(t, 60)) + "\"";
                continue;
            }
            bad(lineNo, "not part of a printed invalidation list: \"" + std::string(util::utf8Prefix(t, 60)) + "\"");
            previous = std::string(t);
            continue;
        }
        if (!item) {
            bad(lineNo, "not a Julia value of an invalidation list: \"" + std::string(util::utf8Prefix(t, 60)) + "\"");
            continue;
        }
        if (kind == CS_INVITEM_ELISION) elided = true;
        else ++seen;
        std::string text = kind == CS_INVITEM_ELISION ? std::string("⋮") : std::string(t);
        if (list == -2) {
            undecided.emplace_back(kind, std::move(text));
            if (kind == CS_INVITEM_TAG) decide(isEdgeTag(t) ? CS_INVLIST_EDGES : CS_INVLIST_METHODS);
            else if (undecided.size() >= kMaxUndecided) decide(CS_INVLIST_METHODS);
            continue;
        }
        write(kind, text);
    }
    closeBlock();
    if (unused) w.addStat(ctx.sessionId, "unused_line", id(), unused, ctx.sourceName + " " + firstUnused);
    if (in.bad()) throw std::runtime_error(ctx.sourceName + ": read error");
    return summary;
}

}  // namespace cs::ingest
