#include "core/engine/timeline/string_table.h"

namespace cs::engine {

void StringTable::setNext(std::int64_t id, std::string_view s) {
    // Ids are dense from 1 in a trace written by TraceWriter; a gap (hand-edited file) is filled
    // with empty strings so that lookups by id stay O(1).
    while (static_cast<std::int64_t>(size()) + 1 < id) m_offsets.push_back(static_cast<std::uint32_t>(m_text.size()));
    if (static_cast<std::int64_t>(size()) + 1 != id) return;  // duplicate or out of order: ignore
    if (m_text.size() + s.size() > 0xFFFFFFF0u) s = {};  // > 4 GiB of names: keep ids valid, drop text
    m_text.append(s);
    m_offsets.push_back(static_cast<std::uint32_t>(m_text.size()));
}

std::string_view StringTable::get(std::int64_t id) const {
    if (id <= 0 || id > static_cast<std::int64_t>(size())) return {};
    auto i = static_cast<std::size_t>(id);
    return std::string_view(m_text).substr(m_offsets[i - 1], m_offsets[i] - m_offsets[i - 1]);
}

}  // namespace cs::engine
