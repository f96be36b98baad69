#include "core/engine/accounting/trace_facts.h"

#include "core/trace/reader.h"
#include "core/trace/row.h"
#include "core/trace/schema.h"
#include "core/trace/table_readers.h"
#include "core/trace/write_note.h"
#include "core/util/saturating.h"

#include <compilescope/trace_constants.h>

#include <algorithm>
#include <functional>

namespace cs::engine {

using trace::colInt;
using trace::colText;

namespace {
constexpr size_t kMaxMetrics = 200;
// Sums of durations below use total(), not sum(): SQLite's sum() stops the query with "integer
// overflow" on stored extremes, while total() adds in floating point and the cast clamps to int64.

// A family counts the rows of its first table (lookups, spans, module loads, ...); its other tables
// (key components, span args, options, ...) are listed apart as "family: table", right after it, so
// 256 lookups with 1368 key components read as 256 lookups, not 1624.
void readFamilies(const trace::TraceReader& reader, TraceFacts& f) {
    std::map<std::string, std::vector<FamilyCount>> parts;
    std::vector<std::string> order;
    for (const auto& t : trace::schemaTables()) {
        if (t.family == "format" || t.family == "stats") continue;
        std::string fam(t.family);
        auto& list = parts[fam];
        if (list.empty()) {
            order.push_back(fam);
            std::string table(t.name), label = fam;
            std::replace(table.begin(), table.end(), '_', ' ');
            if (table != fam) label += " (" + std::string(t.name) + ")";  // "modules (module_loads)"
            list.push_back({label, reader.rowCount(t.name)});
        } else {
            list.push_back({fam + ": " + std::string(t.name), reader.rowCount(t.name)});
        }
    }
    for (const auto& fam : order)
        for (auto& c : parts[fam]) f.families.push_back(std::move(c));
}

void readPhases(const trace::TraceReader& reader, Phases& p, bool phaseSpans) {
    // clang's per-file totals (tool clang) summarise spans: listed, never added to the total.
    reader.query("SELECT count(*), CAST(max(min(total(CASE WHEN parent_id IS NULL AND tool <> " +
                     std::to_string(CS_PHASE_TOOL_CLANG) + " THEN dur_ns END), 9.2e18), -9.2e18) AS INTEGER) FROM phase_timings",
                 [&](const trace::Row& st) { p.timings = colInt(st, 0), p.totalNs = colInt(st, 1); });
    reader.query("SELECT tool, coalesce(ph.str, ''), coalesce(a.str, ''), count(*), "
                 "CAST(max(min(total(dur_ns), 9.2e18), -9.2e18) AS INTEGER), max(dur_ns) "
                 "FROM phase_timings t LEFT JOIN strings ph ON ph.id = t.phase_sid "
                 "LEFT JOIN strings a ON a.id = t.arch_sid GROUP BY tool, t.phase_sid, t.arch_sid "
                 "ORDER BY total(dur_ns) DESC, tool, ph.str LIMIT " + std::to_string(kMaxListedRows),
                 [&](const trace::Row& st) {
                     p.rows.push_back({std::string(trace::enumName("phase_tool", static_cast<int>(colInt(st, 0)))),
                                       colText(st, 1), colText(st, 2), colInt(st, 3), colInt(st, 4), colInt(st, 5)});
                 });
    // Compiler phases that arrived as spans (clang / nvcc -ftime-trace, TEF imports): per name. A
    // query over every span, so skipped when the summary's sweep saw none.
    if (phaseSpans)
    reader.query("SELECT coalesce(n.str, ''), count(*), CAST(max(min(total(sp.dur_ns), 9.2e18), -9.2e18) AS INTEGER), max(sp.dur_ns) FROM spans sp "
                 "LEFT JOIN strings n ON n.id = sp.name_sid WHERE sp.category = " + std::to_string(CS_CAT_PHASE) +
                     " AND sp.dur_ns IS NOT NULL GROUP BY sp.name_sid ORDER BY total(sp.dur_ns) DESC LIMIT " +
                     std::to_string(kMaxListedRows),
                 [&](const trace::Row& st) {
                     p.timings += colInt(st, 1);
                     p.rows.push_back({"time trace", colText(st, 0), "", colInt(st, 1), colInt(st, 2), colInt(st, 3)});
                 });
    std::stable_sort(p.rows.begin(), p.rows.end(), [](const PhaseRow& a, const PhaseRow& b) { return a.totalNs > b.totalNs; });
    if (p.rows.size() > kMaxListedRows) p.rows.resize(kMaxListedRows);
}

// Samples are the durations the trace records per phase, module, program and CUDA program (one
// sample per row), plus the whole-trace total.
void readSamples(const trace::TraceReader& reader, TraceFacts& f) {
    auto& s = f.samples;
    std::int64_t total = 0;
    auto add = [&](const std::string& metric, std::int64_t ns, bool counts) {
        s[metric].push_back(ns);
        if (counts) total = util::satAdd(total, ns);
    };
    reader.query("SELECT tool, coalesce(ph.str, ''), dur_ns, parent_id IS NULL AND tool <> " +
                     std::to_string(CS_PHASE_TOOL_CLANG) + " FROM phase_timings t "
                 "LEFT JOIN strings ph ON ph.id = t.phase_sid",
                 [&](const trace::Row& st) {
                     add("phase " + std::string(trace::enumName("phase_tool", static_cast<int>(colInt(st, 0)))) + " " +
                             colText(st, 1),
                         colInt(st, 2), colInt(st, 3) != 0);
                 });
    reader.query("SELECT coalesce(n.str, ''), coalesce(m.dur_ns, 0) FROM module_loads m "
                 "LEFT JOIN strings n ON n.id = m.name_sid",
                 [&](const trace::Row& st) { add("module " + colText(st, 0), colInt(st, 1), true); });
    reader.query("SELECT coalesce(p.str, ''), c.compile_ns FROM cache_lookups c LEFT JOIN strings p ON p.id = "
                 "c.program_sid WHERE c.verdict = " + std::to_string(CS_VERDICT_MISS) + " AND c.compile_ns IS NOT NULL",
                 [&](const trace::Row& st) { add("program " + colText(st, 0), colInt(st, 1), true); });
    reader.query("SELECT api, coalesce(n.str, ''), coalesce(c.dur_ns, 0) FROM cuda_programs c "
                 "LEFT JOIN strings n ON n.id = c.name_sid",
                 [&](const trace::Row& st) {
                     ++f.cudaPrograms;
                     add(std::string(trace::enumName("cuda_api", static_cast<int>(colInt(st, 0)))) + " " + colText(st, 1),
                         colInt(st, 2), true);
                 });
    // Keep the metrics that cost most; a trace with a million distinct names stays comparable.
    if (s.size() > kMaxMetrics) {
        std::vector<std::pair<std::int64_t, std::string>> cost;
        for (const auto& [k, v] : s) {
            std::int64_t sum = 0;
            for (auto x : v) sum = util::satAdd(sum, x);
            cost.push_back({sum, k});
        }
        std::nth_element(cost.begin(), cost.begin() + kMaxMetrics, cost.end(), std::greater<>());
        for (size_t i = kMaxMetrics; i < cost.size(); ++i) s.erase(cost[i].second);
    }
    s["total recorded compile time"] = {total};
    reader.query("SELECT coalesce(n.str, ''), coalesce(grid_x, 0), coalesce(grid_y, 0), coalesce(grid_z, 0), "
                 "coalesce(block_x, 0), coalesce(block_y, 0), coalesce(block_z, 0), count(*) FROM kernel_launches k "
                 "LEFT JOIN strings n ON n.id = k.name_sid GROUP BY 1, 2, 3, 4, 5, 6, 7",
                 [&](const trace::Row& st) {
                     std::string key = colText(st, 0) + " grid(" + std::to_string(colInt(st, 1)) + "," +
                                       std::to_string(colInt(st, 2)) + "," + std::to_string(colInt(st, 3)) + ") block(" +
                                       std::to_string(colInt(st, 4)) + "," + std::to_string(colInt(st, 5)) + "," +
                                       std::to_string(colInt(st, 6)) + ")";
                     f.launchTopology[key] += colInt(st, 7);
                 });
}

// A recording whose trace stopped accepting writes counted what it lost in `<trace>.note`
// (core/trace/write_note.h): those counts are losses of this trace like its own stats rows.
void addWriteNote(const std::string& tracePath, TraceFacts& f) {
    const auto note = trace::loadWriteNote(tracePath);
    if (!note || note->storedInTrace) return;  // stored: the stats rows read above hold the counts
    const std::string from = " (from " + trace::writeNotePath(tracePath) + ")";
    const std::size_t before = f.stats.size();
    for (const auto& [table, n] : note->notStored)
        f.stats.push_back({"dropped_write_failed", "recorder", note->reason + ": " + table + from, n});
    if (note->droppedByCollectors)
        f.stats.push_back({"dropped_no_recorder", "collector", "counted by the job after the write failed" + from,
                           note->droppedByCollectors});
    f.statKinds += static_cast<std::int64_t>(f.stats.size() - before);
}
}  // namespace

void readLossStats(const trace::TraceReader& reader, TraceFacts& f) {
    std::vector<trace::StoredStat> stats = trace::readStats(reader);  // in id order
    f.statKinds = static_cast<std::int64_t>(stats.size());
    // The 50 largest, ties in id order.
    std::stable_sort(stats.begin(), stats.end(), [](const trace::StoredStat& a, const trace::StoredStat& b) { return a.count > b.count; });
    for (std::size_t i = 0; i < stats.size() && i < 50; ++i)
        f.stats.push_back({std::move(stats[i].name), std::move(stats[i].source), std::move(stats[i].detail), stats[i].count});
    addWriteNote(reader.path(), f);
}

TraceFacts readTraceFacts(const trace::TraceReader& reader, const FactsOptions& options) {
    TraceFacts f;
    readFamilies(reader, f);
    readLossStats(reader, f);
    reader.query("SELECT count(*), coalesce(sum(verdict = " + std::to_string(CS_VERDICT_MISS) + "), 0) FROM cache_lookups",
                 [&](const trace::Row& st) { f.lookups = colInt(st, 0), f.misses = colInt(st, 1); });
    readPhases(reader, f.phases, options.phaseSpans);
    if (options.samples) readSamples(reader, f);
    else f.cudaPrograms = reader.rowCount("cuda_programs");
    return f;
}

std::vector<RawInvalidationList> readRawInvalidationLists(const trace::TraceReader& reader) {
    std::vector<RawInvalidationList> out;
    std::map<std::pair<std::int64_t, std::int64_t>, size_t> groups;
    reader.query("SELECT session_id, list, kind, coalesce(text_sid, 0) FROM invalidation_items "
                 "ORDER BY session_id, list, ordinal",
                 [&](const trace::Row& st) {
                     std::pair<std::int64_t, std::int64_t> key{colInt(st, 0), colInt(st, 1)};
                     auto it = groups.find(key);
                     if (it == groups.end()) {
                         RawInvalidationList l;
                         l.sessionId = key.first;
                         l.list = std::string(trace::enumName("invalidation_list", static_cast<int>(key.second)));
                         out.push_back(std::move(l));
                         it = groups.emplace(key, out.size() - 1).first;
                     }
                     RawInvalidationList& l = out[it->second];
                     ++l.items;
                     if (l.first.size() < kMaxListedRows)
                         l.first.push_back({std::string(trace::enumName("invalidation_item_kind", static_cast<int>(colInt(st, 2)))),
                                            reader.str(colInt(st, 3))});
                 });
    return out;
}

}  // namespace cs::engine
