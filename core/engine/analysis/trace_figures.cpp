// The figures of trace_figures.h, each read from the one analysis (trace_analysis.h) by one rule.
#include "core/engine/analysis/trace_figures.h"

#include "core/engine/analysis/trace_analysis.h"
#include "core/util/json_writer.h"
#include "core/util/saturating.h"
#include "core/util/units.h"

#include <compilescope/trace_constants.h>

#include <set>
#include <tuple>

namespace cs::engine {

namespace {
using Figures = std::vector<Figure>;

void add(Figures& out, std::string key, std::string label, std::optional<std::int64_t> value) {
    out.push_back({std::move(key), std::move(label), value});
}

// Compile accounting (docs/accounting.md). Compiles printed without a time and none timed: the
// compile time is unknown, not 0 ns; a trace without a wall clock has no wall time.
void timeFigures(const CompileSummary& s, Figures& out) {
    const bool unknownCompile = s.compileNs == 0 && s.untimedCompiles > 0;
    add(out, "compile_ns", "compile time", unknownCompile ? std::nullopt : std::optional<std::int64_t>(s.compileNs));
    // Wall time holds only clocked work; a log of durations (Warp, nvcc --time) has no place on it.
    // The share of wall time is of the clocked part, which is never more than the wall time (issue 35:
    // the demo's 2093 s of compiling beside 2092 s of wall time summed both kinds).
    if (s.wallClock && !unknownCompile) {
        add(out, "compile.clocked_ns", "compile time on a wall clock (the part of the wall time spent compiling)",
            s.clockedCompileNs);
        add(out, "compile.unclocked_ns", "compile time from logs without a clock (durations only, outside the wall time)",
            util::satSub(s.compileNs, s.clockedCompileNs));
    }
    add(out, "compiles_untimed", "compiles printed without a time", s.untimedCompiles);
    add(out, "cache_load_ns", "cache-load time", s.cacheLoadNs);
    add(out, "wall_ns", "clocked wall time", s.wallClock ? std::optional<std::int64_t>(s.wallNs) : std::nullopt);
    add(out, "time_span_ns", "time span", s.spanStartNs && s.spanEndNs ? std::optional<std::int64_t>(s.spanNs()) : std::nullopt);
    add(out, "sessions", "sessions", static_cast<std::int64_t>(s.sessions.size()));
}

// A cache's lookups and misses, by both definitions where both exist: the replay's (a lookup whose
// key no live entry held) and the runtime's own lines (verdicts as printed or recorded).
void cacheFigures(const std::string& prefix, const std::string& what, const CacheAnalysis& c, Figures& out) {
    const auto& lookups = c.facts.lookups;
    add(out, prefix + ".lookups", what + " lookups", static_cast<std::int64_t>(lookups.size()));
    add(out, prefix + ".misses.replayed", what + " misses (replayed: no live entry held the key)", c.replay.total.misses);
    add(out, prefix + ".hits.replayed", what + " hits (replayed)", c.replay.total.hits);
    add(out, prefix + ".entries", what + " entries (replayed, live)", c.replay.total.entries);
    if (c.replay.total.loads > 0)
        add(out, prefix + ".loads", what + " entries loaded from a persistent cache (replayed)", c.replay.total.loads);
    // The runtime's own last counters (ReactantNitro's cache_stats()), beside the replay's; a counter
    // it did not report is unknown.
    if (const auto& counters = c.acceptance.lastRuntimeCounters) {
        add(out, prefix + ".counters.hits", what + " hits (the runtime's last counters)", counters->hits);
        add(out, prefix + ".counters.misses", what + " misses (the runtime's last counters)", counters->misses);
        add(out, prefix + ".counters.entries", what + " entries (the runtime's last counters)", counters->entries);
    }
    std::int64_t recorded = 0, judged = 0;
    for (const auto& l : lookups) {
        if (l.verdict == CS_VERDICT_UNKNOWN) continue;
        ++judged;
        recorded += l.verdict == CS_VERDICT_MISS ? 1 : 0;
    }
    if (judged > 0) add(out, prefix + ".misses.recorded", what + " misses (the runtime's own verdicts)", recorded);
}

// Misses under one definition per runtime, for a surface with room for one number (the Ranks view,
// check, the Cache view): replayed cache lookups that missed, and Warp module loads compiled (a
// module cache miss). Warp had read 0 where only cache lookups were counted.
void missFigure(const TraceAnalysis& a, Figures& out) {
    const bool lookups = a.cache && !a.cache->facts.lookups.empty();
    const bool modules = a.moduleCache && !a.moduleCache->facts.lookups.empty();
    if (!lookups && !modules) return;
    std::int64_t count = 0, misses = 0;
    for (const CacheAnalysis* c : {lookups ? a.cache.get() : nullptr, modules ? a.moduleCache.get() : nullptr}) {
        if (!c) continue;
        count = util::satAdd(count, static_cast<std::int64_t>(c->facts.lookups.size()));
        misses = util::satAdd(misses, c->replay.total.misses);
    }
    add(out, "lookups", "lookups (cache lookups, and Warp module loads)", count);
    add(out, "misses", "misses (replayed cache lookups, and Warp module loads that compiled)", misses);
}

// Warp modules: loads, identities (name, hash, device, block_dim) counted once across sessions, and
// the names built under several identities in one session.
void moduleFigures(const TraceAnalysis& a, Figures& out) {
    if (!a.modules || a.moduleLoads() == 0) return;
    std::set<std::tuple<std::string, std::string, std::string, std::optional<std::int64_t>>> identities;
    std::set<std::string> names;
    for (const auto& m : a.modules->modules) {
        names.insert(m.name);
        for (const auto& id : m.identities) identities.emplace(m.name, id.hash, id.device, id.blockDim);
    }
    add(out, "modules.loads", "module loads", a.moduleLoads());
    add(out, "modules.names", "module names (across sessions)", static_cast<std::int64_t>(names.size()));
    add(out, "modules.identities", "module identities (name, hash, device, block_dim; across sessions)",
        static_cast<std::int64_t>(identities.size()));
    add(out, "modules.repeated", "module names built under several identities in one session", a.repeatedModules());
    add(out, "modules.compiled", "module loads compiled", a.modules->compiled);
    add(out, "modules.cached", "module loads from the kernel cache", a.modules->cached);
}

// Julia invalidation trees (docs/invalidations.md, "What is counted"): children and invalidated
// MethodInstances are two counts, labelled apart; the largest tree is the one findings lead with.
void invalidationFigures(const InvalidationForest& f, Figures& out) {
    if (f.trees.empty()) return;
    std::int64_t children = 0, instances = 0, recompileNs = 0;
    const MethodInvalidations* largest = &f.trees.front();
    for (const auto& t : f.trees) {
        children = util::satAdd(children, t.children);
        instances = util::satAdd(instances, t.invalidatedInstances);
        recompileNs = util::satAdd(recompileNs, t.recompileNs);
        if (t.children > largest->children) largest = &t;
    }
    add(out, "invalidations.trees", "invalidation trees", static_cast<std::int64_t>(f.trees.size()));
    add(out, "invalidations.items", "invalidation log items read (raw items and printed tree lines)",
        util::satAdd(f.items, f.printedLines));
    if (!f.problems.empty())
        add(out, "invalidations.problems", "problems reading the invalidation log", static_cast<std::int64_t>(f.problems.size()));
    add(out, "invalidations.children", "children (SnoopCompile countchildren, summed over trees)", children);
    add(out, "invalidations.invalidated", "invalidated MethodInstances (distinct per tree, summed over trees)", instances);
    add(out, "invalidations.recompile_ns", "recompile time of the invalidated MethodInstances", recompileNs);
    add(out, "invalidations.largest.children", "children of the largest tree", largest->children);
    add(out, "invalidations.largest.invalidated", "invalidated MethodInstances of the largest tree", largest->invalidatedInstances);
    // One number per tree and count, numbered as `trees` prints them (SnoopCompile's order).
    for (std::size_t i = 0; i < f.trees.size(); ++i) {
        const MethodInvalidations& t = f.trees[i];
        const std::string key = invalidationTreeKey(i), name = "tree " + std::to_string(i + 1);
        add(out, key + ".children", name + ": children (SnoopCompile countchildren)", t.children);
        add(out, key + ".invalidated", name + ": invalidated MethodInstances (distinct)", t.invalidatedInstances);
        add(out, key + ".recompile_ns", name + ": recompile time of its invalidated MethodInstances", t.recompileNs);
    }
}

void findingFigures(const std::vector<Finding>& findings, Figures& out) {
    std::int64_t errors = 0;
    for (const auto& f : findings) errors += f.severity == Severity::Error ? 1 : 0;
    add(out, "findings", "findings", static_cast<std::int64_t>(findings.size()));
    add(out, "findings.error", "[error] findings", errors);
}
}  // namespace

std::string invalidationTreeKey(std::size_t tree) { return "invalidations.tree." + std::to_string(tree + 1); }

std::string figureText(const TraceFigures& figures, std::string_view key) {
    const Figure* f = figures.find(key);
    return f ? figureText(*f) : "unknown";
}

const Figure* TraceFigures::find(std::string_view key) const {
    for (const Figure& f : figures)
        if (f.key == key) return &f;
    return nullptr;
}

TraceFigures timeFigures(const CompileSummary& summary) {
    TraceFigures t;
    timeFigures(summary, t.figures);
    return t;
}

TraceFigures traceFigures(const TraceAnalysis& a) {
    TraceFigures t;
    timeFigures(a.summary, t.figures);
    if (a.cache && !a.cache->facts.lookups.empty()) cacheFigures("cache", "cache", *a.cache, t.figures);
    if (a.moduleCache && !a.moduleCache->facts.lookups.empty())
        cacheFigures("modules.cache", "module cache", *a.moduleCache, t.figures);
    missFigure(a, t.figures);
    moduleFigures(a, t.figures);
    if (a.invalidations) invalidationFigures(*a.invalidations, t.figures);
    findingFigures(a.findings, t.figures);
    return t;
}

std::string figureText(const Figure& f) {
    if (!f.value) return "unknown";
    return f.isDuration() ? util::formatDuration(*f.value) : util::formatCount(*f.value);
}

void writeFiguresJson(util::JsonWriter& j, const TraceFigures& figures) {
    j.beginObject();
    for (const Figure& f : figures.figures) {
        j.key(f.key);
        f.value ? j.value(*f.value) : j.null();
    }
    j.endObject();
}

}  // namespace cs::engine
