// The cache facts of a trace, loaded once into plain vectors for the replay engine.
//
// Why a separate load step: every cache analysis (replay, miss attribution, acceptance, poisoning,
// holes, what-if, rank divergence) walks the same lookups in the same order. Reading SQLite once
// and keeping interned string ids (equal id = equal text inside one trace) makes key comparison an
// integer comparison, which is what lets the replay run at millions of lookups per second (see
// benchmarks/bench_replay.cpp). Text is looked up only when a result is printed.
//
// The ReactantNitro guide (docs/cache-replay.md), "What is in the key": "Device fields are traced inputs rebuilt every step, so hashing
// them would miss on every step. Host fields are not in the traced view at all." So a component
// with role device or host is kept (it is shown beside a hit or miss) but never compared.
#pragma once

#include <compilescope/trace_constants.h>

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace cs::trace {
class TraceReader;
}

namespace cs::engine {

using Sid = std::int64_t;  // an interned string id of the trace; 0 = none

struct KeyComponent {
    Sid name = 0;
    int role = CS_ROLE_OTHER;
    Sid digest = 0;  // what equality compares: digest_sid, or value_sid when no digest was recorded
    Sid value = 0;   // human-readable value, or the digest when no value was recorded
    // The ReactantNitro guide (docs/cache-replay.md): Device and Host fields are excluded from the key.
    bool inKey() const { return role != CS_ROLE_DEVICE && role != CS_ROLE_HOST; }
};

struct ClosureMethod {
    Sid method = 0;
    std::optional<std::int64_t> world{};  // the method's world age the entry was compiled against
};

struct Lookup {
    // cache_lookups.id; for a Warp module load (warp/warp_cache_lookups.h) minus its module_loads.id,
    // so ids stay distinct in a trace holding both.
    std::int64_t id = 0;
    std::optional<std::int64_t> moduleLoad{};  // module_loads.id when this lookup is a Warp module load
    std::int64_t sessionId = 0;
    std::int64_t tsNs = 0;
    Sid cache = 0, program = 0, handle = 0;
    int verdict = CS_VERDICT_UNKNOWN;  // the runtime's own verdict
    std::optional<std::int64_t> compileNs{};
    Sid fingerprint = 0;
    std::optional<std::int64_t> step{};  // recorded, or the last `steps` row at or before ts_ns
    std::vector<KeyComponent> components{};  // in ordinal order
    std::vector<ClosureMethod> closure{};    // only on the miss that created an entry
};

// "lookup #12", or "module load #3" for a Warp module load: how every front end names a lookup.
std::string lookupName(const Lookup& l);
// The trace table and row id a lookup came from (a finding's evidence).
const char* lookupTable(const Lookup& l);
std::int64_t lookupRowId(const Lookup& l);

struct MethodEvent {
    std::int64_t id = 0;  // methods.id
    std::int64_t sessionId = 0;
    std::optional<std::int64_t> tsNs{};
    int event = CS_METHOD_DEFINE;
    Sid method = 0;
    std::optional<std::int64_t> world{};
};

// One cache_stats() snapshot: the counters named hits / misses / entries read at one instant.
struct CounterSnapshot {
    std::vector<std::int64_t> rowIds{};  // counters.id of each value
    std::int64_t sessionId = 0;
    std::int64_t tsNs = 0;
    Sid scope = 0;
    std::optional<std::int64_t> hits{}, misses{}, entries{};
};

class CacheFacts {
public:
    std::vector<Lookup> lookups{};   // ordered by (session, ts, id)
    std::vector<MethodEvent> methods{};  // ordered by (session, ts, id); NULL ts first
    std::vector<CounterSnapshot> counters{};  // ordered by (session, ts)
    std::unordered_map<Sid, std::string> strings{};  // a map: ids come from an untrusted file
    // The runtime's own words on why a lookup missed (JAX's explanation, runtime_notes.h), by index
    // into `lookups`; shown where the replay alone would say "first compile".
    std::unordered_map<size_t, std::vector<std::string>> runtimeReasons{};
    // The importer met lines out of time order (stat out_of_order_line): the replay, which follows
    // time, cannot judge the runtime's verdicts, which are taken as printed (runtime_notes.h).
    bool linesOutOfOrder = false;

    const std::string& str(Sid id) const;
    // Interns `s` (used by tests, the benchmark and what-if); returns its id.
    Sid intern(const std::string& s);
    // Id of `s` when present, else 0.
    Sid find(const std::string& s) const;
    bool empty() const { return lookups.empty(); }
};

// Reads the cache tables (cache_lookups, key_components, closures, methods, counters, steps).
// Throws TraceError on a query failure (the reader already refused malformed files).
CacheFacts loadCacheFacts(const trace::TraceReader& reader);

}  // namespace cs::engine
