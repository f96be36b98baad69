// The line-based importers' way of reading their input: bounded lines (util/line_reader.h), and a
// line past the bound counted in `stats` with its number and length.
//
// Why (issue 40): a 2 GiB line held whole cost 8.4 GB before the import failed with SQLite's "NOT
// NULL constraint failed". Now such a line costs at most the bound (16 MiB), is counted as a
// malformed record ("line 3: a line of 2,147,483,648 bytes, longer than the 16 MiB a line may
// have; left out") and reaches the importer as an empty line, so every importer's line numbers and
// block structure stay as they were.
#pragma once

#include "core/ingest/importer.h"
#include "core/util/line_reader.h"

#include <istream>
#include <string>
#include <string_view>

namespace cs::ingest {

class ImportLines {
public:
    ImportLines(std::istream& in, ImportContext& ctx, std::string_view source,
                std::size_t maxLine = util::LineReader::kMaxLineBytes);
    // As std::getline; a line past the bound is counted (ctx.linesTooLong too) and comes back empty.
    bool next(std::string& line);

private:
    util::LineReader m_lines;
    ImportContext& m_ctx;
    std::string m_source;
    std::int64_t m_number = 0;
};

}  // namespace cs::ingest
