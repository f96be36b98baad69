// What a runtime printed about its own cache, beside the lookups the replay reads.
//
// Why (issue 35): JAX explains each tracing-cache miss itself ("different input types: x now f32[8]
// and before f32[4]"); the JAX importer keeps those words as the reasons of the miss's span. The
// replay only sees the keys JAX printed, so a function first seen in a cut log read as "first
// compile: no earlier entry", and a key after a "never seen function" miss, whose types JAX never
// printed, read as "(absent) -> f32[4]". And a log whose lines are out of time order (pasted from
// several places) makes the time-ordered replay disagree with the runtime about the log, not the
// program. Both are loaded here for the replay's views: the runtime's reasons where the replay has
// none, and the note that the runtime's verdicts are taken as printed.
#pragma once

#include "core/engine/cache/cache_facts.h"

#include <string>
#include <vector>

namespace cs::trace {
class TraceReader;
}

namespace cs::engine {

// The cache whose misses carry JAX's explanations (the jax-log importer's and record --jax's name).
inline constexpr const char* kJaxTracingCache = "jax tracing cache";

// Fills facts.runtimeReasons (from the `reason N` args of the "TRACING CACHE MISS" spans, paired with
// the tracing-cache misses of the same session and time, in order) and facts.linesOutOfOrder (stat
// out_of_order_line).
void loadRuntimeNotes(const trace::TraceReader& reader, CacheFacts& facts);

// The runtime's reasons as one line: the detailed ones ("different input types: x now f32[8] and
// before f32[4]"), or the headings alone when it printed no detail. "" when there are none.
std::string runtimeReasonText(const std::vector<std::string>& reasons);

// The "before" value the runtime printed for a component whose value is now `after`
// ("... now f32[8] and before f32[4]" -> "f32[4]"); "" when no reason says.
std::string runtimeBefore(const std::vector<std::string>& reasons, const std::string& after);

}  // namespace cs::engine
