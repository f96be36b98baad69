// Closure poisoning: the cache's second guard, replayed.
//
// The ReactantNitro guide (docs/cache-replay.md), "The second guard: the dependency closure": "Each cached program also records the
// transitive closure of the methods it was compiled against, and train!, validate, evaluate and
// predict re-resolve that closure against live dispatch on entry, poisoning any entry whose methods
// moved. A redefinition anywhere below the hooks therefore misses for a new Nitro." And: "The scan is
// memoized on the world counter, so an entry point that follows no redefinition pays one counter
// comparison and skips the re-resolution entirely."
//
// In a trace the entry point is the next cache lookup after a redefinition (the first thing train!
// does that the cache sees), so the guard scans there, once per batch of redefinitions. A poisoned
// entry is deleted from the cache, as the runtime deletes it; a handle that already holds it keeps
// it (the handle is a fixed point) and is stale, which cache_replay.cpp reports per handle.
//
// The two messages (the ReactantNitro guide (docs/cache-replay.md)): the cache-level line "names how many entries were poisoned and which
// methods drifted" and fires once per redefinition, whichever handle runs next; the per-handle line
// "! this handle's compiled programs had dependency methods redefined" fires only when the running
// handle holds one of the poisoned programs.
#pragma once

#include "core/engine/cache/cache_facts.h"

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace cs::engine {

// The runtime's per-handle line, verbatim (the ReactantNitro guide (docs/cache-replay.md)).
inline constexpr const char* kStaleHandleLine = "! this handle's compiled programs had dependency methods redefined";

// One scan at an entry point that poisoned at least one entry: the cache-level message.
struct PoisonEvent {
    std::int64_t sessionId = 0;
    size_t atLookup = 0;                 // index into CacheFacts::lookups of the entry point
    std::vector<size_t> entries{};         // indices into ReplayResult::entries
    std::vector<std::string> drifted{};    // method names, in first-seen order, unique
    std::vector<std::int64_t> methodRows{};  // methods.id of the redefinitions that caused it
    std::string message{};                 // the cache-level line
};

// A redefinition the guard has seen, per method.
struct Redefinition {
    size_t order = 0;  // replay position: lookups processed before it
    std::optional<std::int64_t> world{};
    std::int64_t methodRow = 0;
};

// The state the guard keeps between entry points within one session (one process, one cache).
class ClosureGuard {
public:
    // Records a define / redefine / delete. Definitions of new methods poison nothing; a redefinition
    // or deletion of a method some closure holds does.
    void onMethodEvent(const MethodEvent& e, size_t order);
    // Whether a redefinition arrived since the last scan (the memo on the world counter).
    bool scanDue() const { return m_pending; }
    void scanned() { m_pending = false; }
    // The redefinition that drifts a closure method compiled at `createdOrder`, if any: one recorded
    // after the entry was created and, when both worlds are known, at a newer world.
    const Redefinition* drift(const ClosureMethod& m, size_t createdOrder) const;

private:
    std::unordered_map<Sid, Redefinition> m_latest{};
    bool m_pending = false;
};

// "ReactantNitro: N cached program(s) had dependency methods redefined after compile (a, b). ..."
std::string cacheLevelMessage(size_t poisoned, const std::vector<std::string>& drifted);

}  // namespace cs::engine
