// CompileSummary: the first answer the GUI's Overview (and anyone else) gives about a trace:
// how much time went into compiling, what share of the wall time that is, split by category and
// by runtime.
//
// Why union and not sum: compile spans nest (a Julia compile contains inference and codegen) and
// several sources can describe the same work (an NVRTC span from the collector and its
// --time phases). Summing would count the same second twice, so each total is the union of its
// intervals. Facts without a timestamp (nvcc --time phases, logged module builds) cannot overlap
// anything we know of and are added as they are, top-level items only.
#pragma once

#include "load_control.h"

#include <cstdint>
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

CompileSummary summarizeCompileTime(const trace::TraceReader& reader, const LoadControl& control = {});

}  // namespace cs::engine
