#include "miss_attribution.h"

#include <algorithm>
#include <map>

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

Attribution attributeMisses(const CacheFacts& facts, const ReplayResult& replay, const KeyRule& rule) {
    Attribution result;
    // Earlier entries per (session, cache, program), in compile order; and the last lookup per program.
    std::map<std::tuple<std::int64_t, Sid, Sid>, std::vector<std::int32_t>> entriesOf;
    std::map<std::tuple<std::int64_t, Sid, Sid>, size_t> lastLookup;
    for (size_t i = 0; i < facts.lookups.size(); ++i) {
        const auto& l = facts.lookups[i];
        const auto& o = replay.outcomes[i];
        auto group = std::make_tuple(l.sessionId, l.cache, l.program);
        if (o.hit) {
            auto prev = lastLookup.find(group);
            if (prev != lastLookup.end()) {
                std::vector<ComponentChange> keyed, unkeyed;
                diffComponents(facts, facts.lookups[prev->second], l, rule, keyed, unkeyed);
                if (!unkeyed.empty()) result.hitsAcrossChanges.push_back({i, prev->second, std::move(unkeyed)});
            }
            lastLookup[group] = i;
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
        earlier.push_back(o.entry);
        lastLookup[group] = i;
        result.misses.push_back(std::move(m));
    }
    return result;
}

}  // namespace cs::engine
