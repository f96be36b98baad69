#include "core/trace/batch_inserter.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace cs::trace {

namespace {
// Rows per multi-row statement: past ~64 the gain flattens while the statement text grows.
constexpr int kRowsPerStatement = 64;
}  // namespace

BatchInserter::BatchInserter(sqlite3* db, const std::vector<TableDef>& tables)
    : m_db(db), m_defs(tables), m_tables(tables.size()),
      m_maxParams(std::max(1, sqlite3_limit(db, SQLITE_LIMIT_VARIABLE_NUMBER, -1))) {
    for (std::size_t t = 0; t < tables.size(); ++t) {
        auto& ts = m_tables[t];
        ts.columns = static_cast<int>(tables[t].columns.size());
        ts.single = Statement(db, insertSql(tables[t]));
        ts.rowsPerMulti = std::clamp(m_maxParams / std::max(1, ts.columns), 1, kRowsPerStatement);
    }
}

void BatchInserter::bindRow(sqlite3_stmt* st, int firstParam, const Cell* cells, int columns,
                            const RowBatch& batch) const {
    for (int c = 0; c < columns; ++c) {
        const Cell& cell = cells[c];
        const int p = firstParam + c;
        switch (cell.kind) {
        case Cell::Int: sqlite3_bind_int64(st, p, cell.bits); break;
        case Cell::Real: sqlite3_bind_double(st, p, cell.realValue()); break;
        case Cell::Text: {
            const auto t = batch.text(cell);
            // The batch outlives the step: no copy.
            sqlite3_bind_text64(st, p, t.data(), t.size(), SQLITE_STATIC, SQLITE_UTF8);
            break;
        }
        case Cell::Null: sqlite3_bind_null(st, p); break;
        }
    }
}

void BatchInserter::stepOrThrow(sqlite3_stmt* st, std::size_t table) {
    const int rc = sqlite3_step(st);
    sqlite3_reset(st);
    if (rc != SQLITE_DONE)
        throw std::runtime_error("cannot write " + std::string(m_defs[table].name) + ": " + errorText(m_db));
}

// Rows one by one: the remainder of a batch, or a multi-row chunk that failed.
void BatchInserter::insertChunk(std::size_t table, const Cell* cells, std::size_t rows, const RowBatch& batch) {
    auto& ts = m_tables[table];
    sqlite3_stmt* st = ts.single.get();
    for (std::size_t r = 0; r < rows; ++r) {
        bindRow(st, 1, cells + r * static_cast<std::size_t>(ts.columns), ts.columns, batch);
        stepOrThrow(st, table);
    }
}

void BatchInserter::insert(const RowBatch& batch) {
    for (std::size_t t = 0; t < m_tables.size() && t < batch.tableCount(); ++t) {
        const std::size_t rows = batch.rowsOf(static_cast<int>(t));
        if (!rows) continue;
        auto& ts = m_tables[t];
        const auto& cells = batch.cellsOf(static_cast<int>(t));
        if (cells.size() != rows * static_cast<std::size_t>(ts.columns))
            throw std::runtime_error("internal error: a batch row of " + std::string(m_defs[t].name) +
                                     " has the wrong number of values");
        const auto k = static_cast<std::size_t>(ts.rowsPerMulti);
        std::size_t r = 0;
        if (k > 1 && rows >= k) {
            if (!ts.multi.valid()) ts.multi = Statement(m_db, insertSql(m_defs[t], ts.rowsPerMulti));
            sqlite3_stmt* st = ts.multi.get();
            for (; r + k <= rows; r += k) {
                const Cell* chunk = cells.data() + r * static_cast<std::size_t>(ts.columns);
                for (std::size_t i = 0; i < k; ++i)
                    bindRow(st, static_cast<int>(i) * ts.columns + 1, chunk + i * static_cast<std::size_t>(ts.columns),
                            ts.columns, batch);
                if (sqlite3_step(st) == SQLITE_DONE) {
                    sqlite3_reset(st);
                    continue;
                }
                sqlite3_reset(st);
                insertChunk(t, chunk, k, batch);  // keeps the good rows, throws at the bad one
            }
        }
        insertChunk(t, cells.data() + r * static_cast<std::size_t>(ts.columns), rows - r, batch);
    }
}

}  // namespace cs::trace
