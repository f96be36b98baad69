#include "core/trace/row.h"

#include "core/trace/reader.h"

#include <sqlite3.h>

namespace cs::trace {

int Row::columnCount() const { return sqlite3_column_count(m_st); }

std::string_view Row::columnName(int i) const {
    const char* name = sqlite3_column_name(m_st, i);
    return name ? std::string_view(name) : std::string_view();
}

ColumnType Row::type(int i) const {
    switch (sqlite3_column_type(m_st, i)) {
    case SQLITE_INTEGER: return ColumnType::Integer;
    case SQLITE_FLOAT: return ColumnType::Real;
    case SQLITE_TEXT: return ColumnType::Text;
    case SQLITE_BLOB: return ColumnType::Blob;
    default: return ColumnType::Null;
    }
}

std::int64_t Row::integer(int i) const { return sqlite3_column_int64(m_st, i); }

double Row::real(int i) const { return sqlite3_column_double(m_st, i); }

std::string Row::text(int i) const { return std::string(textView(i)); }

std::string_view Row::textView(int i) const {
    const unsigned char* p = sqlite3_column_text(m_st, i);
    if (!p) return {};
    return {reinterpret_cast<const char*>(p), static_cast<std::size_t>(sqlite3_column_bytes(m_st, i))};
}

std::string_view Row::blob(int i) const {
    const void* p = sqlite3_column_blob(m_st, i);
    if (!p) return {};
    return {static_cast<const char*>(p), static_cast<std::size_t>(sqlite3_column_bytes(m_st, i))};
}

std::optional<std::int64_t> Row::optInteger(int i) const {
    if (sqlite3_column_type(m_st, i) == SQLITE_NULL) return std::nullopt;
    return sqlite3_column_int64(m_st, i);
}

std::optional<std::int64_t> Row::duration(int i) const {
    if (sqlite3_column_type(m_st, i) == SQLITE_NULL) return std::nullopt;
    const std::int64_t v = sqlite3_column_int64(m_st, i);
    if (v < 0) return std::nullopt;
    return v;
}

Query::Query(const TraceReader& reader, std::string_view sql) : m_reader(&reader), m_sql(sql) {
    if (sqlite3_prepare_v3(reader.db(), m_sql.data(), static_cast<int>(m_sql.size()), SQLITE_PREPARE_PERSISTENT, &m_st,
                           nullptr) != SQLITE_OK) {
        sqlite3_finalize(m_st);
        m_st = nullptr;
        reader.failQuery(m_sql, sqlite3_errmsg(reader.db()));
    }
    m_row = Row(m_st);
}

Query::~Query() { sqlite3_finalize(m_st); }

Query::Query(Query&& o) noexcept : m_reader(o.m_reader), m_sql(std::move(o.m_sql)), m_st(o.m_st), m_row(o.m_st) {
    o.m_st = nullptr;
    o.m_row = Row();
}

void Query::bind(int i, std::int64_t v) { sqlite3_bind_int64(m_st, i, v); }

void Query::bind(int i, std::string_view v) { sqlite3_bind_text64(m_st, i, v.data(), v.size(), SQLITE_TRANSIENT, SQLITE_UTF8); }

void Query::bindNull(int i) { sqlite3_bind_null(m_st, i); }

bool Query::step() {
    const int rc = sqlite3_step(m_st);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    m_reader->failQuery(m_sql, sqlite3_errmsg(m_reader->db()));
}

void Query::reset() {
    sqlite3_reset(m_st);
    sqlite3_clear_bindings(m_st);
}

}  // namespace cs::trace
