// Search over span arguments: a Warp init's device, a Julia span's expression, a TEF event's args.
//
// Why a query at search time and not an index in TimelineData: arguments are text of any length on
// any span, and keeping them in memory would cost every recorded trace of millions of spans bytes
// per event for a search a user runs now and then. The query scans span_args once (a few hundred ms
// per million arguments) on the caller's thread, which in the GUI is a worker: the GUI thread never
// touches SQLite. What it returns (span ids, ascending) joins the in-memory name search
// (searchTimeline's `argSpans`), so hits by name and by argument are one result.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace cs::trace {
class TraceReader;
}

namespace cs::engine {

struct ArgMatch {
    std::int64_t spanId = 0;
    std::string text;  // the first matching argument of the span, "key=value"
};

// Spans with an argument whose value contains `needle` (ASCII case-insensitive), or, when the needle
// holds '=', whose "key=value" does. One entry per span, ascending span ids, at most `limit`.
// Throws trace::TraceError when the query fails (a corrupt file).
std::vector<ArgMatch> spansWithMatchingArgs(const trace::TraceReader& reader, std::string_view needle,
                                            std::size_t limit = std::numeric_limits<std::size_t>::max());

// The span ids of `matches`, in their (ascending) order: searchTimeline's `argSpans`.
std::vector<std::int64_t> spanIds(const std::vector<ArgMatch>& matches);

}  // namespace cs::engine
