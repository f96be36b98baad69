#include "core/engine/analysis/row_details.h"

#include "core/engine/timeline/timeline_data.h"
#include "core/trace/reader.h"
#include "core/trace/row.h"
#include "core/trace/schema.h"
#include "core/trace/trace_error.h"
#include "core/util/units.h"


namespace cs::engine {

namespace {
bool endsWith(std::string_view s, std::string_view tail) {
    return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

std::string cellText(const trace::Row& st, int i) {
    switch (st.type(i)) {
    case trace::ColumnType::Null: return "(none)";
    case trace::ColumnType::Integer: return std::to_string(st.integer(i));
    case trace::ColumnType::Real: return std::to_string(st.real(i));
    default: return trace::colText(st, i);
    }
}

std::string humanKey(std::string key) {
    for (char& c : key)
        if (c == '_') c = ' ';
    return key;
}

bool isTimestamp(std::string_view name) { return name == "start_ns" || name == "ts_ns" || name == "end_ns"; }

// A column as a user reads it (RowDetails::words); false when it says nothing to them.
bool wordsOf(const trace::TraceReader& reader, const trace::ColumnDef& c, const trace::Row& st, int col, DetailField& out) {
    if (st.isNull(col) || isTimestamp(c.name) || c.name == "track_id") return false;
    const std::int64_t v = trace::colInt(st, col);
    if (c.name == "session_id") {
        out = {"process", sessionLabel(reader, v)};
    } else if (endsWith(c.name, "_id") || c.name == "ordinal") {
        return false;
    } else if (endsWith(c.name, "_sid")) {
        out = {humanKey(std::string(c.name.substr(0, c.name.size() - 4))), reader.str(v)};
        if (out.value.empty()) return false;
    } else if (c.doc.substr(0, 5) == "enum ") {
        std::string_view type = c.doc.substr(5);
        out = {humanKey(std::string(c.name)), std::string(trace::enumName(type.substr(0, type.find_first_of(" :;,")), static_cast<int>(v)))};
    } else if (endsWith(c.name, "_ns")) {
        const std::string_view stem = c.name.substr(0, c.name.size() - 3);
        out = {stem == "dur" ? std::string("duration") : humanKey(std::string(stem)) + " time", util::formatDuration(v)};
    } else if (endsWith(c.name, "_bytes")) {
        out = {humanKey(std::string(c.name.substr(0, c.name.size() - 6))) + " size", util::formatBytes(v)};
    } else {
        out = {humanKey(std::string(c.name)), cellText(st, col)};
    }
    return true;
}

// Children of a row: (table, query, how each child row becomes a field).
struct Child {
    std::string_view parent;
    const char* sql;  // one parameter: the parent's id; columns: key, value
};
constexpr Child kChildren[] = {
    {"spans", "SELECT 'arg ' || k.str, a.value FROM span_args a JOIN strings k ON k.id = a.key_sid WHERE a.span_id = ?1 ORDER BY a.rowid"},
    {"module_loads", "SELECT 'option ' || k.str, coalesce(v.str, '(none)') FROM module_options o JOIN strings k ON k.id = o.key_sid "
                     "LEFT JOIN strings v ON v.id = o.value_sid WHERE o.load_id = ?1 ORDER BY o.rowid"},
    {"module_loads", "SELECT 'kernel ' || k.str, coalesce(d.str, '') || coalesce(' generic ' || g.str, '') FROM module_kernels m "
                     "JOIN strings k ON k.id = m.kernel_sid LEFT JOIN strings d ON d.id = m.digest_sid "
                     "LEFT JOIN strings g ON g.id = m.generic_sid WHERE m.load_id = ?1 ORDER BY m.rowid"},
    {"cuda_programs", "SELECT 'option ' || (o.ordinal + 1), s.str FROM cuda_program_options o JOIN strings s ON s.id = o.option_sid "
                      "WHERE o.program_id = ?1 ORDER BY o.ordinal"},
    {"cuda_programs", "SELECT 'input ' || (i.ordinal + 1), trim(coalesce(k.str, '') || ' ' || coalesce(n.str, '') || "
                      "coalesce(', ' || i.bytes || ' bytes', '')) FROM cuda_program_inputs i LEFT JOIN strings k ON k.id = i.kind_sid "
                      "LEFT JOIN strings n ON n.id = i.name_sid WHERE i.program_id = ?1 ORDER BY i.ordinal"},
    {"cache_lookups", "SELECT 'key ' || n.str, coalesce(v.str, '') || coalesce(' (digest ' || d.str || ')', '') FROM key_components c "
                      "JOIN strings n ON n.id = c.name_sid LEFT JOIN strings v ON v.id = c.value_sid "
                      "LEFT JOIN strings d ON d.id = c.digest_sid WHERE c.lookup_id = ?1 ORDER BY c.ordinal"},
};
}  // namespace

std::string RowDetails::value(std::string_view key) const {
    for (const DetailField& f : fields)
        if (f.key == key) return f.value;
    return {};
}

RowDetails rowDetails(const trace::TraceReader& reader, std::string_view table, std::int64_t rowId) {
    const trace::TableDef* def = trace::findTable(table);
    if (!def) throw trace::TraceError(trace::TraceErrorKind::SchemaMismatch, reader.path(), "no table named " + std::string(table));
    RowDetails out;
    out.table = std::string(def->name);
    out.rowId = rowId;
    std::string cols;
    for (const trace::ColumnDef& c : def->columns) cols += (cols.empty() ? "" : ", ") + std::string(c.name);
    trace::Query st(reader, "SELECT " + cols + " FROM " + out.table + " WHERE rowid = ?");
    st.bind(1, rowId);
    if (!st.step()) return out;
    for (std::size_t i = 0; i < def->columns.size(); ++i) {
        const trace::ColumnDef& c = def->columns[i];
        const int col = static_cast<int>(i);
        std::string key(c.name), value;
        const bool null = st.row().isNull(col);
        if (c.name == "id") continue;
        if (DetailField w; wordsOf(reader, c, st.row(), col, w)) out.words.push_back(std::move(w));
        if (endsWith(c.name, "_sid")) {
            key = key.substr(0, key.size() - 4);
            value = null ? "(none)" : reader.str(trace::colInt(st.row(), col));
        } else if (!null && c.doc.substr(0, 5) == "enum ") {
            std::string_view type = c.doc.substr(5);
            type = type.substr(0, type.find_first_of(" :;,"));
            value = std::string(trace::enumName(type, static_cast<int>(trace::colInt(st.row(), col)))) + " (" +
                    std::to_string(trace::colInt(st.row(), col)) + ")";
        } else if (!null && endsWith(c.name, "dur_ns")) {
            value = util::formatDuration(trace::colInt(st.row(), col));
        } else if (!null && endsWith(c.name, "_bytes")) {
            value = util::formatBytes(trace::colInt(st.row(), col));
        } else {
            value = cellText(st.row(), col);
        }
        out.fields.push_back({std::move(key), std::move(value)});
    }
    for (const Child& child : kChildren) {
        if (child.parent != out.table) continue;
        trace::Query q(reader, child.sql);
        q.bind(1, rowId);
        while (q.step()) {
            out.fields.push_back({cellText(q.row(), 0), cellText(q.row(), 1)});
            out.words.push_back(out.fields.back());
        }
    }
    return out;
}

}  // namespace cs::engine
