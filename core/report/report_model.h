// What the HTML report knows about one trace: the facts each section renders, gathered once.
//
// Why a model between SQL and HTML: the report must stay small and fast on a 1M-event trace, so each
// section reduces its rows while reading them (buckets for the timeline, groups for modules and
// phases, the first N rows of long lists with the total beside them); the renderers then only format.
// The GUI's export calls the same collectors and renderers through writeReport().
#pragma once

#include "core/engine/finding.h"
#include "core/engine/session_clocks.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cs::report {

// Rows shown of long lists; the section says how many more the trace holds.
constexpr size_t kMaxListedRows = 300;

struct FamilyCount {
    std::string family;
    std::int64_t rows = 0;
};

struct StatRow {
    std::string name, source, detail;
    std::int64_t count = 0;
};

// The seed 000 acceptance rule, judged per cache: misses == entries, no miss after the first step.
struct AcceptanceRule {
    std::string rule;    // "misses == entries"
    std::string scope;   // cache or program the rule was judged on
    bool pass = true;
    std::string detail;  // the numbers behind the verdict
};

struct Summary {
    std::int64_t sessions = 0, unfinishedSessions = 0;
    std::vector<std::string> runtimes;
    std::optional<std::int64_t> startNs, endNs;
    std::vector<FamilyCount> families;
    std::vector<StatRow> stats;
    std::int64_t lookups = 0, misses = 0, compileNs = 0;  // cache lookups, and their compile time
    std::int64_t moduleLoads = 0, modulesCompiled = 0, moduleNs = 0;
    std::int64_t cudaPrograms = 0, cudaNs = 0;
    std::int64_t phaseRows = 0, phaseNs = 0;
    std::vector<AcceptanceRule> acceptance;  // empty: the trace has no cache facts to judge
    std::string acceptanceSource;            // which code judged it
};

// The timeline, reduced to a fixed number of buckets per lane whatever the trace's size.
struct TimelineLane {
    std::string name;
    std::int64_t events = 0, busyNs = 0;
    std::vector<std::int64_t> bucketBusyNs, bucketEvents;
    bool marks = false;  // instants (cache misses): drawn as ticks, not bars
};

struct Timeline {
    std::int64_t startNs = 0, endNs = 0;
    int buckets = 0;
    std::vector<TimelineLane> lanes;
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
};

struct Invalidations {
    std::int64_t items = 0, roots = 0;  // items: raw items + printed tree lines read
    std::vector<InvalidationNode> trees;  // costliest first, cut (see section_invalidations.cpp)
    std::vector<std::string> problems;    // what the builder could not attribute
    std::string source;
};

struct PhaseRow {
    std::string tool, phase, arch;
    std::int64_t count = 0, totalNs = 0, maxNs = 0;
};

struct Phases {
    std::int64_t timings = 0, totalNs = 0;
    std::vector<PhaseRow> rows;
};

struct TraceReport {
    std::string path, label;
    // Where each session sits on the display axis (each clock domain from zero); read once, used by
    // the summary's time span and the timeline.
    engine::SessionClocks clocks;
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
