// `compilescope sql TRACE "SELECT ..." [--format table|csv|json]`: read-only SQL over a trace.
// The table is for reading (cells cut at 200 characters); CSV and JSON are for tools and keep every
// value whole (template names of 3,000 characters, blobs in full hex), streamed row by row.
#include "command.h"
#include "table_printer.h"

#include "core/trace/reader.h"
#include "core/util/json_writer.h"

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

std::string hexBlob(sqlite3_stmt* st, int i) {
    auto* p = static_cast<const unsigned char*>(sqlite3_column_blob(st, i));
    int n = sqlite3_column_bytes(st, i);
    std::string s;
    s.reserve(static_cast<size_t>(n) * 2);
    for (int k = 0; k < n; ++k) {
        char b[4];
        std::snprintf(b, sizeof b, "%02x", p[k]);
        s += b;
    }
    return s;
}

std::string_view text(sqlite3_stmt* st, int i) {
    auto* p = reinterpret_cast<const char*>(sqlite3_column_text(st, i));
    return p ? std::string_view(p, static_cast<size_t>(sqlite3_column_bytes(st, i))) : std::string_view();
}

// RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled. NULL is empty.
void csvField(std::ostream& out, std::string_view v) {
    if (v.find_first_of(",\"\r\n") == std::string_view::npos) {
        out << v;
        return;
    }
    out << '"';
    for (char c : v) {
        if (c == '"') out << '"';
        out << c;
    }
    out << '"';
}

void csvRow(std::ostream& out, sqlite3_stmt* st, bool header) {
    int n = sqlite3_column_count(st);
    for (int i = 0; i < n; ++i) {
        if (i) out << ',';
        if (header) csvField(out, sqlite3_column_name(st, i));
        else if (sqlite3_column_type(st, i) == SQLITE_BLOB) csvField(out, hexBlob(st, i));
        else if (sqlite3_column_type(st, i) != SQLITE_NULL) csvField(out, text(st, i));
    }
    out << "\r\n";
}

// One object per row, typed: integers and reals as numbers, text as strings, blobs as hex strings.
void jsonRow(util::JsonWriter& w, sqlite3_stmt* st) {
    w.beginObject();
    for (int i = 0, n = sqlite3_column_count(st); i < n; ++i) {
        w.key(sqlite3_column_name(st, i));
        switch (sqlite3_column_type(st, i)) {
        case SQLITE_NULL: w.null(); break;
        case SQLITE_INTEGER: w.value(static_cast<std::int64_t>(sqlite3_column_int64(st, i))); break;
        case SQLITE_FLOAT: w.value(sqlite3_column_double(st, i)); break;
        case SQLITE_BLOB: w.value(hexBlob(st, i)); break;
        default: w.value(text(st, i)); break;
        }
    }
    w.endObject();
}

int runSql(const std::vector<std::string>& args, CommandIo& io) {
    std::string format = "table";
    std::vector<std::string> positional;
    for (size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--format") {
            if (++i >= args.size()) return usageError(io, "sql", "--format needs table, csv or json");
            format = args[i];
            if (format != "table" && format != "csv" && format != "json")
                return usageError(io, "sql", "unknown format \"" + format + "\" (table, csv or json)");
        } else {
            positional.push_back(args[i]);
        }
    }
    if (positional.size() != 2) return usageError(io, "sql", "expected TRACE and one SQL statement");
    auto reader = trace::TraceReader::open(positional[0]);
    reader->restrictToUserQueries();
    if (format == "csv") {
        bool first = true;
        reader->query(positional[1], [&](sqlite3_stmt* st) {
            if (first) csvRow(io.out, st, true);
            first = false;
            csvRow(io.out, st, false);
        });
        return Exit::Ok;
    }
    if (format == "json") {
        util::JsonWriter w(io.out, false);
        w.beginArray();
        reader->query(positional[1], [&](sqlite3_stmt* st) { jsonRow(w, st); });
        w.endArray();
        io.out << "\n";
        return Exit::Ok;
    }
    std::unique_ptr<TablePrinter> table;
    reader->query(positional[1], [&](sqlite3_stmt* st) {
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
            "Usage: compilescope sql TRACE \"SELECT ...\" [--format table|csv|json]\n\n"
            "Runs one read-only statement (SELECT, or a read-only PRAGMA) and prints the result as a\n"
            "table (cells cut at 200 characters), as CSV (RFC 4180, a header row, NULL empty) or as a\n"
            "JSON array of one object per row; CSV and JSON keep every value whole and blobs as hex.\n"
            "Writes, ATTACH and extension loading are refused. The schema is documented in\n"
            "docs/trace-format.md; strings are interned, so join on strings.id, e.g.\n"
            "  compilescope sql t.cstrace \"SELECT s.str, count(*) FROM module_loads m\n"
            "      JOIN strings s ON s.id = m.name_sid GROUP BY 1\"\n",
            runSql};
}

}  // namespace cs::cli
