// Cache replay: re-run a runtime's program cache from the lookups a trace recorded.
//
// Why: the ReactantNitro guide (docs/cache-replay.md) says an unintended recompile "raises no error and produces the same graph; the only
// symptom is lost time" (a gradient program took 496 s to compile). The runtime says only hit or
// miss. Replaying its cache rule over the recorded keys lets us say *why*, check the runtime's own
// verdicts and counters, and rerun the same trace under a changed rule (whatif.h).
//
// The rule replayed (the ReactantNitro guide, restated in docs/cache-replay.md, The rules):
//  - "Programs are keyed and stored once per process, not once per Nitro": one cache per session;
//    a key is (cache, program, every component whose role is in the key, by name and digest).
//  - A lookup hits iff an unpoisoned entry with an equal key exists; a miss creates the entry.
//  - "An existing handle is a fixed point and keeps the programs it was built with, now stale": a
//    handle that already holds a program is served it from its own memo even after the cache entry
//    is poisoned; that lookup is a hit (as the runtime counts it) and is marked stale.
//  - Closure poisoning at the next entry point after a redefinition (poisoning.h).
// Every lookup whose recorded runtime verdict differs from the replay's is a disagreement, and every
// cache_stats() snapshot is compared with the replay's hits / misses / entries at that instant.
// A persistent cache (its name says "disk" or "persistent", e.g. Numba's numba.disk_cache) outlives
// the process: a runtime hit on a key the trace never compiled was loaded from what an earlier,
// unrecorded process stored, so the replay takes it as a load, not as a disagreement.
#pragma once

#include "core/engine/cache/cache_facts.h"
#include "core/engine/cache/poisoning.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cs::engine {

// Which components take part in the key. The default is the runtime's rule (roles device and host
// excluded); what-if replays override it by component name or role name.
struct KeyRule {
    std::vector<std::string> exclude{};  // component names (or role names) removed from the key
    std::vector<std::string> include{};  // component names (or role names) added to the key
    bool isDefault() const { return exclude.empty() && include.empty(); }
};

struct LookupOutcome {
    bool hit = false;    // the replay's verdict
    bool memo = false;   // served from the asking handle's own memo
    bool loaded = false; // a persistent cache's entry stored before the trace began
    bool stale = false;  // served a program whose cache entry was poisoned
    bool disagrees = false;  // the runtime's recorded verdict says otherwise
    std::int32_t entry = -1;  // index into ReplayResult::entries: used (hit) or created (miss)
    std::uint32_t key = 0;    // key id; equal ids = equal keys
};

struct CacheEntry {
    size_t createdBy = 0;  // index into CacheFacts::lookups of the miss that compiled it
    std::uint32_t key = 0;
    std::int64_t sessionId = 0;
    Sid program = 0;
    std::optional<size_t> poisonedBy{};   // index into ReplayResult::poisonEvents
    std::optional<std::int32_t> replaces{};  // a poisoned entry with the same key this one recompiled
};

// The per-handle stale report (the ReactantNitro guide's (docs/cache-replay.md) second message).
struct StaleHandle {
    std::int64_t sessionId = 0;
    Sid handle = 0;
    std::vector<std::int32_t> entries{};  // poisoned entries the handle was served, in first-served order
    std::vector<std::string> methods{};   // methods whose redefinition made them stale
    size_t firstLookup = 0;             // index of the first stale-served lookup
    size_t staleLookups = 0;            // how many lookups were served a stale program
};

struct ReplayCounts {
    std::int64_t hits = 0, misses = 0, entries = 0;  // entries = live (unpoisoned) entries
    std::int64_t loads = 0;  // hits that loaded a persistent cache's entry (entries without a miss)
};

// The runtime's cache_stats() snapshot against the replay at the same instant.
struct CounterCheck {
    size_t snapshot = 0;  // index into CacheFacts::counters
    std::optional<size_t> afterLookup{};  // the last lookup of the session before the snapshot
    ReplayCounts replay{};
    bool agrees = true;
    std::string detail{};  // e.g. "misses: runtime 4, replay 3"
};

struct ReplayResult {
    std::vector<LookupOutcome> outcomes{};  // parallel to CacheFacts::lookups
    std::vector<CacheEntry> entries{};
    std::vector<PoisonEvent> poisonEvents{};
    std::vector<StaleHandle> staleHandles{};
    std::vector<size_t> disagreements{};  // lookup indices, in order
    std::vector<CounterCheck> counterChecks{};
    std::map<std::int64_t, ReplayCounts> perSession{};
    ReplayCounts total{};
    std::uint32_t distinctKeys = 0;
};

ReplayResult replayCache(const CacheFacts& facts, const KeyRule& rule = {});

// Whether component `c` is in the key under `rule` (names and role names compared as text).
bool componentInKey(const CacheFacts& facts, const KeyComponent& c, const KeyRule& rule);
// Whether a cache outlives its process (see above).
bool persistentCache(const std::string& cacheName);
// "shape", "graphconst", ... (the key_role enum's names).
const char* roleName(int role);

}  // namespace cs::engine
