#include "core/ingest/julia/julia_trees_importer.h"

#include "core/ingest/import_lines.h"
#include "core/formats/julia_log_lines.h"
#include "core/formats/julia_text.h"
#include "core/formats/text_util.h"

#include "core/formats/snoopcompile_lines.h"
#include "core/util/utf8.h"

#include <compilescope/trace_constants.h>

namespace cs::ingest {

using formats::PrintedLineKind;

int JuliaTreesImporter::sniff(std::string_view head, std::string_view) const {
    int headers = 0, bodies = 0, entries = 0;
    forEachHeadLine(head, [&](const std::string& line) {
        auto k = formats::classifyPrintedLine(line);
        if (k == PrintedLineKind::TreeHeader || k == PrintedLineKind::VectorHeader) ++headers;
        if (k == PrintedLineKind::TreeBody) {
            ++bodies;
            std::int64_t n = 0;
            std::string suffix;
            if (formats::childrenAt(line, n, suffix) != std::string::npos) ++entries;
        }
    });
    // A paste that starts mid-tree (at " 68: superseding ... (1 children)") has entries and no
    // header; the "(N children)" ending is SnoopCompile's alone.
    return headers && bodies ? 90 : headers ? 40 : entries ? 60 : 0;
}

// Only the line kind is decided here; the lines are parsed into trees when the trace is read, by
// the same parser the printer mirrors, so an importer fix and a printer fix cannot drift apart.
ImportSummary JuliaTreesImporter::run(std::istream& in, ImportContext& ctx) const {
    ImportSummary summary;
    auto& w = ctx.writer;
    std::int64_t ordinal = 0, lineNo = 0, unused = 0;
    std::string line, firstUnused;
    ImportLines lines(in, ctx, id());
    while (lines.next(line)) {
        ++lineNo;
        std::string clean = stripAnsi(line);
        while (!clean.empty() && (clean.back() == '\r' || clean.back() == ' ')) clean.pop_back();
        auto kind = formats::classifyPrintedLine(clean);
        switch (kind) {
        case PrintedLineKind::Blank: continue;
        case PrintedLineKind::VectorHeader:
        case PrintedLineKind::Elision:
        case PrintedLineKind::TreeHeader: break;
        case PrintedLineKind::TreeBody:
            // Kept even with no tree header before it: a paste that starts mid-tree is common, and
            // its entries still carry their children counts (the engine keeps them as orphans).
            break;
        case PrintedLineKind::Other:
            if (isPasteContext(clean)) {  // the prompt and SnoopCompile's preamble: context, not lost data
                if (unused++ == 0) firstUnused = "line " + std::to_string(lineNo) + ": \"" + std::string(util::utf8Prefix(trim(clean), 60)) + "\"";
                continue;
            }
            ctx.malformed("line " + std::to_string(lineNo),
                          "not a line of a printed invalidation tree: \"" + std::string(util::utf8Prefix(clean, 60)) + "\"", id());
            ++summary.malformed;
            continue;
        }
        w.addInvalidationItem({.sessionId = ctx.sessionId, .list = CS_INVLIST_PRINTED, .ordinal = ordinal++,
                               .kind = CS_INVITEM_TREE_LINE, .text = w.intern(clean)});
        ++summary.records;
    }
    if (unused) w.addStat(ctx.sessionId, "unused_line", id(), unused, ctx.sourceName + " " + firstUnused);
    if (in.bad()) throw std::runtime_error(ctx.sourceName + ": read error");
    return summary;
}

}  // namespace cs::ingest
