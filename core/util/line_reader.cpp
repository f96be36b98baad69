#include "core/util/line_reader.h"

#include <algorithm>
#include <cstring>

namespace cs::util {

namespace {
constexpr std::size_t kChunk = 64 * 1024;
constexpr std::size_t kCutKept = 64;  // what a cut line keeps, to be shown as an example
}  // namespace

LineReader::LineReader(std::istream& in, std::size_t maxLine) : m_in(in), m_max(maxLine), m_buf(kChunk) {}

bool LineReader::fill() {
    if (!m_in) return false;
    m_in.read(m_buf.data(), static_cast<std::streamsize>(m_buf.size()));
    m_len = static_cast<std::size_t>(m_in.gcount());
    m_pos = 0;
    return m_len > 0;
}

bool LineReader::next(std::string& line) {
    line.clear();
    m_cut = 0;
    std::uint64_t length = 0;
    bool any = false;
    for (;;) {
        if (m_pos == m_len && !fill()) break;
        any = true;
        const char* start = m_buf.data() + m_pos;
        const auto* nl = static_cast<const char*>(std::memchr(start, '\n', m_len - m_pos));
        const std::size_t n = nl ? static_cast<std::size_t>(nl - start) : m_len - m_pos;
        // Past the limit nothing more is held: the line is read past, only counted.
        if (length < m_max) line.append(start, static_cast<std::size_t>(std::min<std::uint64_t>(n, m_max - length)));
        length += n;
        m_pos += n + (nl ? 1 : 0);
        if (nl) break;
    }
    if (!any) return false;
    if (length > m_max) {
        m_cut = length;
        line.resize(std::min(line.size(), kCutKept));
        line.shrink_to_fit();
    }
    return true;
}

}  // namespace cs::util
