// `compilescope sql TRACE "SELECT ..." [--format table|csv|json]`: read-only SQL over a trace.
// The table is for reading (cells cut at 200 characters); CSV and JSON are for tools and keep every
// value whole (template names of 3,000 characters, blobs in full hex), streamed row by row.
#include "command.h"
#include "table_printer.h"

#include "core/trace/reader.h"
#include "core/util/json_writer.h"

#include <algorithm>
#include <cstdio>

namespace cs::cli {

namespace {
std::string hexBlob(std::string_view bytes, std::size_t limit) {
    std::string s;
    s.reserve(std::min(bytes.size(), limit) * 2);
    for (std::size_t k = 0; k < bytes.size() && k < limit; ++k) {
        char b[4];
        std::snprintf(b, sizeof b, "%02x", static_cast<unsigned char>(bytes[k]));
        s += b;
    }
    return s;
}

std::string hexBlob(const trace::Row& st, int i) { return hexBlob(st.blob(i), std::string_view::npos); }

std::string cellText(const trace::Row& st, int i) {
    switch (st.type(i)) {
    case trace::ColumnType::Null: return "NULL";
    case trace::ColumnType::Blob: {
        const std::string_view bytes = st.blob(i);
        return "x'" + hexBlob(bytes, 16) + (bytes.size() > 16 ? "...'" : "'");
    }
    default: {
        // Up to the first NUL, as a terminal shows it.
        const std::string_view t = st.textView(i);
        return std::string(t.data() ? t.data() : "");
    }
    }
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

void csvRow(std::ostream& out, const trace::Row& st, bool header) {
    int n = st.columnCount();
    for (int i = 0; i < n; ++i) {
        if (i) out << ',';
        if (header) csvField(out, st.columnName(i));
        else if (st.type(i) == trace::ColumnType::Blob) csvField(out, hexBlob(st, i));
        else if (!st.isNull(i)) csvField(out, st.textView(i));
    }
    out << "\r\n";
}

// One object per row, typed: integers and reals as numbers, text as strings, blobs as hex strings.
void jsonRow(util::JsonWriter& w, const trace::Row& st) {
    w.beginObject();
    for (int i = 0, n = st.columnCount(); i < n; ++i) {
        w.key(st.columnName(i));
        switch (st.type(i)) {
        case trace::ColumnType::Null: w.null(); break;
        case trace::ColumnType::Integer: w.value(st.integer(i)); break;
        case trace::ColumnType::Real: w.value(st.real(i)); break;
        case trace::ColumnType::Blob: w.value(hexBlob(st, i)); break;
        case trace::ColumnType::Text: w.value(st.textView(i)); break;
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
        reader->query(positional[1], [&](const trace::Row& st) {
            if (first) csvRow(io.out, st, true);
            first = false;
            csvRow(io.out, st, false);
        });
        return Exit::Ok;
    }
    if (format == "json") {
        util::JsonWriter w(io.out, false);
        w.beginArray();
        reader->query(positional[1], [&](const trace::Row& st) { jsonRow(w, st); });
        w.endArray();
        io.out << "\n";
        return Exit::Ok;
    }
    std::unique_ptr<TablePrinter> table;
    reader->query(positional[1], [&](const trace::Row& st) {
        int n = st.columnCount();
        if (!table) {
            std::vector<std::string> header;
            for (int i = 0; i < n; ++i) header.emplace_back(st.columnName(i));
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
