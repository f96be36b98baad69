#include "core/ingest/import_lines.h"

#include "core/util/units.h"

#include <algorithm>
#include <cstdint>

namespace cs::ingest {

ImportLines::ImportLines(std::istream& in, ImportContext& ctx, std::string_view source, std::size_t maxLine)
    : m_lines(in, maxLine), m_ctx(ctx), m_source(source) {}

bool ImportLines::next(std::string& line) {
    if (!m_lines.next(line)) return false;
    ++m_number;
    if (const std::uint64_t length = m_lines.cutLength()) {
        const auto n = static_cast<std::int64_t>(std::min<std::uint64_t>(length, INT64_MAX));
        m_ctx.malformed("line " + std::to_string(m_number),
                        "a line of " + util::formatCount(n) + " bytes, longer than the " +
                            util::formatBytes(static_cast<std::int64_t>(m_lines.maxLine())) +
                            " a line may have; left out",
                        m_source);
        ++m_ctx.linesTooLong;
        line.clear();
    }
    return true;
}

}  // namespace cs::ingest
