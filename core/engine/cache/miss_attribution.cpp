#include "core/engine/cache/miss_attribution.h"
#include "core/engine/cache/runtime_notes.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace cs::engine {

const char* missCauseName(MissCause c) {
    switch (c) {
    case MissCause::FirstCompile: return "first compile";
    case MissCause::KeyMoved: return "key moved";
    case MissCause::Poisoned: return "entry poisoned";
    }
    return "?";
}

std::string ComponentChange::text() const { return name + ": " + before + " -> " + after; }

std::string componentValue(const CacheFacts& facts, const KeyComponent& c) {
    const auto& v = facts.str(c.value);
    return v.empty() ? facts.str(c.digest) : v;
}

void diffComponents(const CacheFacts& facts, const Lookup& before, const Lookup& after, const KeyRule& rule,
                    std::vector<ComponentChange>& keyed, std::vector<ComponentChange>& unkeyed) {
    auto emit = [&](const KeyComponent& c, std::string b, std::string a) {
        ComponentChange ch{.name = facts.str(c.name), .role = c.role, .before = std::move(b), .after = std::move(a),
                           .inKey = componentInKey(facts, c, rule)};
        (ch.inKey ? keyed : unkeyed).push_back(std::move(ch));
    };
    // Components are matched by name; the after-side order is the key's order.
    for (const auto& a : after.components) {
        auto it = std::find_if(before.components.begin(), before.components.end(),
                               [&](const KeyComponent& b) { return b.name == a.name; });
        if (it == before.components.end())
            emit(a, "(absent)", componentValue(facts, a));
        else if (it->digest != a.digest)
            emit(a, componentValue(facts, *it), componentValue(facts, a));
    }
    for (const auto& b : before.components) {
        bool present = std::any_of(after.components.begin(), after.components.end(),
                                   [&](const KeyComponent& a) { return a.name == b.name; });
        if (!present) emit(b, componentValue(facts, b), "(absent)");
    }
}

namespace {
std::vector<ComponentValue> valuesOf(const CacheFacts& facts, const Lookup& l, const KeyRule& rule) {
    std::vector<ComponentValue> out;
    for (const auto& c : l.components)
        out.push_back({facts.str(c.name), c.role, componentValue(facts, c), componentInKey(facts, c, rule)});
    return out;
}

std::string joinChanges(const std::vector<ComponentChange>& changes) {
    std::string s;
    for (const auto& c : changes) s += (s.empty() ? "" : "; ") + c.text();
    return s;
}
}  // namespace

namespace {
// JAX explained the miss itself (runtime_notes.h). It prints only the key parts that differ, so a part
// on one side only was not printed, not absent: its "before" is the one JAX printed, and a first
// compile of this log that JAX explains by a changed key gets JAX's words.
void applyRuntimeReasons(const CacheFacts& facts, MissExplanation& m) {
    auto it = facts.runtimeReasons.find(m.lookup);
    if (it == facts.runtimeReasons.end()) return;
    const std::string said = runtimeReasonText(it->second);
    if (said.empty()) return;
    std::erase_if(m.changes, [](const ComponentChange& c) { return c.after == "(absent)"; });
    for (auto& c : m.changes) {
        if (c.before != "(absent)") continue;
        std::string before = runtimeBefore(it->second, c.after);
        c.before = before.empty() ? "(not printed)" : before;
    }
    if (m.cause == MissCause::FirstCompile)
        m.reason = said == "never seen function" ? m.reason + " (JAX: never seen function)"
                                                 : "none earlier in this log; JAX says: " + said;
    else if (m.cause == MissCause::KeyMoved)
        m.reason = m.changes.empty() ? "JAX says: " + said : joinChanges(m.changes);
}

struct GroupHash {
    size_t operator()(const std::tuple<std::int64_t, Sid, Sid>& g) const noexcept {
        auto [a, b, c] = g;
        std::uint64_t h = static_cast<std::uint64_t>(a) * 0x9e3779b97f4a7c15ull;
        h = (h ^ static_cast<std::uint64_t>(b)) * 0xff51afd7ed558ccdull;
        h = (h ^ static_cast<std::uint64_t>(c)) * 0xc4ceb9fe1a85ec53ull;
        return static_cast<size_t>(h ^ (h >> 29));
    }
};

// Counts the not-in-key components of hit `i` that differ from `prev`. The fast path compares digests
// position by position (same layout, the usual case) and builds text only for a first occurrence.
void noteHitAcrossChange(const CacheFacts& facts, const Lookup& prev, const Lookup& l, size_t i, size_t p,
                         const KeyRule& rule, std::map<std::tuple<std::int64_t, Sid, Sid, Sid>, size_t>& index,
                         std::vector<HitAcrossChange>& out) {
    auto note = [&](const KeyComponent* before, const KeyComponent& after) {
        auto [it, fresh] = index.emplace(std::make_tuple(l.sessionId, l.cache, l.program, after.name), out.size());
        if (fresh) {
            ComponentChange c{.name = facts.str(after.name), .role = after.role,
                              .before = before ? componentValue(facts, *before) : "(absent)",
                              .after = componentValue(facts, after), .inKey = false};
            out.push_back({.lookup = i, .previous = p, .first = std::move(c)});
        }
        ++out[it->second].hits;
    };
    bool sameLayout = prev.components.size() == l.components.size();
    for (size_t k = 0; sameLayout && k < l.components.size(); ++k) sameLayout = prev.components[k].name == l.components[k].name;
    if (sameLayout) {
        for (size_t k = 0; k < l.components.size(); ++k)
            if (l.components[k].digest != prev.components[k].digest && !componentInKey(facts, l.components[k], rule))
                note(&prev.components[k], l.components[k]);
        return;
    }
    for (const auto& a : l.components) {
        if (componentInKey(facts, a, rule)) continue;
        auto it = std::find_if(prev.components.begin(), prev.components.end(),
                               [&](const KeyComponent& b) { return b.name == a.name; });
        if (it == prev.components.end() || it->digest != a.digest) note(it == prev.components.end() ? nullptr : &*it, a);
    }
}
}  // namespace

