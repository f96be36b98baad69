// `compilescope sql TRACE "SELECT ..."`: read-only SQL over a trace, printed as a table.
#include "command.h"
#include "table_printer.h"

#include "core/trace/reader.h"

#include <sqlite3.h>

#include <cstdio>

namespace cs::cli {

namespace {
std::string cellText(sqlite3_stmt* st, int i) {
    switch (sqlite3_column_type(st, i)) {
    case SQLITE_NULL:
        return "NULL";
    case SQLITE_BLOB: {
        auto* p = static_cast<const unsigned char*>(sqlite3_column_blob(st, i));
        int n = sqlite3_column_bytes(st, i);
        std::string s = "x'";
        for (int k = 0; k < n && k < 16; ++k) {
            char b[4];
            std::snprintf(b, sizeof b, "%02x", p[k]);
            s += b;
        }
        return s + (n > 16 ? "...'" : "'");
    }
    default:
        return reinterpret_cast<const char*>(sqlite3_column_text(st, i));
    }
}

int runSql(const std::vector<std::string>& args, CommandIo& io) {
    if (args.size() != 2) return usageError(io, "sql", "expected TRACE and one SQL statement");
    auto reader = trace::TraceReader::open(args[0]);
    reader->restrictToUserQueries();
    std::unique_ptr<TablePrinter> table;
    reader->query(args[1], [&](sqlite3_stmt* st) {
        int n = sqlite3_column_count(st);
        if (!table) {
            std::vector<std::string> header;
            for (int i = 0; i < n; ++i) header.emplace_back(sqlite3_column_name(st, i));
            table = std::make_unique<TablePrinter>(header);
        }
        std::vector<std::string> row;
        for (int i = 0; i < n; ++i) row.push_back(cellText(st, i));
        table->addRow(std::move(row));
    });
    if (table) {
        table->print(io.out, 200);
        io.out << "(" << table->rowCount() << (table->rowCount() == 1 ? " row)\n" : " rows)\n");
    } else {
        io.out << "(0 rows)\n";
    }
    return Exit::Ok;
}
}  // namespace

Command sqlCommand() {
    return {"sql", "run a read-only SQL query over a trace",
            "Usage: compilescope sql TRACE \"SELECT ...\"\n\n"
            "Runs one read-only statement (SELECT, or a read-only PRAGMA) and prints the result as a\n"
            "table. Writes, ATTACH and extension loading are refused. The schema is documented in\n"
            "docs/trace-format.md; strings are interned, so join on strings.id, e.g.\n"
            "  compilescope sql t.cstrace \"SELECT s.str, count(*) FROM module_loads m\n"
            "      JOIN strings s ON s.id = m.name_sid GROUP BY 1\"\n",
            runSql};
}

}  // namespace cs::cli
