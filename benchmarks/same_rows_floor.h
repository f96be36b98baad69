// The storage limit of an import: the very rows an import wrote (every table, the same values, text
// included), inserted again by plain prepared statements into a fresh file with the same
// tables and indexes, the same page size and reserved bytes and the same bulk settings, in one
// transaction. No parsing, no batching, no checksums: what SQLite alone costs for that output, which
// an import "at the storage limit" (issue 22) approaches and cannot beat by much.
//
// raw_sqlite_spans.h is the other floor: as many rows of six integers into one plain table. It costs
// less than the import's real rows (no text, no index), so it is shown beside this one, not judged.
#pragma once

#include "core/trace/page_seal.h"

#include <benchmark/benchmark.h>
#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace cs::bench {

// Before each timed write of a file, outside the clock: what earlier iterations and benchmarks left
// for the kernel to write back is written now, not in the middle of the next measurement. Neither
// the floors nor a bulk import sync, so without this each was charged a varying share of the
// previous one's writeback (the same import measured 99 and 160 MB/s in two runs on a 2-core VM).
inline void settleWrites(benchmark::State& state) {
    state.PauseTiming();
    ::sync();
    state.ResumeTiming();
}

// Every row of a trace, held in memory so that inserting them again reads nothing.
struct TraceRows {
    struct Cell {
        int type = SQLITE_NULL;
        std::int64_t i = 0;
        double d = 0;
        std::size_t textAt = 0, textLen = 0;
    };
    struct Table {
        std::string insertSql;
        int columns = 0;
        std::vector<Cell> cells;
    };
    int pageSize = 4096;
    std::vector<std::string> tableDdl, indexDdl;
    std::vector<Table> tables;
    std::string text;  // every text value, one after another
    std::int64_t rows = 0;
};

inline void floorExec(sqlite3* db, const std::string& sql) {
    char* err = nullptr;
    if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
        std::string what = err ? err : "unknown error";
        sqlite3_free(err);
        throw std::runtime_error("same-rows floor: " + sql.substr(0, 60) + ": " + what);
    }
}

inline TraceRows loadTraceRows(const std::string& path) {
    TraceRows out;
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK)
        throw std::runtime_error("same-rows floor: cannot open " + path);
    sqlite3_stmt* st = nullptr;
    sqlite3_prepare_v2(db, "PRAGMA page_size", -1, &st, nullptr);
    if (sqlite3_step(st) == SQLITE_ROW) out.pageSize = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    std::vector<std::string> names;
    sqlite3_prepare_v2(db, "SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid", -1, &st, nullptr);
    while (sqlite3_step(st) == SQLITE_ROW) {
        const std::string type = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
        const std::string sql = reinterpret_cast<const char*>(sqlite3_column_text(st, 2));
        if (type == "table") {
            out.tableDdl.push_back(sql);
            names.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(st, 1)));
        } else if (type == "index") {
            out.indexDdl.push_back(sql);
        }
    }
    sqlite3_finalize(st);
    for (const auto& name : names) {
        TraceRows::Table t;
        sqlite3_prepare_v2(db, ("SELECT * FROM " + name + " ORDER BY rowid").c_str(), -1, &st, nullptr);
        t.columns = sqlite3_column_count(st);
        t.insertSql = "INSERT INTO " + name + " VALUES (";
        for (int c = 0; c < t.columns; ++c) t.insertSql += c ? ",?" : "?";
        t.insertSql += ")";
        while (sqlite3_step(st) == SQLITE_ROW) {
            for (int c = 0; c < t.columns; ++c) {
                TraceRows::Cell cell;
                cell.type = sqlite3_column_type(st, c);
                if (cell.type == SQLITE_INTEGER) cell.i = sqlite3_column_int64(st, c);
                else if (cell.type == SQLITE_FLOAT) cell.d = sqlite3_column_double(st, c);
                else if (cell.type != SQLITE_NULL) {
                    cell.type = SQLITE_TEXT;
                    const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(st, c));
                    cell.textAt = out.text.size();
                    cell.textLen = static_cast<std::size_t>(sqlite3_column_bytes(st, c));
                    out.text.append(p, cell.textLen);
                }
                t.cells.push_back(cell);
            }
            ++out.rows;
        }
        sqlite3_finalize(st);
        out.tables.push_back(std::move(t));
    }
    sqlite3_close(db);
    return out;
}

