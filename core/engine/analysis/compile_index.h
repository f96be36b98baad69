// The compile index: one row per compile and cache event of a trace (cache lookups, module loads,
// NVRTC / nvJitLink programs, driver JIT operations, compile and cache-load spans), each with what
// a user asks first about it: what was compiled, where (runtime, session, step), hit or miss, why,
// what it cost, and, for the rows listed in full, its key (before -> after for a miss), options,
// log text, phase durations, the findings that cite it and its place on the timeline.
//
// Why in the engine: PyTorch users share compile problems as tlparse reports, whose first page is
// an index of every compile id with a status icon linking to its artifacts. Our report renders the
// same index, but the "why" of a miss is the replay's (miss_attribution.h) and the session labels
// are the GUI's (sessionLabel), so the rows are computed here from the analysis, once, and the
// report only formats them (core/report may not read the trace).
//
// Why a row limit: a 1M-event trace holds hundreds of thousands of compiles; the report must stay
// under 5 MB. Every row is counted (by outcome), but only `rowLimit` are listed with their details:
// misses, compiles and errors first (what costs time), then hits and cache loads, each in time
// order. The details cost one small indexed query per listed row, so only listed rows pay them.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace cs::trace {
class TraceReader;
}

namespace cs::engine {

struct TraceAnalysis;

enum class CompileOutcome { Hit, Miss, Compiled, Cached, Error, Unknown };
// "hit", "miss", "compiled", "cached", "error", "unknown".
const char* outcomeName(CompileOutcome o);

struct IndexedComponent {
    std::string name, role, value;
    bool inKey = true;  // false: a Device / Host field, shown but never compared
};

struct IndexedChange {
    std::string name, before, after;
    bool inKey = true;  // false: changed alongside, not the cause
};

struct IndexedPhase {
    std::string name;
    std::int64_t ns = 0;
    std::int64_t count = 0;
};

struct CompileEntry {
    std::string table;  // the evidence table: cache_lookups, module_loads, cuda_programs, cuda_jit, spans
    std::int64_t rowId = 0;
    std::string kind;      // "cache lookup", "module load", "NVRTC program", "driver JIT", "compile span", ...
    std::string name;      // program, module, kernel or span name
    std::string identity;  // what tells two compiles of one name apart: cache and handle, hash and block_dim, digest
    std::string runtime, session;  // session: labelled as the GUI labels its lanes
    std::int64_t sessionId = 0;
    std::optional<std::int64_t> step;
    CompileOutcome outcome = CompileOutcome::Unknown;
    std::string why;                     // one line
    std::optional<std::int64_t> costNs;  // time spent compiling (or loading, for a cached row)
    std::optional<std::int64_t> startNs, durNs;  // startNs on the display axis (the timeline's)
    // Details (listed rows only).
    std::vector<IndexedComponent> key;  // the key as recorded
    std::vector<IndexedChange> changes;  // a miss: what moved since the nearest earlier entry
    std::optional<std::int64_t> againstLookup;  // the cache lookup that created that entry (its id)
    std::vector<std::pair<std::string, std::string>> options;  // option -> value ("" for a flag)
    std::vector<std::string> inputs;     // kernels of a module, inputs of a program
    std::string log;                     // text the runtime attached (span detail, log origin, log size)
    std::vector<IndexedPhase> phases;    // nested phases and their total time
    std::vector<size_t> findings;        // indexes into TraceAnalysis::findings whose evidence names this row
};

// How much of a listed row to fill in.
//   Full      everything above: one small indexed query per listed CUDA program, driver JIT row and span
//             (the report lists a few thousand rows);
//   Identity  what names the row and its cost (table, kind, name, identity, key, outcome, cost, time),
//             read in one pass per table, without the explanation (why, changes, options, inputs, log):
//             `diff` lists every compile of two runs, 200,000 rows a side, and per-row queries made
//             that 30 s; building each row's explanation was a further fifth of what remained.
enum class IndexDetail { Full, Identity };

struct CompileIndex {
    std::vector<CompileEntry> entries;  // the listed rows, in time order
    std::int64_t total = 0;             // every compile and cache event of the trace
    std::map<CompileOutcome, std::int64_t> byOutcome;  // every row, by outcome
    size_t rowLimit = 0;
    // Index of the listed entry for an evidence row, or -1.
    std::int64_t find(std::string_view table, std::int64_t rowId) const;

private:
    friend CompileIndex buildCompileIndex(const trace::TraceReader&, const TraceAnalysis&, size_t, IndexDetail);
    // Per source table (compile_index.cpp's kSources), rowid -> entry: 200,000 rows in diff's index,
    // where a string-keyed tree spent more on comparing table names than on the rows.
    std::vector<std::unordered_map<std::int64_t, size_t>> m_byRow;
};

// A stable anchor name for a row of an indexed table: "lookup-13", "load-4", "program-2", "jit-7",
// "span-9"; "" when the table is not indexed.
std::string compileAnchor(std::string_view table, std::int64_t rowId);

// Needs the rest of the analysis (cache replay, module report, findings, compile summary) done.
CompileIndex buildCompileIndex(const trace::TraceReader& reader, const TraceAnalysis& analysis, size_t rowLimit,
                               IndexDetail detail = IndexDetail::Full);

}  // namespace cs::engine
