// The plain facts of a trace that views list as they are: rows per fact family, the stats table
// (what was dropped or malformed), compiler phase totals, the samples `compare` judges, the launch
// topology, and invalidation lists the tree builder could not read.
//
// Why in the engine: each is one aggregate query, and every view (the CLI's `info`, the GUI, the
// report) must show the same figures; reading them once here is what keeps the views from each
// keeping a copy of the SQL.
#pragma once

#include "core/trace/trace_problems.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace cs::trace {
class TraceReader;
}

namespace cs::engine {

// Rows of long lists that views show; each says how many more the trace holds.
constexpr size_t kMaxListedRows = 300;

struct FamilyCount {
    std::string family;
    std::int64_t rows = 0;
};

struct StatRow {
    std::string name, source, detail;
    std::int64_t count = 0;
};

struct PhaseRow {
    std::string tool, phase, arch;
    std::int64_t count = 0, totalNs = 0, maxNs = 0;
};

struct Phases {
    std::int64_t timings = 0;  // phase_timings rows and phase spans
    std::int64_t totalNs = 0;  // the compile accounting's "compiler phase" time (a union, nesting counted once)
    std::vector<PhaseRow> rows;  // per tool, phase and arch, by total time, first kMaxListedRows
};

struct ListedInvalidationItem {
    std::string kind, text;
};
struct RawInvalidationList {
    std::int64_t sessionId = 0;
    std::string list;             // "methods" / "edges" / ...
    std::int64_t items = 0;
    std::vector<ListedInvalidationItem> first;  // first kMaxListedRows, in log order
};

struct TraceFacts {
    std::vector<FamilyCount> families;  // schema order, format and stats tables left out
    std::vector<StatRow> stats;         // by count, first 50
    std::int64_t statKinds = 0;
    Phases phases;
    // Comparison samples: metric -> durations (ns); and the launch topology (kernel, grid, block -> n).
    std::map<std::string, std::vector<std::int64_t>> samples;
    std::map<std::string, std::int64_t> launchTopology;
    std::int64_t lookups = 0, misses = 0;
    std::int64_t cudaPrograms = 0;
    std::vector<RawInvalidationList> rawInvalidations;  // only read when asked (no trees were built)
    // What the trace breaks of its own format (dangling references, negative durations, a session
    // ending before it starts): shown as trace problems, never as findings (trace_problems.h).
    std::vector<trace::TraceProblem> problems;
};

// What to read beyond the facts every view shows.
struct FactsOptions {
    bool samples = true;     // TraceFacts::samples and launchTopology (`compare`, the report's comparison)
    bool phaseSpans = true;  // false: the trace holds no compiler-phase spans (the summary's sweep saw none)
};
TraceFacts readTraceFacts(const trace::TraceReader& reader, const FactsOptions& options = {});
// Only the stats part of readTraceFacts (stats, statKinds, the write-failure note's counts): what
// every loss figure is computed from (trace_losses.h).
void readLossStats(const trace::TraceReader& reader, TraceFacts& f);
std::vector<RawInvalidationList> readRawInvalidationLists(const trace::TraceReader& reader);

}  // namespace cs::engine
