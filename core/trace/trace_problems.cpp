#include "core/trace/trace_problems.h"

#include "core/trace/reader.h"
#include "core/trace/row.h"
#include "core/trace/schema.h"
#include "core/trace/trace_error.h"

#include <sqlite3.h>

namespace cs::trace {

namespace {
// "sessions.id ..." -> "sessions": a column the schema documents as a reference to another table.
std::string referencedTable(const ColumnDef& c) {
    const std::string_view doc = c.doc;
    const auto dot = doc.find(".id");
    if (dot == std::string_view::npos) return {};
    std::string_view table = doc.substr(0, dot);
    return findTable(table) ? std::string(table) : std::string();
}

bool isDuration(const ColumnDef& c) { return c.name == "dur_ns" || c.name == "compile_ns"; }

struct Check {
    std::string kind, column, condition;
};
}  // namespace

std::string TraceProblem::describe() const {
    std::string what = kind == "dangling_reference"   ? table + "." + column + " names a row that does not exist"
                       : kind == "negative_duration" ? table + "." + column + " is negative"
                       : kind == "end_before_start"  ? table + " ends before it starts"
                                                     : kind + " in " + table + "." + column;
    return std::to_string(count) + " row(s): " + what + " (first: rowid " + std::to_string(firstRowId) +
           "); those rows are left out of the analysis";
}

std::vector<TraceProblem> checkTraceProblems(const TraceReader& reader) {
    std::vector<TraceProblem> out;
    for (const TableDef& t : schemaTables()) {
        std::vector<Check> checks;
        std::string notNull;
        for (const ColumnDef& c : t.columns) {
            const std::string col(c.name);
            if (c.constraint == "NOT NULL") notNull += (notNull.empty() ? "" : " OR ") + col + " IS NULL";
            if (auto ref = referencedTable(c); !ref.empty())
                checks.push_back({"dangling_reference", col,
                                  col + " IS NOT NULL AND " + col + " NOT IN (SELECT id FROM " + ref + ")"});
            if (isDuration(c)) checks.push_back({"negative_duration", col, col + " < 0"});
        }
        if (t.name == "sessions") checks.push_back({"end_before_start", "end_ns", "end_ns < start_ns"});
        if (notNull.empty() && checks.empty()) continue;
        // One scan: per check its count; first the first row with a forbidden NULL. The first rowid of
        // a check that found rows comes from a second query, run only then: a damaged trace is rare, and
        // a condition with a subquery evaluated twice per row cost a third of this function.
        std::string sql = "SELECT " + (notNull.empty() ? std::string("NULL") : "min(rowid) FILTER (WHERE " + notNull + ")");
        for (const Check& c : checks) sql += ", count(*) FILTER (WHERE " + c.condition + ")";
        sql += " FROM " + std::string(t.name);
        const size_t found = out.size();
        reader.query(sql, [&](const Row& st) {
            if (auto row = colOpt(st, 0)) {
                // Name the column: a second, narrow query on the one bad row.
                std::string column = "?";
                for (const ColumnDef& c : t.columns) {
                    if (c.constraint != "NOT NULL" || column != "?") continue;
                    reader.query("SELECT " + std::string(c.name) + " IS NULL FROM " + std::string(t.name) +
                                     " WHERE rowid = " + std::to_string(*row),
                                 [&](const Row& q) {
                                     if (colInt(q, 0)) column = c.name;
                                 });
                }
                throw TraceError(TraceErrorKind::Corrupt, reader.path(),
                                 "table \"" + std::string(t.name) + "\", column \"" + column + "\" is NULL in rowid " +
                                     std::to_string(*row) +
                                     ", but the trace format says NOT NULL: the trace was damaged or written by "
                                     "another program");
            }
            for (size_t i = 0; i < checks.size(); ++i)
                if (std::int64_t n = colInt(st, 1 + static_cast<int>(i)))
                    out.push_back({checks[i].kind, std::string(t.name), checks[i].column, n, 0});
        });
        for (size_t i = found; i < out.size(); ++i)
            for (const Check& c : checks)
                if (c.kind == out[i].kind && c.column == out[i].column)
                    reader.query("SELECT min(rowid) FROM " + std::string(t.name) + " WHERE " + c.condition,
                                 [&](const Row& q) { out[i].firstRowId = colInt(q, 0); });
    }
    return out;
}

}  // namespace cs::trace
