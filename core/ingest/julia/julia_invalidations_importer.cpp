#include "core/ingest/julia/julia_invalidations_importer.h"

#include "core/ingest/import_lines.h"
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

constexpr size_t kMaxUndecided = 64;

// One run over a paste. Each line has one role in it, and a flat switch sends it to that role's
// handler (the rules are the run's, below).
class InvalidationListReader {
public:
    InvalidationListReader(ImportContext& ctx, std::string_view importerId) : m_ctx(ctx), m_id(importerId) {}

    void line(const std::string& raw) {
        ++m_lineNo;
        std::string clean = stripAnsi(raw);
        while (!clean.empty() && clean.back() == '\r') clean.pop_back();
        auto t = trim(clean);
        std::int64_t count = 0;
        int kind = CS_INVITEM_OTHER;
        switch (roleOf(clean, t, count, kind)) {
        case Role::Header: return onHeader(count);
        case Role::Blank: return closeBlock();
        case Role::Outside: return onOutside(t);
        case Role::NotAValue:
            return bad(m_lineNo, "not a Julia value of an invalidation list: \"" + std::string(util::utf8Prefix(t, 60)) + "\"");
        case Role::Item: return onItem(kind, t);
        }
    }

    ImportSummary finish() {
        closeBlock();
        if (m_unused) m_ctx.writer.addStat(m_ctx.sessionId, "unused_line", m_id, m_unused, m_ctx.sourceName + " " + m_firstUnused);
        return m_summary;
    }

private:
    enum class Role { Header, Blank, Outside, NotAValue, Item };

    // The line's role; an item with no block open (indented, or an elision) opens a headerless
    // fragment here, whose first tag decides the list.
    Role roleOf(const std::string& clean, std::string_view t, std::int64_t& count, int& kind) {
        if (parseAnyVectorHeader(t, count)) return Role::Header;
        if (t.empty()) return Role::Blank;
        kind = isElisionLine(t) ? CS_INVITEM_ELISION : classifyJuliaItem(t);
        bool item = kind != CS_INVITEM_OTHER || startsWith(t, "Core.TypeMapEntry");
        if (m_list == -1 && item && (kind == CS_INVITEM_ELISION || clean.front() == ' ')) {
            m_list = -2;
            m_headerless = true;
            m_elided = false;
            m_blockLine = m_lineNo;
        }
        if (m_list == -1 || (clean.front() != ' ' && !(m_headerless && item))) return Role::Outside;
        return item ? Role::Item : Role::NotAValue;
    }

    void bad(std::int64_t at, const std::string& why) {
        m_ctx.malformed("line " + std::to_string(at), why, m_id);
        ++m_summary.malformed;
    }

    void write(int kind, std::string_view text) {
        auto& w = m_ctx.writer;
        w.addInvalidationItem({.sessionId = m_ctx.sessionId, .list = m_list, .ordinal = m_ordinal[m_list]++, .kind = kind,
                               .text = w.intern(text)});
        ++m_summary.records;
    }

    void decide(int l) {
        m_list = l;
        for (const auto& [kind, text] : m_undecided) write(kind, text);
        m_undecided.clear();
    }

    void closeBlock() {
        if (m_list == -2) decide(m_previous.find("logedges") != std::string::npos ? CS_INVLIST_EDGES : CS_INVLIST_METHODS);
        if (m_list >= 0 && !m_headerless && !m_elided && m_seen < m_declared)
            bad(m_blockLine, "list truncated: " + std::to_string(m_seen) + " of " + std::to_string(m_declared) + " items");
        m_list = -1;
        m_headerless = false;
    }

    void onHeader(std::int64_t count) {
        closeBlock();
        m_list = m_previous.find("logedges") != std::string::npos ? CS_INVLIST_EDGES : CS_INVLIST_METHODS;
        m_declared = count;
        m_seen = 0;
        m_elided = false;
        m_blockLine = m_lineNo;
    }

    void onOutside(std::string_view t) {
        closeBlock();
        m_previous = std::string(t);
        if (isPasteContext(t)) {  // the prompt and SnoopCompile's preamble: context, not lost data
            if (m_unused++ == 0) m_firstUnused = "line " + std::to_string(m_lineNo) + ": \"" + std::string(util::utf8Prefix(t, 60)) + "\"";
            return;
        }
        bad(m_lineNo, "not part of a printed invalidation list: \"" + std::string(util::utf8Prefix(t, 60)) + "\"");
    }

    void onItem(int kind, std::string_view t) {
        if (kind == CS_INVITEM_ELISION) m_elided = true;
        else ++m_seen;
        std::string text = kind == CS_INVITEM_ELISION ? std::string("⋮") : std::string(t);
        if (m_list != -2) return write(kind, text);
        m_undecided.emplace_back(kind, std::move(text));
        if (kind == CS_INVITEM_TAG) decide(isEdgeTag(t) ? CS_INVLIST_EDGES : CS_INVLIST_METHODS);
        else if (m_undecided.size() >= kMaxUndecided) decide(CS_INVLIST_METHODS);
    }

    ImportContext& m_ctx;
    std::string_view m_id;
    ImportSummary m_summary;
    std::int64_t m_ordinal[2] = {0, 0};
    int m_list = -1;  // the list of the open block, -1 outside a block, -2 undecided
    bool m_headerless = false;
    std::int64_t m_declared = 0, m_seen = 0;
    bool m_elided = false;
    std::vector<std::pair<int, std::string>> m_undecided;  // items of a headerless block before its first tag
    std::string m_previous;  // the last non-blank line outside a block
    std::int64_t m_lineNo = 0, m_blockLine = 0, m_unused = 0;
    std::string m_firstUnused;  // the first prompt or preamble line, for the unused_line stat
};
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
    InvalidationListReader reader(ctx, id());
    std::string line;
    ImportLines lines(in, ctx, id());
    while (lines.next(line)) reader.line(line);
    auto summary = reader.finish();
    if (in.bad()) throw std::runtime_error(ctx.sourceName + ": read error");
    return summary;
}

}  // namespace cs::ingest
