// The typed row accessor: what a query of the trace hands to the layers above it.
//
// Why: SQLite is the trace layer's storage, not the engine's vocabulary. Only core/trace includes
// sqlite3.h (cmake/CheckLayers.cmake refuses it elsewhere, docs/architecture.md "Layers"); the
// engine, the importers and the applications read result rows through `Row` (one row of
// TraceReader::query, or the current row of a `Query`), and never receive a `sqlite3_stmt*`. Every
// read is NULL-aware, so no file keeps its own copy of column casts.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

struct sqlite3_stmt;

namespace cs::trace {

class TraceReader;

// The storage class of one value in a row (SQLite's five).
enum class ColumnType { Integer, Real, Text, Blob, Null };

// One result row. Valid only while the callback that received it runs (or until the Query steps).
class Row {
public:
    explicit Row(sqlite3_stmt* st = nullptr) : m_st(st) {}

    int columnCount() const;
    std::string_view columnName(int i) const;
    ColumnType type(int i) const;
    bool isNull(int i) const { return type(i) == ColumnType::Null; }

    std::int64_t integer(int i) const;  // 0 for NULL
    double real(int i) const;           // 0.0 for NULL
    std::string text(int i) const;      // "" for NULL
    // The text without a copy; valid until the next read of the same column or the next row.
    std::string_view textView(int i) const;
    // The bytes of a blob (or of any value, as SQLite converts it); empty for NULL.
    std::string_view blob(int i) const;
    // NULL reads as "absent".
    std::optional<std::int64_t> optInteger(int i) const;
    // A duration column: NULL ("never ended", "not recorded") and a negative value (a damaged or
    // hostile row, counted as a trace problem by trace_problems.h) both read as "no duration".
    std::optional<std::int64_t> duration(int i) const;

private:
    sqlite3_stmt* m_st;
};

// The short names the loaders use.
inline std::int64_t colInt(const Row& r, int i) { return r.integer(i); }
inline std::optional<std::int64_t> colOpt(const Row& r, int i) { return r.optInteger(i); }
inline std::optional<std::int64_t> colDuration(const Row& r, int i) { return r.duration(i); }
inline std::string colText(const Row& r, int i) { return r.text(i); }

// A prepared statement over an open trace, for a query run many times with different bindings (a
// range scan in chunks, a lookup per row). Errors are TraceError(Query), or TraceError(Corrupt) when
// SQLite reports corruption, naming the file as TraceReader::query does.
class Query {
public:
    Query(const TraceReader& reader, std::string_view sql);
    ~Query();
    Query(Query&& o) noexcept;
    Query& operator=(Query&&) = delete;
    Query(const Query&) = delete;
    Query& operator=(const Query&) = delete;

    void bind(int i, std::int64_t v);
    void bind(int i, std::string_view v);
    void bindNull(int i);
    // Steps once; true while a row is available (read it with row()).
    bool step();
    // Back to before the first row, bindings cleared.
    void reset();
    const Row& row() const { return m_row; }

private:
    const TraceReader* m_reader;
    std::string m_sql;
    sqlite3_stmt* m_st = nullptr;
    Row m_row;
};

}  // namespace cs::trace
