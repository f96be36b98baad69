#include "core/engine/cache/cache_replay.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace cs::engine {

const char* roleName(int role) {
    switch (role) {
    case CS_ROLE_FUNCTION: return "function";
    case CS_ROLE_WORLD: return "world";
    case CS_ROLE_SHAPE: return "shape";
    case CS_ROLE_GRAPHCONST: return "graphconst";
    case CS_ROLE_KEYWORD: return "keyword";
    case CS_ROLE_DEVICE: return "device";
    case CS_ROLE_HOST: return "host";
    case CS_ROLE_TYPE: return "type";
    case CS_ROLE_OPTION: return "option";
    default: return "other";
    }
}

bool persistentCache(const std::string& name) {
    return name.find("disk") != std::string::npos || name.find("persistent") != std::string::npos;
}

namespace {
bool listed(const std::vector<std::string>& names, const std::string& name, int role) {
    return std::find(names.begin(), names.end(), name) != names.end() ||
           std::find(names.begin(), names.end(), roleName(role)) != names.end();
}
}  // namespace

bool componentInKey(const CacheFacts& facts, const KeyComponent& c, const KeyRule& rule) {
    if (rule.isDefault()) return c.inKey();
    const auto& name = facts.str(c.name);
    if (listed(rule.exclude, name, c.role)) return false;
    if (listed(rule.include, name, c.role)) return true;
    return c.inKey();
}

namespace {

struct KeyHash {
    size_t operator()(const std::vector<Sid>& v) const noexcept {
        std::uint64_t h = 0x9e3779b97f4a7c15ull ^ v.size();
        for (Sid x : v) {
            h ^= static_cast<std::uint64_t>(x) + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
            h *= 0xff51afd7ed558ccdull;
        }
        return static_cast<size_t>(h ^ (h >> 33));
    }
};

// Interns key tuples to small integers so the cache itself is a vector indexed by key id.
class KeyInterner {
public:
    std::uint32_t intern(const std::vector<Sid>& key) {
        auto it = m_ids.find(key);
        if (it != m_ids.end()) return it->second;
        auto id = static_cast<std::uint32_t>(m_ids.size());
        m_ids.emplace(key, id);
        return id;
    }
    std::uint32_t size() const { return static_cast<std::uint32_t>(m_ids.size()); }

private:
    std::unordered_map<std::vector<Sid>, std::uint32_t, KeyHash> m_ids;
};

// Per-session cache state: the module-level cache, the handles' memos and the closure guard.
struct SessionCache {
    std::unordered_map<std::uint32_t, std::int32_t> live;  // key -> entry
    std::unordered_map<std::uint32_t, std::int32_t> poisoned;  // key -> last poisoned entry
    std::unordered_map<std::uint64_t, std::int32_t> memo;  // (handle, key) -> entry
    ClosureGuard guard;
    ReplayCounts counts;
    std::optional<size_t> lastLookup;  // names a counters snapshot by position, not by clock
};

class Replayer {
public:
    Replayer(const CacheFacts& facts, const KeyRule& rule) : m_facts(facts), m_rule(rule) {
        m_result.outcomes.resize(facts.lookups.size());
    }

