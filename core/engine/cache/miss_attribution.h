// Miss attribution: for every miss of the replay, which key component moved.
//
// Why: the runtime only counts misses. the ReactantNitro guide (docs/cache-replay.md) names what a user needs to know instead: "If misses
// grows with steps, something in the key is moving per step; the usual causes are a GraphConst field
// rebuilt with a new value, a schedule returning a type the field does not hold, or a batch whose
// shapes vary." So each miss is set beside the nearest earlier entry of its program, and the
// components that differ are named with their old and new values ("shape of arg 2: 128x64 -> 100x64";
// docs/cache-replay.md, miss_attribution.*).
//
// The nearest entry is the earlier entry of the same program in the same process whose key differs
// in the fewest components (the most recent one on a tie), so a run that alternates two shapes is
// explained against the right one. Role-aware, as the ReactantNitro guide's (docs/cache-replay.md) practical rule: "changing a GraphConst
// field misses, changing a Device field hits, and changing a Host field hits". Device and Host
// changes are listed beside a miss as "not in the key", and hits across such a change are reported
// too, so the rule is visible in both directions. A miss whose key equals a poisoned entry's is
// explained by the closure guard: the methods that drifted (poisoning.h).
#pragma once

#include "core/engine/cache/cache_facts.h"
#include "core/engine/cache/cache_replay.h"

#include <optional>
#include <string>
#include <vector>

namespace cs::engine {

enum class MissCause {
    FirstCompile,  // no earlier entry of this program in this process
    KeyMoved,      // components differ from the nearest earlier entry
    Poisoned       // same key as an entry the closure guard poisoned
};
const char* missCauseName(MissCause c);

struct ComponentValue {
    std::string name{};
    int role = CS_ROLE_OTHER;
    std::string value{};
    bool inKey = true;
};

struct ComponentChange {
    std::string name{};
    int role = CS_ROLE_OTHER;
    std::string before{}, after{};  // "(absent)" when the component is on one side only
    bool inKey = true;
    std::string text() const;   // "shape of arg 2: 128x64 -> 100x64"
};

struct MissExplanation {
    size_t lookup = 0;  // index into CacheFacts::lookups
    std::int32_t entry = -1;
    MissCause cause = MissCause::FirstCompile;
    std::optional<size_t> against{};  // lookup that created the nearest earlier entry
    std::vector<ComponentValue> before{}, after{};  // every component of both keys, for display
    std::vector<ComponentChange> changes{};  // in-key components that differ: the cause
    std::vector<ComponentChange> unkeyed{};  // Device / Host changes alongside: not the cause
    std::vector<std::string> drifted{};      // Poisoned: the redefined methods
    std::string reason{};                    // one line
};

// Hits although a component that is not in the key (Device, Host) changed since the previous lookup
// of the program: one record per (process, program, component), so a learning rate scheduled every
// step is one line with a count, not a line per step.
struct HitAcrossChange {
    size_t lookup = 0;    // the first such hit
    size_t previous = 0;  // the lookup it is compared with
    ComponentChange first{};  // the first change seen
    std::int64_t hits = 0;    // hits across a change of this component
};

struct Attribution {
    std::vector<MissExplanation> misses{};  // in replay order
    std::vector<HitAcrossChange> hitsAcrossChanges{};
};

Attribution attributeMisses(const CacheFacts& facts, const ReplayResult& replay, const KeyRule& rule = {});

// The changes between two lookups' components, split into in-key and not-in-key under `rule`.
void diffComponents(const CacheFacts& facts, const Lookup& before, const Lookup& after, const KeyRule& rule,
                    std::vector<ComponentChange>& keyed, std::vector<ComponentChange>& unkeyed);

// Readable value of a component (its value, else its digest).
std::string componentValue(const CacheFacts& facts, const KeyComponent& c);

}  // namespace cs::engine
