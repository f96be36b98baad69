// The rows a diff matches, from every part of an analysis that names compiled work: the compile
// index (cache lookups, module loads, CUDA programs, compile spans), a C++ build's files, headers
// and template sets, and Julia's `@time_imports` package loads and `@time` results.
//
// Why one row shape: `diff` answers "what got slower, and why" for a JIT runtime and for a clang
// build alike. A build has no cache lookups: its compiles are files (the time trace of each), and
// what made a file slower is a header or a template set that costs more (ClangBuildAnalyzer's
// terms). A Julia package's load time is the figure `@time_imports` prints, and recompilation the
// share an invalidation fix removes. Each becomes a row with its time and, where the tool split it,
// its parts (frontend / backend, compilation / recompilation), so the diff can say which part moved.
#pragma once

#include "core/engine/analysis/trace_analysis.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace cs::measure {

struct DiffRow {
    std::string kind, name, identity, runtime;
    std::string table;  // the evidence row: its table and id ("" for a build's header or template set)
    std::int64_t rowId = 0;
    bool compiled = true;  // false: served from a cache (a hit, a cached module load)
    // false: a compile of its own (a lookup's miss, a module build, a file); true: time spent inside
    // compiles (a header, a template set) or a load (a Julia package): matched and timed, but never
    // counted as a compile nor as a recompile.
    bool work = false;
    std::int64_t costNs = -1;  // -1: not recorded
    std::int64_t startNs = -1;
    std::vector<std::pair<std::string, std::int64_t>> parts;  // named parts of costNs
};

// Every row of one analysis. The compile index must be built (kDiffIndexRows); the build report is
// read as the analysis holds it (analyseSides keeps every header and template set).
std::vector<DiffRow> diffRowsOf(const engine::TraceAnalysis& a);

// One trace's rows summed per identity (kind, name, identity), in first-seen order: a 1M-event trace
// has hundreds of thousands of rows and a few thousand identities, so each trace is summed on its
// own core and the diff merges identities, not rows.
struct SummedRow {
    DiffRow first;  // the identity's first row; its evidence row is the first that has one
    std::int64_t compiles = 0, reuses = 0, costNs = 0;  // costNs: of the compiles, where recorded
    std::vector<std::pair<std::string, std::int64_t>> parts;  // of the compiles
};
std::vector<SummedRow> sumDiffRows(const engine::TraceAnalysis& a);

}  // namespace cs::measure
