// The typed row accessor: NULL-aware column reads for every query of the trace layer and the
// engine's loaders, so no file keeps its own copy of sqlite3_column_* casts.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <optional>
#include <string>

namespace cs::trace {

inline std::int64_t colInt(sqlite3_stmt* st, int i) { return sqlite3_column_int64(st, i); }

inline std::optional<std::int64_t> colOpt(sqlite3_stmt* st, int i) {
    if (sqlite3_column_type(st, i) == SQLITE_NULL) return std::nullopt;
    return sqlite3_column_int64(st, i);
}

// A duration column: NULL ("never ended", "not recorded") and a negative value (a damaged or hostile
// row, counted as a trace problem by trace_problems.h) both read as "no duration".
inline std::optional<std::int64_t> colDuration(sqlite3_stmt* st, int i) {
    if (sqlite3_column_type(st, i) == SQLITE_NULL) return std::nullopt;
    const std::int64_t v = sqlite3_column_int64(st, i);
    if (v < 0) return std::nullopt;
    return v;
}

inline std::string colText(sqlite3_stmt* st, int i) {
    const unsigned char* p = sqlite3_column_text(st, i);
    if (!p) return {};
    return std::string(reinterpret_cast<const char*>(p), static_cast<size_t>(sqlite3_column_bytes(st, i)));
}

}  // namespace cs::trace
