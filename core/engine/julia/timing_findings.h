// Findings from Julia's own timing output alone: `--trace-compile` statements tagged `# recompile`,
// `@time_imports` packages whose load is mostly recompilation, and `@time` results whose compile
// time is mostly recompilation.
//
// Why without the trees: most users have only these timings (the Julia manual's "Reducing package
// loading time" shows `@time @time_imports using Plots` with `(100% recompilation)` rows), and
// recompilation is always invalidation: code compiled once was thrown away because a later method
// definition changed its dispatch. The timings say where the time went; the fix is to record the
// invalidations of that load (`@snoop_invalidations`) and read the trees, which every finding says,
// with its cost in ms. Where invalidation trees are in the same trace, their own findings
// (invalidation_findings.h) name the roots; these findings stand beside them.
//
// Thresholds (constants in the .cpp): findings fire on time, not on shares (issue 35): a package, an
// @time result or the `# recompile` statements are flagged when their recompilation took at least
// 10 ms; statements printed without a time are flagged by their count, their time being unknown.
#pragma once

#include "core/engine/common/finding.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cs::trace {
class TraceReader;
}

namespace cs::engine {

// The Julia timing spans of a trace (track "julia compiles", julia_timing_writer.h), as figures.
struct JuliaTimingReport {
    struct Row {
        std::int64_t spanId = 0, sessionId = 0, startNs = 0;
        std::string name;           // signature, package, "@time"
        std::int64_t ns = 0;        // its duration; -1 when not recorded
        std::int64_t compileNs = 0, recompileNs = 0;
        double recompilePct = 0;    // recompilation share of the compile time, as printed
        std::string expr;           // @time: the expression the REPL prompt named
        std::int64_t run = 0;       // @time: 1 = first time that expression was timed, 2 = its repeat
        bool recompile = false;     // --trace-compile: "# recompile"
        bool workload = false;      // a PrecompileTools workload statement
    };
    std::vector<Row> statements;  // --trace-compile statements (timed or not) and workload rows
    std::vector<Row> packages;    // @time_imports package rows
    std::vector<Row> times;       // @time results
    bool empty() const { return statements.empty() && packages.empty() && times.empty(); }
};

JuliaTimingReport loadJuliaTiming(const trace::TraceReader& reader);
std::vector<Finding> juliaTimingFindings(const JuliaTimingReport& report);

}  // namespace cs::engine
