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

#include "load_control.h"
#include "span_scan.h"

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
    std::int64_t ns = 0;     // union of its intervals (plus untimed durations)
    std::int64_t items = 0;  // how many compile facts fed it
};

struct SessionSummary {
    std::int64_t id = 0;
    std::string label, runtime;
    std::optional<std::int64_t> startNs, endNs;
};

struct CompileSummary {
    std::vector<SessionSummary> sessions;
    std::vector<std::pair<std::string, std::int64_t>> rowCounts;  // fact tables that have rows
    std::int64_t wallNs = 0;     // union of the sessions' lifetimes; 0 when nothing is timed
    std::int64_t compileNs = 0;  // union of all compile intervals + untimed compile durations
    std::vector<TimeShare> byCategory, byRuntime;  // largest first
    std::vector<std::string> problems;  // the trace's stats rows, one readable line each

    // compileNs / wallNs, or nullopt when the wall time is unknown.
    std::optional<double> compileShare() const;
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
