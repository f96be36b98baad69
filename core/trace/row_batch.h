// RowBatch: rows of many tables held in memory until they are inserted together.
//
// Why: one sqlite3_step per row costs more than the row itself (statement setup, VDBE dispatch,
// cursor positioning). The writer collects rows here and hands a full batch to the inserter, which
// writes each table's rows with multi-row INSERT statements, on a thread of its own. A batch owns
// copies of its text values (an arena), so callers' strings may die as soon as an add*() returns.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace cs::trace {

// One column value. Text is an offset and length into the batch's arena; a real keeps its bits.
struct Cell {
    enum Kind : std::uint8_t { Null, Int, Real, Text };
    Kind kind = Null;
    std::uint32_t length = 0;  // Text only
    std::int64_t bits = 0;     // Int value, Real bit pattern, or Text offset

    static Cell integer(std::int64_t v) { return {Int, 0, v}; }
    static Cell real(double v) {
        Cell c{Real, 0, 0};
        std::memcpy(&c.bits, &v, sizeof v);
        return c;
    }
    double realValue() const {
        double v;
        std::memcpy(&v, &bits, sizeof v);
        return v;
    }
};

class RowBatch {
public:
    explicit RowBatch(std::size_t tables) : m_tables(tables) {}

    // Starts a row of `table`; the caller then appends exactly that table's column count of cells.
    void beginRow(int table) {
        m_current = &m_tables[static_cast<std::size_t>(table)];
        m_rowCells = m_current->cells.size();
        m_rowText = m_text.size();
        ++m_current->rows;
        ++m_rows;
    }
    void add(Cell c) { m_current->cells.push_back(c); }
    // Takes back the row begun last, when one of its values cannot be stored.
    void dropRow() {
        if (!m_current) return;
        m_current->cells.resize(m_rowCells);
        m_text.resize(m_rowText);
        --m_current->rows;
        --m_rows;
        m_current = nullptr;
    }
    void addText(std::string_view s) {
        Cell c{Cell::Text, static_cast<std::uint32_t>(s.size()), static_cast<std::int64_t>(m_text.size())};
        m_text.append(s);
        m_current->cells.push_back(c);
    }

    // Empties the batch, keeping its memory for the next one.
    void clear() {
        for (auto& t : m_tables) {
            t.cells.clear();
            t.rows = 0;
        }
        m_text.clear();
        m_rows = 0;
        m_current = nullptr;
    }

    std::size_t rows() const { return m_rows; }
    std::size_t bytes() const { return m_text.size() + m_rows * 64; }
    std::size_t tableCount() const { return m_tables.size(); }
    std::size_t rowsOf(int table) const { return m_tables[static_cast<std::size_t>(table)].rows; }
    const std::vector<Cell>& cellsOf(int table) const { return m_tables[static_cast<std::size_t>(table)].cells; }
    std::string_view text(const Cell& c) const { return std::string_view(m_text).substr(static_cast<std::size_t>(c.bits), c.length); }

private:
    struct Table {
        std::vector<Cell> cells;  // rows * columns, row-major
        std::size_t rows = 0;
    };
    std::vector<Table> m_tables;
    Table* m_current = nullptr;
    std::string m_text;
    std::size_t m_rows = 0;
    std::size_t m_rowCells = 0, m_rowText = 0;  // where the row begun last starts
};

}  // namespace cs::trace
