// `compilescope fix`: for each finding whose fix is mechanical, the change that applies it.
//
// Why in the engine: the change is derived from the analysis (the finding, the lookups and module
// loads that prove it) plus the user's source file, which the collectors name (`file:line` of a
// PyTorch frame, a JAX function, a Numba dispatcher; the script of a Warp session). The CLI, the
// report and the GUI show the same plan. The rules per runtime are in docs/fix.md.
#pragma once

#include "core/engine/fix/fix_change.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace cs::trace {
class TraceReader;
}

namespace cs::engine {
struct CacheAnalysis;
struct Finding;
struct InvalidationForest;
struct JuliaTimingReport;
}

namespace cs::engine::fix {

// The text of a source file, or nullopt when it cannot be read.
using SourceReader = std::function<std::optional<std::string>(const std::string& path)>;
SourceReader diskReader();

// One `--trace-compile` statement of a Julia log: the signature and its time (0 when untimed).
struct JuliaStatement {
    std::string signature;
    std::int64_t ns = 0;
};

struct FixContext {
    SourceReader read = diskReader();
    std::map<std::int64_t, std::string> scripts;  // session id -> the Python script its command ran
    std::vector<JuliaStatement> julia;             // in log order
};

// What the rules read of an analysed trace: its findings and the analyses their evidence names.
// The fix rules sit below the analysis that assembles TraceAnalysis (docs/architecture.md, "Inside
// the engine"), so they take its parts; engine/analysis/fix_sources.h makes one of a TraceAnalysis.
struct FixSources {
    std::string path;                               // the trace file ("" for an analysis made in memory)
    std::span<const Finding> findings;
    const CacheAnalysis* cache = nullptr;           // null: the trace recorded no cache lookups
    const InvalidationForest* invalidations = nullptr;
    const JuliaTimingReport* juliaTiming = nullptr;  // null: no Julia timing output
};

// Reads what the plan needs beyond the analysis: each session's script (a relative path is taken
// from `baseDir`) and the Julia statements.
FixContext loadFixContext(const trace::TraceReader& reader, const std::string& baseDir, SourceReader read = diskReader());

// The changes for every finding (or only `only`, an index into analysis.findings).
FixPlan planFixes(const FixSources& analysis, const FixContext& context, std::optional<size_t> only = std::nullopt);

}  // namespace cs::engine::fix
