#include "core/trace/sqlite_util.h"

#include <cstring>
#include <stdexcept>

namespace cs::trace {

Statement::Statement(sqlite3* db, std::string_view sql) {
    if (sqlite3_prepare_v3(db, sql.data(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT, &m_stmt,
                           nullptr) != SQLITE_OK)
        throw std::runtime_error(std::string(sqlite3_errmsg(db)) + " in: " + std::string(sql));
}

Statement& Statement::operator=(Statement&& o) noexcept {
    if (this != &o) {
        sqlite3_finalize(m_stmt);
        m_stmt = o.m_stmt;
        o.m_stmt = nullptr;
    }
    return *this;
}

Statement::~Statement() { sqlite3_finalize(m_stmt); }

bool Statement::step() {
    int rc = sqlite3_step(m_stmt);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    throw std::runtime_error(errorText(sqlite3_db_handle(m_stmt)));
}

void Statement::reset() {
    sqlite3_reset(m_stmt);
    sqlite3_clear_bindings(m_stmt);
}

std::string Statement::columnText(int i) const {
    const unsigned char* p = sqlite3_column_text(m_stmt, i);
    if (!p) return {};
    return std::string(reinterpret_cast<const char*>(p), static_cast<size_t>(sqlite3_column_bytes(m_stmt, i)));
}

void Statement::bind(int i, std::int64_t v) { sqlite3_bind_int64(m_stmt, i, v); }
void Statement::bind(int i, std::string_view v) {
    sqlite3_bind_text64(m_stmt, i, v.data(), v.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
}
void Statement::bindNull(int i) { sqlite3_bind_null(m_stmt, i); }

std::string errorText(sqlite3* db) {
    std::string msg = sqlite3_errmsg(db);
    // The operating system's reason says which I/O problem it was ("No space left on device",
    // "File too large", "Permission denied"); SQLite alone often says only "disk I/O error".
    if (int e = sqlite3_system_errno(db)) {
        msg += " (";
        msg += std::strerror(e);
        msg += ')';
    }
    return msg;
}

void execSql(sqlite3* db, const std::string& sql) {
    char* err = nullptr;
    if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
        sqlite3_free(err);
        throw std::runtime_error(errorText(db));
    }
}

}  // namespace cs::trace
