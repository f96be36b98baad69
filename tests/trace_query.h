// One-value SQL queries against an open trace, for tests that check imported rows.
#pragma once

#include "core/trace/reader.h"

#include <cstdint>
#include <string>

namespace cs::test {

// The first column of the first row as an integer; -1 when there is no row.
inline std::int64_t scalar(const cs::trace::TraceReader& r, const std::string& sql) {
    std::int64_t v = -1;
    r.query(sql, [&](const cs::trace::Row& st) { v = st.integer(0); });
    return v;
}

// The first column of the first row as text; "<none>" without a row, "<null>" for NULL.
inline std::string textOf(const cs::trace::TraceReader& r, const std::string& sql) {
    std::string v = "<none>";
    r.query(sql, [&](const cs::trace::Row& st) {
        v = st.isNull(0) ? "<null>" : st.text(0);
    });
    return v;
}

// As textOf, but "" when there is no row or the value is NULL.
inline std::string text(const cs::trace::TraceReader& r, const std::string& sql) {
    std::string v = textOf(r, sql);
    return v == "<none>" || v == "<null>" ? std::string() : v;
}

}  // namespace cs::test