Attribution attributeMisses(const CacheFacts& facts, const ReplayResult& replay, const KeyRule& rule) {
    Attribution result;
    // Earlier entries per (session, cache, program), in compile order; and the last lookup per program.
    std::unordered_map<std::tuple<std::int64_t, Sid, Sid>, std::vector<std::int32_t>, GroupHash> entriesOf;
    std::unordered_map<std::tuple<std::int64_t, Sid, Sid>, size_t, GroupHash> lastLookup;
    std::map<std::tuple<std::int64_t, Sid, Sid, Sid>, size_t> hitIndex;
    for (size_t i = 0; i < facts.lookups.size(); ++i) {
        const auto& l = facts.lookups[i];
        const auto& o = replay.outcomes[i];
        auto group = std::make_tuple(l.sessionId, l.cache, l.program);
        if (o.hit) {
            if (o.loaded) entriesOf[group].push_back(o.entry);  // an entry too, stored by an earlier run
            auto [prev, fresh] = lastLookup.emplace(group, i);
            if (!fresh) {
                noteHitAcrossChange(facts, facts.lookups[prev->second], l, i, prev->second, rule, hitIndex,
                                    result.hitsAcrossChanges);
                prev->second = i;
            }
            continue;
        }
        MissExplanation m{.lookup = i, .entry = o.entry, .after = valuesOf(facts, l, rule)};
        const auto& entry = replay.entries[static_cast<size_t>(o.entry)];
        auto& earlier = entriesOf[group];
        if (entry.replaces) {
            const auto& old = replay.entries[static_cast<size_t>(*entry.replaces)];
            m.cause = MissCause::Poisoned;
            m.against = old.createdBy;
            m.drifted = replay.poisonEvents[*old.poisonedBy].drifted;
            std::string names;
            for (const auto& d : m.drifted) names += (names.empty() ? "" : ", ") + d;
            m.reason = "dependency method " + names +
                       " redefined after compile; same key, recompiled against current dispatch";
        } else if (!earlier.empty()) {
            // The nearest earlier entry: fewest differing in-key components, most recent on a tie.
            size_t best = SIZE_MAX;
            for (auto it = earlier.rbegin(); it != earlier.rend(); ++it) {
                const auto& cand = facts.lookups[replay.entries[static_cast<size_t>(*it)].createdBy];
                std::vector<ComponentChange> keyed, unkeyed;
                diffComponents(facts, cand, l, rule, keyed, unkeyed);
                if (keyed.size() < best) {
                    best = keyed.size();
                    m.against = replay.entries[static_cast<size_t>(*it)].createdBy;
                    m.changes = std::move(keyed);
                    m.unkeyed = std::move(unkeyed);
                }
            }
            m.cause = MissCause::KeyMoved;
            m.reason = m.changes.empty() ? "key moved (cache name differs)" : joinChanges(m.changes);
        } else {
            m.cause = MissCause::FirstCompile;
            m.reason = "no earlier entry of " + facts.str(l.program) + " in this process";
        }
        if (m.against) m.before = valuesOf(facts, facts.lookups[*m.against], rule);
        applyRuntimeReasons(facts, m);
        earlier.push_back(o.entry);
        lastLookup[group] = i;
        result.misses.push_back(std::move(m));
    }
    return result;
}

}  // namespace cs::engine
