// A concrete change for one finding: a unified diff of a source file, or a snippet and where it goes.
//
// Why data: `compilescope fix` prints the changes and writes them as .patch / snippet files, the
// report and the GUI's Findings view show them beside their finding ("Show the change"), and the
// tests apply the diffs with `patch`. One struct serves all of them (docs/fix.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cs::engine::fix {

// FixChange::finding of a change that belongs to the whole trace, not to one finding (the Julia
// precompile workload: every first-call compile of a --trace-compile log is a candidate).
inline constexpr size_t kNoFinding = static_cast<size_t>(-1);
inline constexpr const char* kJuliaWorkloadKind = "julia.precompile_workload";

struct FixChange {
    size_t finding = 0;        // index into TraceAnalysis::findings (its id is finding + 1), or kNoFinding
    std::string kind;          // the finding's kind
    std::string runtime;       // warp, torch, jax, numba, julia
    std::string summary;       // one line: what the change does
    std::optional<std::int64_t> savingNs;  // compile time the change is expected to save
    std::string saving;        // the saving in words (which compiles go)
    std::string verify;        // how to check that it worked
    std::string file;          // the source file the change edits or belongs in ("" when unknown)
    int line = 0;              // the line it starts at (0 when unknown)
    std::string diff;          // unified diff (`patch -p0` from /, or the file's directory with -p0 on its name)
    std::string snippet;       // when no diff: the code to add
    std::string where;         // where the snippet goes
    std::string language;      // python, julia: the snippet's or the diff's language
    std::vector<std::string> notes;  // what the change does not do, and why (e.g. options never applied)
};

// A finding with no mechanical fix, and why.
struct NoFix {
    size_t finding = 0;
    std::string kind;
    std::string reason;
};

struct FixPlan {
    std::vector<FixChange> changes;  // in finding order; a trace-wide change (kNoFinding) last
    std::vector<NoFix> none;         // in finding order
};

}  // namespace cs::engine::fix
