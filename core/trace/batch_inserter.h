// BatchInserter: writes a RowBatch into the trace with multi-row INSERT statements.
//
// Why multi-row: `INSERT INTO t VALUES (...),(...),...` with 64 rows runs one statement where 64
// single-row inserts run 64; on 6-column span rows that is ~1.5x the rows per second of one
// prepared single-row insert. Each table gets one K-row statement (K limited by SQLite's bound
// parameter limit) and one single-row statement for the remainder of a batch.
//
// Why the retry: when a K-row statement fails (a constraint, a full disk), SQLite rolls back that
// statement's rows only. The chunk is then inserted row by row so that every good row before the
// bad one is kept and the error names the table; the error is then thrown.
#pragma once

#include "core/trace/row_batch.h"
#include "core/trace/schema.h"
#include "core/trace/sqlite_util.h"

#include <sqlite3.h>

#include <cstdint>
#include <vector>

namespace cs::trace {

class BatchInserter {
public:
    BatchInserter(sqlite3* db, const std::vector<TableDef>& tables);

    // Inserts every row of `batch`, table by table, in each table's arrival order. Throws
    // std::runtime_error naming the table and SQLite's message on the first row that fails.
    void insert(const RowBatch& batch);

private:
    struct TableStatements {
        Statement single;
        Statement multi;  // kRows rows; prepared on first use
        int columns = 0;
        int rowsPerMulti = 1;
    };
    void bindRow(sqlite3_stmt* st, int firstParam, const Cell* cells, int columns, const RowBatch& batch) const;
    void stepOrThrow(sqlite3_stmt* st, std::size_t table);
    void insertChunk(std::size_t table, const Cell* cells, std::size_t rows, const RowBatch& batch);

    sqlite3* m_db;
    const std::vector<TableDef>& m_defs;
    std::vector<TableStatements> m_tables;
    int m_maxParams;
};

}  // namespace cs::trace
