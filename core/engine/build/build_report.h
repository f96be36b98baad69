// The build report: what a whole build's clang time traces (and its ninja log) say, in the terms of
// ClangBuildAnalyzer.
//
// Why in the engine: a build imported as 186 time traces is 147k spans; the questions a C++
// developer asks of it are always the same (which files are slow, frontend or backend, which headers
// and templates cost the most, across all files, and which functions are compiled over and over)
// and need sums over every file. They are computed once here, from the spans the TEF importer wrote
// (clang's names, args.detail in spans.detail_sid), and every view renders them: `compilescope
// build-report`, the findings, the GUI.
//
// How each figure is summed (docs/builds.md): a span nested in another span of the same name and
// detail in the same file is counted once (clang's own rule for its "Total" events), so a header
// included inside itself or a recursive instantiation does not count twice. Header time is
// inclusive: a header's "Source" span holds the parsing of everything it includes. A template set
// is the instantiations whose names are equal once every <...> is folded to <$>.
#pragma once

#include "core/engine/build/build_phases.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cs::trace {
class TraceReader;
}

namespace cs::engine {
struct SessionClocks;
}

namespace cs::engine::build {

// One compiled file: one clang time trace (a session).
struct BuildFile {
    std::int64_t sessionId = 0;
    std::string label;          // the session's label (unique, session_labels.h)
    std::string source;         // the imported time trace's path
    std::int64_t startNs = 0;   // ExecuteCompiler's start on the display axis
    std::int64_t spanId = 0;    // the (first) ExecuteCompiler span, to show the file on the timeline
    std::int64_t offsetNs = 0;  // startNs minus the earliest file's: where it began in the build
    std::int64_t totalNs = 0, frontendNs = 0, backendNs = 0;
    // The ninja command that produced the same output (joined by path), when a .ninja_log was imported.
    std::optional<std::int64_t> ninjaSpanId, ninjaNs;
    std::string output;  // that command's output
};

// A header, a template instantiation (or set) or a function, over every file.
struct Cost {
    std::string name;
    std::int64_t ns = 0;      // inclusive time, summed over files
    std::int64_t count = 0;   // occurrences (includes, instantiations, compilations)
    std::int64_t files = 0;   // distinct files it occurred in
    std::int64_t worstSessionId = 0;  // the file where it cost the most
    std::string worstFile;
    std::int64_t worstNs = 0;
    std::int64_t worstSpanId = 0;  // its most expensive span there, the evidence
};

// One command of the ninja log that has no time trace (a link, a generator, a file built without
// -ftime-trace).
struct NinjaTarget {
    std::int64_t spanId = 0;
    std::string output;
    std::int64_t startNs = 0, durNs = 0;  // display axis
    bool joined = false;                  // a time trace of the same output was imported
};

// One step of the critical path: a ninja command (or, without a ninja log, a file's compile).
struct PathStep {
    std::string output;              // the command's output (or the file's label)
    std::int64_t spanId = 0;         // its span, to show it on the timeline
    std::int64_t sessionId = 0;      // for a file's compile: its session; 0 for a ninja command
    std::int64_t startNs = 0, durNs = 0;  // display axis
};

// How busy the build was, and the chain of work that bounded its length.
//
// Why the critical path is by timing only: a .ninja_log records when each command ran, never what it
// waited for (that is in build.ninja and .ninja_deps, which are not imported). So the path is the
// chain a dependency graph would most likely give: from the command that ended last, step to the
// command that ended latest at or before the current one started (what it most plausibly waited
// for), until no command ended before. Each step is a command that really ran back to back with
// the next; the chain is an upper bound of the real critical path's work where slots were free and
// a guess where they were all busy.
struct BuildSchedule {
    bool fromNinjaLog = false;       // false: from the time traces' ExecuteCompiler spans
    std::int64_t targets = 0;        // commands (or files) counted
    std::int64_t wallNs = 0;         // the latest end minus the earliest start
    std::int64_t busyNs = 0;         // the sum of their durations
    double averageParallelism = 0;   // busyNs / wallNs (0 when wallNs is 0)
    int peakConcurrency = 0;         // most running at once (an end and a start at one instant do not overlap)
    std::vector<PathStep> criticalPath;  // in build order: the first command first
    std::int64_t criticalPathNs = 0;     // the sum of the path's durations
};

struct BuildReport {
    std::vector<BuildFile> files;  // by total time, largest first
    std::int64_t totalNs = 0, frontendNs = 0, backendNs = 0;  // sums over the files
    std::int64_t spanStartNs = 0, spanEndNs = 0;  // the build on the display axis (files and ninja commands)
    int peakParallelism = 0;  // most files (or ninja commands) running at once
    std::vector<Cost> headers;          // by inclusive parse time
    std::vector<Cost> templates;        // instantiations, by name
    std::vector<Cost> templateSets;     // instantiations, names folded
    std::vector<Cost> optimisedFunctions;  // OptFunction
    std::vector<Cost> generatedFunctions;  // CodeGen Function
    std::vector<PhaseCost> phases;          // every event name, frontend or backend (build_phases.h)
    std::vector<NinjaTarget> ninjaTargets;  // every ninja command, by start
    std::int64_t ninjaJoined = 0;            // of which joined to a time trace
    BuildSchedule schedule;                  // from the ninja commands, or the files without a ninja log

    bool empty() const { return files.empty() && ninjaTargets.empty(); }
};

// "std::vector<int, std::allocator<int>>::push_back" -> "std::vector<$>::push_back".
std::string foldTemplateArguments(std::string_view name);

// Wall span, busy time, parallelism and the critical path of these intervals (start, duration) on the
// display axis. Exposed for the tests.
BuildSchedule buildSchedule(const std::vector<PathStep>& targets, bool fromNinjaLog);

// Lists are cut to `keep` rows each (the sums are over everything).
BuildReport buildReport(const trace::TraceReader& reader, const SessionClocks& clocks, size_t keep = 50);

}  // namespace cs::engine::build
