// What the HTML report shows of one trace: the engine's analysis (trace_analysis.h), shaped for
// the sections.
//
// Why a model between the analysis and HTML: each section wants its own cut of the analysis (the
// first N rows of long lists with the total beside them, trees cut at a node budget); the shaping
// happens once here and the renderers only format. Nothing in the report reads the trace: every
// figure comes from the analysis, so the report, the CLI and the GUI agree. The GUI's export calls
// the same functions through writeReport().
#pragma once

#include "core/engine/common/finding.h"
#include "core/engine/analysis/trace_analysis.h"
#include "core/engine/analysis/trace_figures.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cs::report {

using engine::kMaxListedRows;
using engine::FamilyCount;
using engine::StatRow;
using engine::AcceptanceRule;
using engine::PhaseRow;
using engine::Phases;
using Timeline = engine::TimelineDigest;
using TimelineLane = engine::DigestLane;

// The summary tiles and verdict, every figure taken from the engine's analysis.
struct Summary {
    std::int64_t sessions = 0, unfinishedSessions = 0;
    std::vector<std::string> runtimes;
    std::optional<std::int64_t> startNs, endNs;  // the analysis's time span (display axis)
    std::vector<FamilyCount> families;
    std::vector<StatRow> stats;
    std::int64_t statKinds = 0;
    std::int64_t lookups = 0, misses = 0;
    std::int64_t compileNs = 0, cacheLoadNs = 0, untimedCompiles = 0;
    std::optional<double> compileShare;  // only with a wall clock
    std::optional<double> recompileShare;
    std::string timeBases;  // "2 sessions on a recorded clock, 1 sequence only"
    std::int64_t moduleLoads = 0, modulesCompiled = 0;
    std::int64_t moduleCompileNs = 0;  // the compiling loads' compile time (not the cached loads' time)
    std::int64_t cudaPrograms = 0;
    std::int64_t phaseRows = 0, phaseNs = 0;
    engine::AcceptanceVerdict verdict;
};

struct KeyChange {
    std::string component, before, after;
    bool inKey = true;  // false: a Device / Host field that changed alongside, not the cause
};

struct MissRow {
    std::int64_t lookupId = 0, tsNs = 0;
    std::optional<std::int64_t> step, compileNs;
    std::string program, handle, cache;
    std::string reason;               // one line
    std::vector<KeyChange> changes;   // components that differ from the nearest earlier entry
};

struct CacheMisses {
    std::int64_t total = 0;
    std::vector<MissRow> rows;  // first kMaxListedRows
    std::string source;         // "replay engine" or "raw tables"
};

struct ModuleGroup {
    std::string name, device;
    std::int64_t loads = 0, compiled = 0, cached = 0, errors = 0, totalNs = 0;
    std::vector<std::string> hashes;  // distinct, in load order
    std::vector<std::int64_t> blockDims;
    std::vector<std::string> notes;   // what differs / which mechanism
    bool repeated = false;            // built under more than one identity
};

struct RepeatedHashes {
    std::int64_t modules = 0, repeated = 0;  // names, and names with more than one identity
    std::vector<ModuleGroup> rows;
    std::string source;
};

struct InvalidationNode {
    std::string label;      // as SnoopCompile prints the line
    std::string kind;       // inserting / deleting / mt_backedges / backedges / item kind
    std::int64_t children = 0;
    std::optional<std::int64_t> costNs;
    std::vector<InvalidationNode> kids;
    // A tree's root: its keys in TraceFigures ("invalidations.tree.2") and their texts, shown in place
    // of children and cost, beside its invalidated MethodInstances (engine/analysis/trace_figures.h, issue 35).
    std::string figureKey{};
    std::string childrenText{}, invalidatedText{}, costText{};
};

struct Invalidations {
    std::int64_t items = 0, roots = 0;  // items: raw items + printed tree lines read
    std::vector<InvalidationNode> trees;  // costliest first, cut (see section_invalidations.cpp)
    std::vector<std::string> problems;    // what the builder could not attribute
    std::string source;
};



struct TraceReport {
    std::string path, label;
    // Rendered section by section. A report over more traces than ReportOptions::detailedTraces (the
    // ranks of a large job) details the first and those the Ranks section names; the others are
    // analysed without a timeline digest or compile index and appear in Ranks only.
    bool detailed = true;
    std::shared_ptr<const engine::TraceAnalysis> analysis;  // what every section renders
    // Every keyed figure (engine/analysis/trace_figures.h): a tile or table cell that shows one carries its
    // key as data-figure and takes its value from here.
    engine::TraceFigures figures;
    Summary summary;
    std::vector<engine::Finding> findings;
    Timeline timeline;
    CacheMisses misses;
    RepeatedHashes modules;
    Invalidations invalidations;
    Phases phases;
    // Comparison samples: metric -> durations (ns); and the launch topology (kernel, grid, block -> n).
    std::map<std::string, std::vector<std::int64_t>> samples;
    std::map<std::string, std::int64_t> launchTopology;
};

}  // namespace cs::report
