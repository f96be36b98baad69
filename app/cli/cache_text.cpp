#include "cache_text.h"

#include "core/util/utf8.h"

#include <charconv>
#include <filesystem>

namespace cs::cli {

std::string lookupLabel(const engine::CacheFacts& facts, size_t i) {
    const auto& l = facts.lookups[i];
    std::string s = engine::lookupName(l);
    if (l.step) s += "  step " + std::to_string(*l.step);
    s += "  " + facts.str(l.program);
    if (l.handle) s += "  handle " + facts.str(l.handle);
    return s;
}

// Escaped (issue 40): a newline in a file name would otherwise break the line it is printed in.
std::string traceLabel(const std::string& path) { return util::printablePath(std::filesystem::path(path).filename().string()); }

bool parseCount(const std::string& text, std::int64_t& value) {
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    return ec == std::errc() && end == text.data() + text.size() && value >= 0;
}

}  // namespace cs::cli
