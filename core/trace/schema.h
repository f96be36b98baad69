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

// Every fact table, in creation order (v1 and later).
const std::vector<TableDef>& schemaTables();

// A table that summarises fact tables (format v2: `span_pyramid`, pyramid.h). The writer derives its
// rows from the rows it stores and keeps them current; it is never copied between traces, exported
// or counted as facts, which is why it is not among schemaTables(). A trace older than
// `sinceVersion` lacks it (the reader accepts that; pyramid_migrate.h adds it).
struct DerivedTableDef {
    TableDef table;
    int sinceVersion;
    std::string_view primaryKey;  // columns of its PRIMARY KEY; the table is WITHOUT ROWID
};
const std::vector<DerivedTableDef>& derivedTables();
const DerivedTableDef* findDerivedTable(std::string_view name);
// Indexes of every trace (created with the tables; the writer maintains them as rows arrive).
const std::vector<IndexDef>& schemaIndexes();
const TableDef* findTable(std::string_view name);

// CREATE TABLE statement of one table.
std::string createTableSql(const TableDef& table);
std::string createTableSql(const DerivedTableDef& table);
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