    ReplayResult run() {
        size_t m = 0, c = 0;
        const auto& lookups = m_facts.lookups;
        for (size_t i = 0; i < lookups.size();) {
            auto session = lookups[i].sessionId;
            SessionCache cache;
            // Skip method events and counters of sessions that have no lookups before this one.
            while (m < m_facts.methods.size() && m_facts.methods[m].sessionId < session) ++m;
            while (c < m_facts.counters.size() && m_facts.counters[c].sessionId < session) checkCounters(c++, cache);
            for (; i < lookups.size() && lookups[i].sessionId == session; ++i) {
                const auto& l = lookups[i];
                for (; m < m_facts.methods.size() && m_facts.methods[m].sessionId == session &&
                       (!m_facts.methods[m].tsNs || *m_facts.methods[m].tsNs <= l.tsNs);
                     ++m)
                    cache.guard.onMethodEvent(m_facts.methods[m], i);
                for (; c < m_facts.counters.size() && m_facts.counters[c].sessionId == session &&
                       m_facts.counters[c].tsNs < l.tsNs;
                     ++c)
                    checkCounters(c, cache);
                if (cache.guard.scanDue()) scan(cache, i);
                lookup(cache, i);
                cache.lastLookup = i;
            }
            for (; c < m_facts.counters.size() && m_facts.counters[c].sessionId == session; ++c) checkCounters(c, cache);
            m_result.perSession[session] = cache.counts;
            m_result.total.hits += cache.counts.hits;
            m_result.total.misses += cache.counts.misses;
            m_result.total.entries += cache.counts.entries;
            m_result.total.loads += cache.counts.loads;
        }
        SessionCache none;
        for (; c < m_facts.counters.size(); ++c) checkCounters(c, none);
        m_result.distinctKeys = m_keys.size();
        return std::move(m_result);
    }

private:
    // The key tuple as interned ids: cache, program, then (name, digest) of every in-key component in
    // recorded order. Order matters as in a Julia tuple; names make two components with equal
    // digests in different roles distinct.
    std::uint32_t keyOf(const Lookup& l) {
        m_buffer.clear();
        m_buffer.push_back(l.cache);
        m_buffer.push_back(l.program);
        for (const auto& comp : l.components) {
            if (!componentInKey(m_facts, comp, m_rule)) continue;
            m_buffer.push_back(comp.name);
            m_buffer.push_back(comp.digest);
        }
        return m_keys.intern(m_buffer);
    }

    // One lookup, in the runtime's order: the handle's own memo first (ReactantNitro's
    // compile_cached: "a handle that holds its programs never re-looks-up"), then the module-level
    // cache, else a compile that creates the entry. A memo hit on a poisoned entry is the stale
    // program the ReactantNitro guide (docs/cache-replay.md) describes; the runtime counts it as a hit, and so does the replay.
    void lookup(SessionCache& cache, size_t i) {
        const auto& l = m_facts.lookups[i];
        auto& out = m_result.outcomes[i];
        out.key = keyOf(l);
        std::uint64_t memoKey = (static_cast<std::uint64_t>(l.handle) << 32) ^ out.key;
        if (l.handle) {
            auto it = cache.memo.find(memoKey);
            if (it != cache.memo.end()) {
                out.hit = out.memo = true;
                out.entry = it->second;
                out.stale = m_result.entries[static_cast<size_t>(it->second)].poisonedBy.has_value();
                if (out.stale) noteStale(l, i, it->second);
            }
        }
        if (!out.hit) {
            auto it = cache.live.find(out.key);
            if (it != cache.live.end()) {
                out.hit = true;
                out.entry = it->second;
            }
        }
        // A persistent cache's runtime hit on an unknown key: loaded from an earlier process's store.
        if (!out.hit && l.verdict == CS_VERDICT_HIT && persistentCache(m_facts.str(l.cache))) {
            out.hit = out.loaded = true;
            out.entry = static_cast<std::int32_t>(m_result.entries.size());
            m_result.entries.push_back({.createdBy = i, .key = out.key, .sessionId = l.sessionId, .program = l.program});
            cache.live[out.key] = out.entry;
            ++cache.counts.entries;
            ++cache.counts.loads;
        }
        if (out.hit) {
            ++cache.counts.hits;
        } else {
            ++cache.counts.misses;
            ++cache.counts.entries;
            out.entry = static_cast<std::int32_t>(m_result.entries.size());
            CacheEntry e{.createdBy = i, .key = out.key, .sessionId = l.sessionId, .program = l.program};
            if (auto p = cache.poisoned.find(out.key); p != cache.poisoned.end()) e.replaces = p->second;
            m_result.entries.push_back(e);
            cache.live[out.key] = out.entry;
        }
        if (l.handle) cache.memo.emplace(memoKey, out.entry);
        // The replay follows its own verdicts, so one disagreement does not cascade into the next.
        int replayVerdict = out.hit ? CS_VERDICT_HIT : CS_VERDICT_MISS;
        if (l.verdict != CS_VERDICT_UNKNOWN && l.verdict != replayVerdict) {
            out.disagrees = true;
            m_result.disagreements.push_back(i);
        }
    }