// rowsPerStatement 1: one plain prepared insert per row. 64: the multi-row statements the writer
// itself uses (the faster of the two, so the stricter limit).
inline void insertTraceRows(const TraceRows& rows, const std::string& path, int rowsPerStatement = 64) {
    for (const char* s : {"", "-wal", "-shm", "-journal"}) std::filesystem::remove(path + s);
    sqlite3* db = nullptr;
    sqlite3_open(path.c_str(), &db);
    floorExec(db, "PRAGMA page_size=" + std::to_string(rows.pageSize));
    int reserve = cs::trace::kReservedBytes;
    sqlite3_file_control(db, "main", SQLITE_FCNTL_RESERVE_BYTES, &reserve);
    floorExec(db, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA cache_size=-65536; "
                  "PRAGMA temp_store=MEMORY; PRAGMA locking_mode=EXCLUSIVE; BEGIN");
    for (const auto& ddl : rows.tableDdl) floorExec(db, ddl);
    for (const auto& ddl : rows.indexDdl) floorExec(db, ddl);
    for (const auto& t : rows.tables) {
        const std::size_t total = t.cells.size() / static_cast<std::size_t>(t.columns);
        // k rows per statement, as many as SQLite's parameter limit allows; the rest one by one.
        const std::size_t k = std::max<std::size_t>(
            1, std::min<std::size_t>(static_cast<std::size_t>(rowsPerStatement),
                                     static_cast<std::size_t>(sqlite3_limit(db, SQLITE_LIMIT_VARIABLE_NUMBER, -1) / t.columns)));
        std::string one = t.insertSql.substr(t.insertSql.find('('));
        std::string multi = t.insertSql;
        for (std::size_t i = 1; i < k; ++i) multi += "," + one;
        sqlite3_stmt* many = nullptr;
        sqlite3_stmt* single = nullptr;
        sqlite3_prepare_v2(db, multi.c_str(), -1, &many, nullptr);
        sqlite3_prepare_v2(db, t.insertSql.c_str(), -1, &single, nullptr);
        std::size_t r = 0;
        while (r < total) {
            const std::size_t n = total - r >= k ? k : 1;
            sqlite3_stmt* st = n == k ? many : single;
            for (std::size_t i = 0; i < n; ++i)
                for (int c = 0; c < t.columns; ++c) {
                    const auto& cell = t.cells[(r + i) * static_cast<std::size_t>(t.columns) + static_cast<std::size_t>(c)];
                    const int p = static_cast<int>(i) * t.columns + c + 1;
                    if (cell.type == SQLITE_INTEGER) sqlite3_bind_int64(st, p, cell.i);
                    else if (cell.type == SQLITE_FLOAT) sqlite3_bind_double(st, p, cell.d);
                    else if (cell.type == SQLITE_TEXT)
                        sqlite3_bind_text64(st, p, rows.text.data() + cell.textAt, cell.textLen, SQLITE_STATIC, SQLITE_UTF8);
                    else sqlite3_bind_null(st, p);
                }
            if (sqlite3_step(st) != SQLITE_DONE) {
                std::string what = sqlite3_errmsg(db);
                sqlite3_finalize(many);
                sqlite3_finalize(single);
                sqlite3_close(db);
                throw std::runtime_error("same-rows floor: insert failed: " + what);
            }
            sqlite3_reset(st);
            r += n;
        }
        sqlite3_finalize(many);
        sqlite3_finalize(single);
    }
    floorExec(db, "COMMIT");
    sqlite3_close(db);
}

}  // namespace cs::bench
