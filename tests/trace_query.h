// One-value SQL queries against a trace, for assertions.
#pragma once

#include "core/trace/reader.h"

#include <sqlite3.h>

#include <cstdint>
#include <string>

namespace cs::test {

// The first column of the last row, or -1 when the query returns no row.
inline std::int64_t scalar(const cs::trace::TraceReader& r, const std::string& sql) {
    std::int64_t v = -1;
    r.query(sql, [&](sqlite3_stmt* st) { v = sqlite3_column_int64(st, 0); });
    return v;
}

// The first column of the last row as text, or "" when there is none.
inline std::string text(const cs::trace::TraceReader& r, const std::string& sql) {
    std::string v;
    r.query(sql, [&](sqlite3_stmt* st) {
        if (auto* t = sqlite3_column_text(st, 0)) v = reinterpret_cast<const char*>(t);
    });
    return v;
}

}  // namespace cs::test
