// Prints rows as an aligned text table (used by `sql`, `info` and later commands).
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace cs::cli {

class TablePrinter {
public:
    explicit TablePrinter(std::vector<std::string> header) : m_header(std::move(header)) {}
    void addRow(std::vector<std::string> row) { m_rows.push_back(std::move(row)); }
    size_t rowCount() const { return m_rows.size(); }
    // Cells longer than maxWidth are cut with "..."; control characters are shown as '?'.
    void print(std::ostream& out, size_t maxWidth = 80) const;

private:
    std::vector<std::string> m_header;
    std::vector<std::vector<std::string>> m_rows;
};

}  // namespace cs::cli
