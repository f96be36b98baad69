// Writes every table of a trace as newline-delimited JSON, one file per table, for fleet queries:
// Spark, Trino, BigQuery and DuckDB read such a folder as it is (docs/fleet.md).
//
// Why JSONL, and why every table as stored: a team that keeps thousands of CI traces asks questions
// across them ("since when does this program recompile every step?"). SQLite files do not federate;
// a query engine that reads JSON lines does, with no loader of ours in between. So the export adds
// nothing but the trace id to each row (a fleet is many traces' rows in one table) and keeps every
// column of docs/trace-format.md under its own name and type: ids and *_sid references stay integers
// (join `strings` on trace_id and id, as within one trace), times stay integer nanoseconds, codes stay
// codes (`enums` names them). A derived, denormalised table would be a second schema to keep in step;
// the one added file, traces.jsonl, holds one row per trace: its id, creation time and creator, the
// order a fleet's "over time" needs.
//
// The trace id (traceId()): meta `trace_id` when the trace stores one; otherwise the MD5 of the meta
// rows (key and value, in key order), which the writer fills with the creation time in nanoseconds,
// so every recording or import has its own id, and copies and re-exports of one file share it.
//
// Each file is written beside its target and renamed once all are complete: a failed export leaves
// the previous files in place, never half of one. Rows stream from SQLite; memory does not grow with
// the trace. Text is escaped by util::JsonWriter (control characters; invalid UTF-8 becomes U+FFFD),
// so every line is valid JSON whatever the trace holds.
#pragma once

#include <cstdint>
#include <filesystem>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace cs::trace {
class TraceReader;
}

namespace cs::engine {

struct JsonlTableCount {
    std::string table;  // also the file name: table + ".jsonl"
    std::int64_t rows = 0;
};

// The stable id of a trace in a fleet (see above).
std::string traceId(const trace::TraceReader& reader);

// Writes the rows of one schema table (or "traces", the per-trace row) to `out`, one JSON object per
// line, `trace_id` first. Returns the number of rows. Throws trace::TraceError when the trace cannot be
// read, std::invalid_argument for a table the schema does not declare.
std::int64_t writeJsonlTable(const trace::TraceReader& reader, std::string_view table, const std::string& traceId,
                             std::ostream& out);

// Writes every table into `dir` (created when missing) as TABLE.jsonl, plus traces.jsonl. Throws
// std::runtime_error naming the file that could not be written, trace::TraceError for an unreadable trace.
std::vector<JsonlTableCount> exportJsonl(const trace::TraceReader& reader, const std::filesystem::path& dir);

}  // namespace cs::engine
