#include "table_printer.h"

#include "core/util/utf8.h"

#include <algorithm>

namespace cs::cli {

namespace {
// Counts UTF-8 code points so that non-ASCII names still align.
size_t displayWidth(const std::string& s) {
    size_t n = 0;
    for (unsigned char c : s)
        if ((c & 0xC0) != 0x80) ++n;
    return n;
}

// Control characters and bytes that are not UTF-8 (a runtime name sent by anyone who can reach the
// recorder's socket, issue 40) become '?': a table is valid UTF-8 text on one line per row.
std::string clean(const std::string& s, size_t maxWidth) {
    std::string out;
    for (size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        const size_t n = util::utf8SequenceLength(s, i);
        if (n == 0 || c < 0x20 || c == 0x7f) out += '?';
        else out.append(s, i, n);
        i += n == 0 ? 1 : n;
    }
    if (displayWidth(out) > maxWidth) {
        size_t keep = 0, seen = 0;
        while (keep < out.size() && seen < maxWidth - 3) {
            ++keep;
            while (keep < out.size() && (static_cast<unsigned char>(out[keep]) & 0xC0) == 0x80) ++keep;
            ++seen;
        }
        out = out.substr(0, keep) + "...";
    }
    return out;
}
}  // namespace

void TablePrinter::print(std::ostream& out, size_t maxWidth) const {
    std::vector<std::vector<std::string>> cells;
    cells.reserve(m_rows.size() + 1);
    auto add = [&](const std::vector<std::string>& r) {
        std::vector<std::string> c;
        for (const auto& v : r) c.push_back(clean(v, maxWidth));
        cells.push_back(std::move(c));
    };
    add(m_header);
    for (const auto& r : m_rows) add(r);
    std::vector<size_t> width(m_header.size(), 0);
    for (const auto& r : cells)
        for (size_t i = 0; i < r.size() && i < width.size(); ++i) width[i] = std::max(width[i], displayWidth(r[i]));
    auto line = [&](const std::vector<std::string>& r) {
        std::string s;
        for (size_t i = 0; i < width.size(); ++i) {
            std::string v = i < r.size() ? r[i] : "";
            if (i) s += "  ";
            s += v;
            if (i + 1 < width.size()) s.append(width[i] - displayWidth(v), ' ');
        }
        while (!s.empty() && s.back() == ' ') s.pop_back();
        out << s << "\n";
    };
    line(cells[0]);
    std::vector<std::string> rule;
    for (size_t w : width) rule.push_back(std::string(w, '-'));
    line(rule);
    for (size_t i = 1; i < cells.size(); ++i) line(cells[i]);
}

}  // namespace cs::cli