    // The entry-point scan: re-resolve every live entry's closure, poison those that drifted.
    void scan(SessionCache& cache, size_t atLookup) {
        cache.guard.scanned();
        PoisonEvent ev{.sessionId = m_facts.lookups[atLookup].sessionId, .atLookup = atLookup};
        // Entry order = compile order, so messages do not depend on hash-map iteration.
        std::vector<std::int32_t> order;
        for (const auto& [key, entryIdx] : cache.live) order.push_back(entryIdx);
        std::sort(order.begin(), order.end());
        for (auto entryIdx : order) {
            auto& entry = m_result.entries[static_cast<size_t>(entryIdx)];
            bool drifted = false;
            for (const auto& cm : m_facts.lookups[entry.createdBy].closure) {
                const Redefinition* r = cache.guard.drift(cm, entry.createdBy);
                if (!r) continue;
                drifted = true;
                const auto& name = m_facts.str(cm.method);
                if (std::find(ev.drifted.begin(), ev.drifted.end(), name) == ev.drifted.end()) ev.drifted.push_back(name);
                if (std::find(ev.methodRows.begin(), ev.methodRows.end(), r->methodRow) == ev.methodRows.end())
                    ev.methodRows.push_back(r->methodRow);
            }
            if (!drifted) continue;
            entry.poisonedBy = m_result.poisonEvents.size();
            ev.entries.push_back(entryIdx);
            cache.live.erase(entry.key);
            cache.poisoned[entry.key] = entryIdx;
            --cache.counts.entries;
        }
        if (ev.entries.empty()) return;
        ev.message = cacheLevelMessage(ev.entries.size(), ev.drifted);
        m_result.poisonEvents.push_back(std::move(ev));
    }

    void noteStale(const Lookup& l, size_t i, std::int32_t entryIdx) {
        auto it = std::find_if(m_result.staleHandles.begin(), m_result.staleHandles.end(),
                               [&](const StaleHandle& s) { return s.sessionId == l.sessionId && s.handle == l.handle; });
        if (it == m_result.staleHandles.end()) {
            m_result.staleHandles.push_back({.sessionId = l.sessionId, .handle = l.handle, .firstLookup = i});
            it = std::prev(m_result.staleHandles.end());
        }
        ++it->staleLookups;
        if (std::find(it->entries.begin(), it->entries.end(), entryIdx) != it->entries.end()) return;
        it->entries.push_back(entryIdx);
        const auto& entry = m_result.entries[static_cast<size_t>(entryIdx)];
        for (const auto& name : m_result.poisonEvents[*entry.poisonedBy].drifted)
            if (std::find(it->methods.begin(), it->methods.end(), name) == it->methods.end()) it->methods.push_back(name);
    }

    // cache_stats() is cumulative since cache_reset!(), and entries counts live entries only (the
    // guard deletes poisoned ones), so the replay's counts at the same instant must equal it.
    void checkCounters(size_t c, const SessionCache& cache) {
        const auto& snap = m_facts.counters[c];
        CounterCheck check{.snapshot = c, .afterLookup = cache.lastLookup, .replay = cache.counts};
        auto compare = [&](const char* name, const std::optional<std::int64_t>& runtime, std::int64_t replay) {
            if (!runtime || *runtime == replay) return;
            check.agrees = false;
            if (!check.detail.empty()) check.detail += ", ";
            check.detail += std::string(name) + ": runtime " + std::to_string(*runtime) + ", replay " +
                            std::to_string(replay);
        };
        compare("hits", snap.hits, cache.counts.hits);
        compare("misses", snap.misses, cache.counts.misses);
        compare("entries", snap.entries, cache.counts.entries);
        m_result.counterChecks.push_back(std::move(check));
    }

    const CacheFacts& m_facts;
    const KeyRule& m_rule;
    KeyInterner m_keys;
    std::vector<Sid> m_buffer;
    ReplayResult m_result;
};

}  // namespace

ReplayResult replayCache(const CacheFacts& facts, const KeyRule& rule) { return Replayer(facts, rule).run(); }

}  // namespace cs::engine
