// PyTorch and JAX facts that are not cache lookups: the recompile-limit warnings, cache bypasses,
// persistent-cache writes and compiles a log left incomplete, and the persistent-cache history of
// each key.
//
// Why a report of its own: the torch and jax importers write these as spans tagged with a `jit_event`
// arg (torch_recompiles_importer.h, torch_trace_importer.h, jax_log_importer.h), because they are
// events on the timeline, not lookups the replay should count. The findings need them next to the
// cache analysis: a limit hit names the guard that kept failing, a bypass its reason, and a write is
// only worth its cost if some later run reads the key.
//
// Key histories (JAX's persistent compilation cache) relate every row of one key (writes, misses, hits) whatever the
// order of the lines that produced them: JAX logs from several processes are often concatenated or
// pasted out of order (jax#22556 prints a hit before the miss that preceded it), so the rows are
// grouped by key and then ordered by time.
#pragma once

#include "core/engine/cache/cache_analysis.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace cs::trace {
class TraceReader;
}

namespace cs::engine::jit {

struct JitEvent {
    std::int64_t spanId = 0, sessionId = 0, tsNs = 0;
    std::string kind;  // recompile_limit, cache_bypass, persistent_cache_write, compile_incomplete
    std::string name;  // the span's name
    std::map<std::string, std::string> args;
    std::string arg(const std::string& key) const;
};

struct KeyHistory {
    std::string cache, program, key;
    std::vector<size_t> writes;   // indices into JitReport::events
    std::vector<size_t> lookups;  // indices into CacheFacts::lookups (misses and hits)
    std::int64_t firstNs = 0;
};

struct JitReport {
    std::vector<JitEvent> events;          // by time
    std::vector<KeyHistory> persistentKeys;  // by first time
    bool empty() const { return events.empty() && persistentKeys.empty(); }
};

// `cache` may be null (no lookups). Reads only spans that carry a jit_event arg.
JitReport loadJitReport(const trace::TraceReader& reader, const CacheAnalysis* cache);

// Findings of PyTorch / JAX logs: integer specialisation churn, shape churn, recompile limit hit,
// cache bypass, persistent-cache writes never read, compiles left incomplete, global state guard
// failures. Kinds "jit.*".
std::vector<Finding> jitFindings(const JitReport& report, const CacheAnalysis* cache);

}  // namespace cs::engine::jit
