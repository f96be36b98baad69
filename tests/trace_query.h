// One-value SQL queries against an open trace, for tests that check imported rows.
#pragma once

#include "core/trace/reader.h"

#include <sqlite3.h>

#include <cstdint>
#include <string>

namespace cs::test {

// The first column of the first row as an integer; -1 when there is no row.
inline std::int64_t scalar(const cs::trace::TraceReader& r, const std::string& sql) {
    std::int64_t v = -1;
    r.query(sql, [&](sqlite3_stmt* st) { v = sqlite3_column_int64(st, 0); });
    return v;
}

// The first column of the first row as text; "<none>" without a row, "<null>" for NULL.
inline std::string textOf(const cs::trace::TraceReader& r, const std::string& sql) {
    std::string v = "<none>";
    r.query(sql, [&](sqlite3_stmt* st) {
        auto p = sqlite3_column_text(st, 0);
        v = p ? reinterpret_cast<const char*>(p) : "<null>";
    });
    return v;
}

}  // namespace cs::test
