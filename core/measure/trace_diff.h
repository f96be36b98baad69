// Two runs compared compile by compile: what is new, gone, recompiled more often, slower or faster,
// and which findings and verdicts changed.
//
// Why: "did my change make compiles worse?" is the question after "why did this compile?", and no
// single-run view answers it. tlparse and Perfetto show one run, `compare` judges wall-time samples
// without saying what compiled. This matches the compile index rows (compile_index.h) of two runs by
// an identity that survives a new process, so a pull request that adds a recompile or a module
// identity names it.
//
// Identity (stable across processes, so never a pointer, a handle or a world age):
//   cache lookup   cache + program + the key's components (name = value), minus addresses (Numba's
//                  dispatcher 0x...), world ages and unkeyed device / host fields;
//   module load    module name + hash, block_dim, device (Warp's identity);
//   compile span   name + PyTorch's compile id where there is one;
//   CUDA program   name + source digest;
//   C++ build      a file (its ninja output or time trace), a header, a template set (diff_rows.h);
//   Julia          an @time_imports package, an @time expression; other rows: kind + name.
// Each side may hold several traces (samples of one configuration): counts and costs are per sample,
// and a cost change must leave the noise band of `compare` (noise_band.h) to count as slower or faster.
#pragma once

#include "core/engine/analysis/trace_analysis.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cs::measure {

using Runs = std::vector<std::shared_ptr<const engine::TraceAnalysis>>;

// One compile identity and what each sample did with it.
struct DiffIdentity {
    std::string kind, name, identity, runtime;
    bool work = false;  // a header, a template set, a package load: timed, never counted as a compile
    std::vector<std::int64_t> baseCompiles, headCompiles;  // compiles (misses, builds, errors) per sample
    std::vector<std::int64_t> baseReuses, headReuses;      // hits and cache loads per sample
    std::vector<std::int64_t> baseCostNs, headCostNs;      // compile time per sample (only where recorded)
    // Named parts of that time per sample, where the tool split it: a file's frontend and backend, a
    // package load's compilation and recompilation.
    std::vector<std::pair<std::string, std::vector<std::int64_t>>> baseParts, headParts;
    std::string baseAnchor, headAnchor;                    // compileAnchor() of its first row, per side
    std::string baseTrace, headTrace;                      // the trace that row is in
    std::string baseTable, headTable;                      // that row: its evidence table and id
    std::int64_t baseRow = 0, headRow = 0;
};

enum class ChangeKind {
    NewCompile,       // compiled in head, never seen in base
    GoneCompile,      // compiled in base, not in head
    NowReused,        // compiled in base, served from a cache in head (a warm run): its compile time saved
    NowCompiled,      // served from a cache in base, compiled in head
    NewRecompile,     // a program / module / function compiled more times in head than in base
    FewerRecompiles,  // ... fewer times
    Slower,           // its compile time rose beyond the noise band
    Faster,
    InsideNoise,      // its compile time moved, inside the noise band
    NewFinding,
    ResolvedFinding,
    VerdictChanged,
};
const char* changeKindName(ChangeKind k);  // "new-compile", "gone", "new-recompile", ...

struct DiffChange {
    ChangeKind kind = ChangeKind::NewCompile;
    std::string subject;  // what changed, in the runtime's words ("cache lookup __main__.add (arg 0: float64)")
    std::string detail;   // the numbers: "1 -> 2 compiles", "12.0 ms -> 30.1 ms (+151 %, band 0.1 ms)"
    double baseMedianNs = 0, headMedianNs = 0, bandNs = 0;
    double percent = 0;       // Slower / Faster / InsideNoise: (head - base) / base x 100
    std::int64_t baseCount = 0, headCount = 0;  // compiles (or findings) per sample, medians
    std::string findingKind;  // NewFinding / ResolvedFinding
    std::optional<size_t> identity;  // index into TraceDiff::identities, where the change is one's
};

struct TraceDiff {
    std::vector<std::string> basePaths, headPaths;
    std::vector<DiffIdentity> identities;  // every identity of either side, in first-seen order
    std::vector<DiffChange> changes;       // new and recompiles first, then cost, findings, verdict
    std::string baseVerdict, headVerdict;  // "pass", "fail", "not applicable" of the first sample
    std::int64_t baseCompiles = 0, headCompiles = 0;  // all compiles, median over samples
    std::int64_t baseCostNs = 0, headCostNs = 0;      // compile time, median over samples
    // Findings by kind: the ones present in each run (first sample), for the JUnit rule cases.
    std::vector<std::pair<std::string, std::string>> baseFindings, headFindings;  // kind, title
    // What the changes leave out, in words: "and 52 more headers changed (+1.90 s)".
    std::vector<std::string> notes;
};

// Headers, template sets and package loads (DiffIdentity::work) listed per kind, largest move first;
// the rest are counted in TraceDiff::notes.
inline constexpr size_t kWorkChangesListed = 10;

// The compile index rows a diff lists on each side (with IndexDetail::Identity: what names each row):
// every compile of any trace a person would diff. `diff` and `report --baseline` analyse with it.
inline constexpr size_t kDiffIndexRows = 200000;

// Both sides must hold at least one analysis built with compileIndexRows > 0.
TraceDiff diffRuns(const Runs& base, const Runs& head);

// Opens and analyses every trace of both sides for a diff (kDiffIndexRows), one trace per core, and
// returns them in argument order; an unreadable trace throws its TraceError (the first in order).
std::pair<Runs, Runs> analyseSides(const std::vector<std::string>& base, const std::vector<std::string>& head);

// What `diff --fail-on` gates on.
struct FailOn {
    bool newCompile = false, newRecompile = false, newFinding = false;
    std::optional<double> slowerPercent;  // slower:PCT
};
// Parses "new-compile,new-recompile,new-finding,slower:10"; throws std::invalid_argument naming the part.
FailOn parseFailOn(const std::string& spec);
bool gates(const DiffChange& c, const FailOn& f);

}  // namespace cs::measure
