#include "core/ingest/julia/julia_invalidations_importer.h"

#include "core/formats/julia_text.h"
#include "core/formats/text_util.h"
#include "core/util/utf8.h"

#include <compilescope/trace_constants.h>

namespace cs::ingest {

int JuliaInvalidationsImporter::sniff(std::string_view head, std::string_view) const {
    bool header = false, tags = false;
    forEachHeadLine(head, [&](const std::string& line) {
        std::int64_t n = 0;
        if (parseAnyVectorHeader(line, n)) header = true;
        if (header && (line.find("\"jl_method_table_") != std::string::npos ||
                       line.find("\"invalidate_mt_cache\"") != std::string::npos ||
                       line.find("\"verify_methods\"") != std::string::npos ||
                       line.find("\"insert_backedges_callee\"") != std::string::npos))
            tags = true;
    });
    return header && tags ? 85 : header ? 30 : 0;
}

// Streams line by line: a header opens a block, indented lines are its items, a blank or unindented
// line closes it. The block's list is decided at its header (from the line before it), so no block
// has to be held in memory; a block shorter than its header is reported when it closes.
ImportSummary JuliaInvalidationsImporter::run(std::istream& in, ImportContext& ctx) const {
    ImportSummary summary;
    auto& w = ctx.writer;
    std::int64_t ordinal[2] = {0, 0};
    int list = -1;                    // the list of the open block, -1 outside a block
    std::int64_t declared = 0, seen = 0;
    bool elided = false;
    std::string previous;             // the last non-blank line outside a block
    std::string line;
    std::int64_t lineNo = 0, blockLine = 0;
    auto bad = [&](std::int64_t at, const std::string& why) {
        ctx.malformed("line " + std::to_string(at), why, id());
        ++summary.malformed;
    };
    auto closeBlock = [&]() {
        if (list >= 0 && !elided && seen < declared)
            bad(blockLine, "list truncated: " + std::to_string(seen) + " of " + std::to_string(declared) + " items");
        list = -1;
    };
    while (std::getline(in, line)) {
        ++lineNo;
        std::string clean = stripAnsi(line);
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
        if (list < 0 || clean.front() != ' ') {
            closeBlock();
            bad(lineNo, "not part of a printed invalidation list: \"" + std::string(util::utf8Prefix(t, 60)) + "\"");
            previous = std::string(t);
            continue;
        }
        int kind = classifyJuliaItem(t);
        if (kind == CS_INVITEM_OTHER && !startsWith(t, "Core.TypeMapEntry")) {
            bad(lineNo, "not a Julia value of an invalidation list: \"" + std::string(util::utf8Prefix(t, 60)) + "\"");
            continue;
        }
        if (kind == CS_INVITEM_ELISION) elided = true;
        else ++seen;
        w.addInvalidationItem({.sessionId = ctx.sessionId, .list = list, .ordinal = ordinal[list]++, .kind = kind,
                               .text = w.intern(t)});
        ++summary.records;
    }
    closeBlock();
    if (in.bad()) throw std::runtime_error(ctx.sourceName + ": read error");
    return summary;
}

}  // namespace cs::ingest
