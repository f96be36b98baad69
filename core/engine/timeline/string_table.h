// StringTable: every interned string of a trace, packed into one buffer.
//
// Why packed: a trace with a million distinct span names (clang -ftime-trace of a big project) would
// cost 32 bytes of std::string header per name before its text; the viewer's budget is 40 bytes per
// event in total. One char buffer plus a 4-byte offset per string keeps the table at its text size.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cs::engine {

class StringTable {
public:
    StringTable() { m_offsets.push_back(0); }
    // Appends the string with the next id (ids start at 1; id 0 is the empty string).
    void setNext(std::int64_t id, std::string_view s);
    std::string_view get(std::int64_t id) const;
    std::size_t size() const { return m_offsets.size() - 1; }
    std::size_t allocatedBytes() const { return m_text.capacity() + m_offsets.capacity() * sizeof(std::uint32_t); }
    void shrink() {
        m_text.shrink_to_fit();
        m_offsets.shrink_to_fit();
    }

private:
    std::string m_text;
    // The text of id i is m_offsets[i-1] .. m_offsets[i]; id 0 is "".
    std::vector<std::uint32_t> m_offsets;
};

}  // namespace cs::engine
