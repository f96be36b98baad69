// RowDetails: every stored fact about one row, as "key: value" lines for a details pane.
//
// Why generic: the timeline's selection points at a row of spans, module_loads, cuda_programs,
// cuda_jit, kernel_launches, phase_timings or cache_lookups, and the user asks for everything the
// trace knows about it: a Warp load's hash, device, block_dim and options, an NVRTC program's
// options and inputs, a span's arguments. The columns come from the schema (so a new column shows
// up without code here); string ids are resolved, enum codes named (the schema's "enum X" doc), times
// given in ns with their duration; then the row's children (arguments, options, kernels, inputs,
// key components). The table name is checked against the schema; the row id is bound.
// Two renderings: `fields`, the stored columns as they are (the details pane's "Raw" toggle), and
// `words`, the same facts as a user reads them (issue 39): enum names without their codes,
// durations and sizes in units, the process by its label, no ids, no empty columns, no raw
// timestamps (the pane's first line already says when).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cs::trace {
class TraceReader;
}

namespace cs::engine {

struct DetailField {
    std::string key, value;
};

struct RowDetails {
    std::string table;
    std::int64_t rowId = 0;
    std::vector<DetailField> fields;  // empty when the row does not exist
    std::vector<DetailField> words;   // the readable rendering, then the row's children
    std::string value(std::string_view key) const;  // "" when absent (tests)
};

// Throws trace::TraceError for a table the schema does not know.
RowDetails rowDetails(const trace::TraceReader& reader, std::string_view table, std::int64_t rowId);

}  // namespace cs::engine
