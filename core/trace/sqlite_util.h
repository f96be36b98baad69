// Small RAII helpers over the SQLite C API, shared by the writer and the reader.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace cs::trace {

struct SqliteCloser {
    void operator()(sqlite3* db) const { sqlite3_close_v2(db); }
};

// A prepared statement that finalizes itself.
class Statement {
public:
    Statement() = default;
    Statement(sqlite3* db, std::string_view sql);
    Statement(Statement&& o) noexcept : m_stmt(o.m_stmt) { o.m_stmt = nullptr; }
    Statement& operator=(Statement&& o) noexcept;
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;
    ~Statement();

    sqlite3_stmt* get() const { return m_stmt; }
    bool valid() const { return m_stmt != nullptr; }
    // Steps once; true while a row is available. Throws std::runtime_error with SQLite's message.
    bool step();
    void reset();
    std::int64_t columnInt(int i) const { return sqlite3_column_int64(m_stmt, i); }
    bool columnNull(int i) const { return sqlite3_column_type(m_stmt, i) == SQLITE_NULL; }
    std::string columnText(int i) const;
    void bind(int i, std::int64_t v);
    void bind(int i, std::string_view v);
    void bindNull(int i);

private:
    sqlite3_stmt* m_stmt = nullptr;
};

// SQLite's message for the last error on `db`, with the operating system's reason when there is one.
std::string errorText(sqlite3* db);

// Runs statements that return no rows; throws std::runtime_error with SQLite's message.
void execSql(sqlite3* db, const std::string& sql);

}  // namespace cs::trace
