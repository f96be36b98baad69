// The trace schema, declared once.
//
// Why: the writer creates tables from this declaration, the reader checks untrusted files against it
// (allow-list of tables, indexes and columns), `compilescope info` counts rows per fact family from
// it, and a test checks that docs/trace-format.md documents every table. Nothing else spells out
// table or column names for creation or validation. Numeric codes stored in the tables are the C
// enums of collectors/native/include/compilescope/trace_constants.h.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cs::trace {

// Format version this build writes and the newest it reads.
int formatVersion();
// PRAGMA application_id of a trace ("CSTR").
int applicationId();

struct ColumnDef {
    std::string_view name;
    std::string_view type;  // SQLite STRICT type: INTEGER, REAL, TEXT, BLOB, ANY
    std::string_view constraint;  // e.g. "PRIMARY KEY", "NOT NULL", ""
    std::string_view doc;   // unit and meaning, for humans
};

struct TableDef {
    std::string_view name;
    std::string_view family;  // fact family, a "Family:" section of docs/trace-format.md, e.g. "cache lookups"
    std::string_view doc;
    std::vector<ColumnDef> columns;
};

struct IndexDef {
    std::string_view name;
    std::string_view table;
    std::string_view columns;  // comma separated
};

// Every table of format v1, in creation order.
const std::vector<TableDef>& schemaTables();
// Indexes of every trace (created with the tables; the writer maintains them as rows arrive).
const std::vector<IndexDef>& schemaIndexes();
const TableDef* findTable(std::string_view name);

// CREATE TABLE statement of one table.
std::string createTableSql(const TableDef& table);
// INSERT statement with one `?` per column, in declaration order, for `rows` rows at once.
std::string insertSql(const TableDef& table, int rows = 1);

// Rows of the `enums` table: (type, value, name).
struct EnumRow {
    std::string_view type;
    int value;
    std::string_view name;
};
std::span<const EnumRow> enumRows();
// Name of an enum value, or "?" when unknown.
std::string_view enumName(std::string_view type, int value);

}  // namespace cs::trace
