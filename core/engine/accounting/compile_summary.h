// CompileSummary: the first answer the GUI's Overview (and anyone else) gives about a trace:
// how much time went into compiling, what share of the wall time that is, split by category and
// by runtime.
//
// Why union and not sum: compile spans nest (a Julia compile contains inference and codegen) and
// several sources can describe the same work (an NVRTC span from the collector and its
// --time phases). Summing would count the same second twice, so each total is the union of its
// intervals. Facts without a timestamp (nvcc --time phases, logged module builds) cannot overlap
// anything we know of and are added as they are, top-level items only.
//
// Why a merge of sorted tracks: at 10M spans, collecting every interval and sorting it cost seconds
// and 16 bytes per interval three times over (all, by category, by session). The loader's scan
// (span_scan.h) already holds every track sorted by start, so a k-way merge by start visits all
// compile intervals in time order, and each union is a running length with O(1) memory.
#pragma once

#include "core/engine/common/load_control.h"
#include "core/engine/common/session_time.h"
#include "core/engine/timeline/span_scan.h"
#include "core/util/saturating.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cs::trace {
class TraceReader;
}

namespace cs::engine {

struct TimeShare {
    std::string name;
    std::int64_t ns = 0;     // union of its intervals within each clock domain (plus untimed durations)
    std::int64_t items = 0;  // how many facts fed it
};

struct SessionSummary {
    std::int64_t id = 0;
    std::string label, runtime, clock;
    std::string command;  // command line, or the imported file
    std::optional<std::int64_t> pid;
    std::optional<std::int64_t> startNs, endNs;  // in the session's own clock
    std::optional<std::int64_t> exitStatus;
    TimeBase base = TimeBase::OwnClock;
    std::int64_t offsetNs = 0;  // add to place the session's timestamps on the display axis
    // The session's extent on the display axis (its lifetime, widened by its facts); unset when the
    // session holds no time at all.
    std::optional<std::int64_t> firstNs, lastNs;
};

// Compile accounting, defined once (docs/accounting.md). Every view shows these figures.
struct CompileSummary {
    std::vector<SessionSummary> sessions;
    std::vector<std::pair<std::string, std::int64_t>> rowCounts;  // fact tables that have rows
    // Work that produced code: compile spans, compiled module loads, NVRTC / nvJitLink, driver JIT
    // compiles, compiler phases, cache misses whose compile time was recorded without a span, Julia
    // compile shares. The union of intervals within each clock domain, summed over the domains, plus
    // durations that carry no timestamp.
    std::int64_t compileNs = 0;
    std::int64_t clockedCompileNs = 0;  // the part of compileNs on a wall clock (recorded or own clock)
    // Loading code already compiled (cache-load spans, cached module loads, driver JIT cache loads):
    // shown beside compile time, never inside it. Same union rule.
    std::int64_t cacheLoadNs = 0;
    std::int64_t untimedCompiles = 0;  // compile facts without a duration: a count, never "0 ns"
    // Compiler-phase spans (category phase) on the trace's tracks, when the spans were swept; unset
    // when not, so a reader that needs them (trace_facts.h) queries instead of trusting a 0.
    std::optional<std::int64_t> phaseSpans;
    std::int64_t recompileNs = 0;      // of which recompilation, where the runtime reports it (Julia)
    std::int64_t reportedCompileNs = 0;  // the compile time those recompile shares are of
    bool wallClock = false;  // some session has a wall clock (recorded or its own)
    std::int64_t wallNs = 0;  // union of the clocked sessions' lifetimes within each domain, summed
    // The time span on the display axis: the clocked work when the trace has some, else the work laid
    // end to end. Unset when nothing in the trace is timed.
    std::optional<std::int64_t> spanStartNs, spanEndNs;
    std::vector<TimeShare> byCategory, byRuntime;  // compile time, largest first
    std::vector<TimeShare> cacheLoads;             // cache-load time by kind, largest first
    std::vector<std::string> problems;  // the trace's stats rows, one readable line each

    // clockedCompileNs / wallNs, or nullopt when there is no wall clock.
    std::optional<double> compileShare() const;
    // recompileNs / reportedCompileNs where the runtime reported recompilation.
    std::optional<double> recompileShare() const;
    std::int64_t spanNs() const { return spanStartNs && spanEndNs ? util::satSub(*spanEndNs, *spanStartNs) : 0; }
    int sessionsOf(TimeBase base) const;
};

// Reads the trace (spans with the ordered scan of span_scan.h) and summarizes it.
CompileSummary summarizeCompileTime(const trace::TraceReader& reader, const LoadControl& control = {});

// The same summary, fed by someone else's scan of the spans (the GUI's timeline load keeps its
// sorted tracks for it, so the spans table is read once for both). The other tables are read at construction; addAll() merges every
// track's sorted spans by start and folds them into running unions (O(1) memory per question: all,
// by category, by session); finish() adds the row counts, the wall time and the stats.
class CompileSummaryBuilder {
public:
    explicit CompileSummaryBuilder(const trace::TraceReader& reader);  // reads sessions, tracks, small tables
    ~CompileSummaryBuilder();
    CompileSummaryBuilder(const CompileSummaryBuilder&) = delete;
    CompileSummaryBuilder& operator=(const CompileSummaryBuilder&) = delete;

    // Every track of the trace, by id.
    const std::vector<std::int64_t>& trackIds() const;
    // Every track's spans at once (tracks[i] holds track trackIds[i]), each in start order. Once.
    void addAll(const std::vector<std::int64_t>& trackIds, const std::vector<TrackSpans>& tracks);
    // Call once, after addAll() (or without it for a trace without spans).
    CompileSummary finish(const LoadControl& control = {});

private:
    struct Impl;
    std::unique_ptr<Impl> m;
};

}  // namespace cs::engine
