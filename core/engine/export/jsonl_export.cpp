#include "core/engine/export/jsonl_export.h"

#include "core/trace/reader.h"
#include "core/trace/schema.h"
#include "core/util/json_writer.h"
#include "core/util/md5.h"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <system_error>

namespace cs::engine {

namespace {

constexpr std::string_view kTracesTable = "traces";

// One stored value as its SQLite storage class says, not as the column declares: a file from
// elsewhere may hold anything in a column of type ANY (span_args.value), and a lossless copy is what
// a reader can cast. A BLOB, which no writer of ours stores, becomes its bytes in hexadecimal.
void writeValue(util::JsonWriter& json, const trace::Row& st, int col) {
    switch (st.type(col)) {
    case trace::ColumnType::Integer: json.value(st.integer(col)); break;
    case trace::ColumnType::Real: json.value(st.real(col)); break;
    case trace::ColumnType::Text: json.value(st.textView(col)); break;
    case trace::ColumnType::Blob: {
        static constexpr char kHex[] = "0123456789abcdef";
        const std::string_view bytes = st.blob(col);
        std::string hex;
        hex.reserve(bytes.size() * 2);
        for (const char ch : bytes) {
            const auto b = static_cast<unsigned char>(ch);
            hex += kHex[b >> 4];
            hex += kHex[b & 15];
        }
        json.value(hex);
        break;
    }
    case trace::ColumnType::Null: json.null(); break;
    }
}

std::optional<std::int64_t> parseInt(std::string_view s) {
    std::int64_t v = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return std::nullopt;
    return v;
}

std::int64_t writeTracesRow(const trace::TraceReader& reader, const std::string& id, std::ostream& out) {
    util::JsonWriter json(out);
    json.beginObject().key("trace_id").value(id);
    json.key("created_unix_ns");
    if (auto created = parseInt(reader.meta("created_unix_ns"))) json.value(*created);
    else json.null();
    json.key("creator").value(reader.meta("creator"));
    json.key("format_version").value(reader.formatVersion());
    json.key("file").value(std::filesystem::path(reader.path()).filename().string());
    json.endObject();
    out << '\n';
    return 1;
}

// The files written so far, removed unless release() is reached: a failed export leaves no .tmp.
struct TempFiles {
    std::vector<std::filesystem::path> paths;
    ~TempFiles() {
        std::error_code ec;
        for (const auto& p : paths) std::filesystem::remove(p, ec);
    }
};

[[noreturn]] void cannotWrite(const std::filesystem::path& path, const std::string& why) {
    throw std::runtime_error("cannot write " + path.string() + ": " + why);
}

}  // namespace

std::string traceId(const trace::TraceReader& reader) {
    if (std::string stored = reader.meta("trace_id"); !stored.empty()) return stored;
    util::Md5 md5;
    reader.query("SELECT key, value FROM meta ORDER BY key", [&](const trace::Row& st) {
        // NUL-separated, so ("ab", "c") and ("a", "bc") hash differently.
        md5.update(st.textView(0));
        md5.update(std::string_view("\0", 1));
        md5.update(st.textView(1));
        md5.update(std::string_view("\0", 1));
    });
    return md5.hexDigest();
}

std::int64_t writeJsonlTable(const trace::TraceReader& reader, std::string_view table, const std::string& id,
                             std::ostream& out) {
    if (table == kTracesTable) return writeTracesRow(reader, id, out);
    const trace::TableDef* def = trace::findTable(table);
    if (!def) throw std::invalid_argument("no table " + std::string(table) + " in the trace schema");
    // Names from the schema declaration only (the reader refused a file with other tables).
    std::string sql = "SELECT ";
    for (size_t i = 0; i < def->columns.size(); ++i) {
        if (i) sql += ", ";
        sql += def->columns[i].name;
    }
    sql += " FROM ";
    sql += def->name;
    std::int64_t rows = 0;
    reader.query(sql, [&](const trace::Row& st) {
        util::JsonWriter json(out);
        json.beginObject().key("trace_id").value(id);
        for (size_t i = 0; i < def->columns.size(); ++i) {
            json.key(def->columns[i].name);
            writeValue(json, st, static_cast<int>(i));
        }
        json.endObject();
        out << '\n';
        ++rows;
    });
    return rows;
}

std::vector<JsonlTableCount> exportJsonl(const trace::TraceReader& reader, const std::filesystem::path& dir) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) cannotWrite(dir, ec.message());
    if (!std::filesystem::is_directory(dir, ec)) cannotWrite(dir, "not a directory");

    std::vector<std::string_view> tables{kTracesTable};
    for (const auto& t : trace::schemaTables()) tables.push_back(t.name);
    const std::string id = traceId(reader);
    std::vector<JsonlTableCount> counts;
    TempFiles temps;
    for (std::string_view table : tables) {
        const std::filesystem::path target = dir / (std::string(table) + ".jsonl");
        std::filesystem::path tmp = target;
        tmp += ".tmp";
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out) cannotWrite(target, std::strerror(errno));
        temps.paths.push_back(tmp);
        counts.push_back({std::string(table), writeJsonlTable(reader, table, id, out)});
        out.close();
        if (!out) cannotWrite(target, std::strerror(errno));
    }
    // Every file is complete: only now replace the previous export's.
    for (const auto& tmp : temps.paths) {
        std::filesystem::path target = tmp;
        target.replace_extension();  // drops ".tmp"
        std::filesystem::rename(tmp, target, ec);
        if (ec) cannotWrite(target, ec.message());
    }
    temps.paths.clear();
    return counts;
}

}  // namespace cs::engine
