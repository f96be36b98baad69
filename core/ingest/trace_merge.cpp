#include "core/ingest/trace_merge.h"

#include "core/trace/reader.h"
#include "core/trace/schema.h"
#include "core/trace/table_readers.h"

#include <compilescope/trace_constants.h>

#include <map>
#include <unordered_map>

namespace cs::ingest {

namespace {
// Which table a reference column points into; "" when the column holds no reference.
std::string_view referenceTarget(std::string_view table, std::string_view column) {
    if (column.size() > 4 && column.substr(column.size() - 4) == "_sid") return "strings";
    if (column == "session_id" || column == "parent_session_id") return "sessions";
    if (column == "track_id" || column == "parent_track_id") return "tracks";
    if (column == "span_id" || column == "from_span_id" || column == "to_span_id") return "spans";
    if (column == "lookup_id") return "cache_lookups";
    if (column == "load_id") return "module_loads";
    if (column == "program_id") return "cuda_programs";
    if (column == "parent_id") return table;  // phase_timings nest in themselves
    return "";
}

// Tables whose rows are not copied: the file's own bookkeeping, rebuilt by the writer.
bool skipped(std::string_view table) {
    return table == "meta" || table == "strings" || table == "enums" || table == "stats";
}
}  // namespace

bool looksLikeTrace(std::string_view head) {
    if (head.size() < 100 || head.substr(0, 16) != std::string_view("SQLite format 3\0", 16)) return false;
    auto b = [&](size_t i) { return static_cast<std::uint32_t>(static_cast<unsigned char>(head[i])); };
    std::uint32_t appId = (b(68) << 24) | (b(69) << 16) | (b(70) << 8) | b(71);
    return appId == static_cast<std::uint32_t>(CS_TRACE_APPLICATION_ID);
}

ImportSummary mergeTrace(const trace::TraceReader& source, trace::TraceWriter& writer) {
    ImportSummary summary;
    std::map<std::string, std::unordered_map<std::int64_t, std::int64_t>, std::less<>> idMaps;
    std::unordered_map<std::int64_t, trace::StringId> strings;
    std::int64_t dangling = 0;
    std::string firstDangling;

    auto mapString = [&](std::int64_t old) -> std::optional<std::int64_t> {
        auto it = strings.find(old);
        if (it != strings.end()) return it->second;
        bool found = false;
        std::string text;
        source.query("SELECT str FROM strings WHERE id=" + std::to_string(old), [&](const trace::Row& st) {
            found = true;
            text = st.text(0);
        });
        if (!found) return std::nullopt;
        return strings[old] = writer.intern(text);
    };

    for (const auto& table : trace::schemaTables()) {
        if (skipped(table.name)) continue;
        const bool hasId = table.columns.front().name == "id";
        auto& ownMap = idMaps[std::string(table.name)];
        // Parents before children within one table (phase_timings.parent_id): ids only grow.
        std::string sql = "SELECT * FROM " + std::string(table.name) + (hasId ? " ORDER BY id" : " ORDER BY rowid");
        source.query(sql, [&](const trace::Row& st) {
            std::vector<trace::TraceWriter::RawValue> row;
            row.reserve(table.columns.size());
            for (size_t c = 0; c < table.columns.size(); ++c) {
                int i = static_cast<int>(c);
                switch (st.type(i)) {
                case trace::ColumnType::Null: row.emplace_back(std::monostate{}); continue;
                case trace::ColumnType::Integer: row.emplace_back(std::int64_t{st.integer(i)}); break;
                case trace::ColumnType::Real: row.emplace_back(st.real(i)); break;
                default: row.emplace_back(st.text(i)); break;
                }
                auto target = referenceTarget(table.name, table.columns[c].name);
                auto* old = std::get_if<std::int64_t>(&row.back());
                if (target.empty() || !old || (c == 0 && hasId)) continue;
                std::optional<std::int64_t> mapped;
                if (target == "strings") {
                    if (*old == 0) {
                        row.back() = std::monostate{};
                        continue;
                    }
                    mapped = mapString(*old);
                } else {
                    const auto& m = idMaps[std::string(target)];
                    if (auto it = m.find(*old); it != m.end()) mapped = it->second;
                }
                if (mapped) {
                    row.back() = *mapped;
                } else {
                    if (!dangling++)
                        firstDangling = std::string(table.name) + "." + std::string(table.columns[c].name) + " = " +
                                        std::to_string(*old);
                    // A NOT NULL reference cannot be dropped: keep 0, which matches no row.
                    row.back() = table.columns[c].constraint == "NOT NULL" ? trace::TraceWriter::RawValue{std::int64_t{0}}
                                                                           : trace::TraceWriter::RawValue{};
                }
            }
            std::int64_t oldId = hasId ? st.integer(0) : 0;
            std::int64_t newId = writer.insertRaw(table.name, row);
            if (hasId) ownMap[oldId] = newId;
            ++summary.records;
        });
    }
    // Carry the source's own counts of lost input along.
    for (const trace::StoredStat& stat : trace::readStats(source)) {
        std::optional<std::int64_t> session;
        if (stat.sessionId) {
            const auto& m = idMaps["sessions"];
            if (auto it = m.find(*stat.sessionId); it != m.end()) session = it->second;
        }
        writer.addStat(session, stat.name, stat.source, stat.count, stat.detail);
    }
    if (dangling)
        writer.addStat(std::nullopt, "dangling_reference", "trace-merge", dangling,
                       source.path() + ": " + firstDangling + " points at no row");
    return summary;
}

}  // namespace cs::ingest
