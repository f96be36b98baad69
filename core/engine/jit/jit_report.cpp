#include "core/engine/jit/jit_report.h"

#include "core/trace/reader.h"
#include "core/trace/row.h"

#include <algorithm>

namespace cs::engine::jit {

namespace {
constexpr const char* kJaxPersistentCache = "jax persistent compilation cache";
}  // namespace

std::string JitEvent::arg(const std::string& key) const {
    auto it = args.find(key);
    return it == args.end() ? std::string() : it->second;
}

JitReport loadJitReport(const trace::TraceReader& reader, const CacheAnalysis* cache) {
    JitReport r;
    std::map<std::int64_t, size_t> at;
    const std::string tagged = "SELECT a.span_id FROM span_args a JOIN strings k ON k.id = a.key_sid WHERE k.str = 'jit_event'";
    reader.query("SELECT s.id, t.session_id, s.start_ns, coalesce((SELECT str FROM strings WHERE id = s.name_sid), '') "
                 "FROM spans s JOIN tracks t ON t.id = s.track_id WHERE s.id IN (" + tagged + ") ORDER BY s.start_ns, s.id",
                 [&](const trace::Row& st) {
                     JitEvent e;
                     e.spanId = trace::colInt(st, 0);
                     e.sessionId = trace::colInt(st, 1);
                     e.tsNs = trace::colInt(st, 2);
                     e.name = trace::colText(st, 3);
                     at.emplace(e.spanId, r.events.size());
                     r.events.push_back(std::move(e));
                 });
    if (!r.events.empty())
        reader.query("SELECT a.span_id, k.str, CAST(a.value AS TEXT) FROM span_args a JOIN strings k ON k.id = a.key_sid "
                     "WHERE a.span_id IN (" + tagged + ")",
                     [&](const trace::Row& st) {
                         auto it = at.find(trace::colInt(st, 0));
                         if (it == at.end()) return;
                         auto& e = r.events[it->second];
                         auto key = trace::colText(st, 1);
                         auto value = trace::colText(st, 2);
                         if (key == "jit_event") e.kind = value;
                         e.args[key] = std::move(value);
                     });
    // Persistent-cache key histories: lookups of a persistent cache grouped by handle (the key), with
    // the writes of the same key.
    std::map<std::pair<std::string, std::string>, size_t> byKey;
    auto history = [&](const std::string& cacheName, const std::string& key) -> KeyHistory& {
        auto [it, fresh] = byKey.emplace(std::make_pair(cacheName, key), r.persistentKeys.size());
        if (fresh) r.persistentKeys.push_back({.cache = cacheName, .program = {}, .key = key, .writes = {}, .lookups = {}, .firstNs = INT64_MAX});
        return r.persistentKeys[it->second];
    };
    std::map<std::string, std::string> writeCache;  // a write names no cache: it goes with the persistent cache of its key
    if (cache) {
        const auto& facts = cache->facts;
        for (size_t i = 0; i < facts.lookups.size(); ++i) {
            const auto& l = facts.lookups[i];
            const auto& name = facts.str(l.cache);
            // JAX's persistent cache only: its lines carry the key itself (the handle) and come from
            // several processes with no process id; other runtimes' disk caches are replayed per process.
            if (name != kJaxPersistentCache || !l.handle) continue;
            auto& h = history(name, facts.str(l.handle));
            h.program = facts.str(l.program);
            h.lookups.push_back(i);
            h.firstNs = std::min(h.firstNs, l.tsNs);
            writeCache.emplace(facts.str(l.handle), name);
        }
    }
    for (size_t i = 0; i < r.events.size(); ++i) {
        const auto& e = r.events[i];
        if (e.kind != "persistent_cache_write") continue;
        auto key = e.arg("key");
        auto c = writeCache.find(key);
        auto& h = history(c == writeCache.end() ? std::string(kJaxPersistentCache) : c->second, key);
        if (h.program.empty()) h.program = e.arg("function");
        h.writes.push_back(i);
        h.firstNs = std::min(h.firstNs, e.tsNs);
    }
    std::stable_sort(r.persistentKeys.begin(), r.persistentKeys.end(),
                     [](const KeyHistory& a, const KeyHistory& b) { return a.firstNs < b.firstNs; });
    return r;
}

}  // namespace cs::engine::jit
