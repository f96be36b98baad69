// RowStory: what one row of the timeline means, in the user's words, from the trace's analysis.
//
// Why: a details pane or a tooltip that prints a database row ("verdict: 2", "compile_ns:
// 496000000000") makes the user decode it (issue 39). The analysis already knows the answers: which
// key component moved for a miss (miss_attribution.h), the compile the miss caused and its cost, the
// finding the row is evidence of, a Warp load's identity among its module's hashes. This puts them
// into sentences once, for the timeline's tooltips and its Details tab alike. Reads no SQLite: it
// runs on the GUI thread over the immutable analysis.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cs::engine {

struct TraceAnalysis;

struct RowStory {
    std::string headline;            // "miss: shape of arg 2 moved 128x64 → 100x64; compile 1.00 s"
    std::vector<std::string> lines;  // further sentences: the finding, what was compared, the cost
};

// A cache_lookups row (its id). Empty when the analysis holds no such lookup.
std::optional<RowStory> lookupStory(const TraceAnalysis& analysis, std::int64_t lookupId);
// A module_loads row (its id): hash, identity n of m of its module, compiled or cached, its cost.
std::optional<RowStory> moduleLoadStory(const TraceAnalysis& analysis, std::int64_t loadId);
// A compile span of session `sessionId` over [startNs, endNs) (raw trace time): the missed lookup
// that caused it, when one of that session falls inside it. Empty when none does.
std::optional<RowStory> compileCauseStory(const TraceAnalysis& analysis, std::int64_t sessionId, std::int64_t startNs,
                                          std::int64_t endNs);
// The title of the first finding that lists row `rowId` of `table` as evidence; "" when none does.
std::string findingOf(const TraceAnalysis& analysis, const std::string& table, std::int64_t rowId);

}  // namespace cs::engine
