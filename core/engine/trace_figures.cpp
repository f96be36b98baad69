// The figures of trace_figures.h, each read from the one analysis (trace_analysis.h) by one rule.
#include "core/engine/trace_figures.h"

#include "core/engine/trace_analysis.h"
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
    std::int64_t recorded = 0, judged = 0;
    for (const auto& l : lookups) {
        if (l.verdict == CS_VERDICT_UNKNOWN) continue;
        ++judged;
        recorded += l.verdict == CS_VERDICT_MISS ? 1 : 0;
    }
    if (judged > 0) add(out, prefix + ".misses.recorded", what + " misses (the runtime's own verdicts)", recorded);
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
    add(out, "invalidations.children", "children (SnoopCompile countchildren, summed over trees)", children);
    add(out, "invalidations.invalidated", "invalidated MethodInstances (distinct per tree, summed over trees)", instances);
    add(out, "invalidations.recompile_ns", "recompile time of the invalidated MethodInstances", recompileNs);
    add(out, "invalidations.largest.children", "children of the largest tree", largest->children);
    add(out, "invalidations.largest.invalidated", "invalidated MethodInstances of the largest tree", largest->invalidatedInstances);
}

void findingFigures(const std::vector<Finding>& findings, Figures& out) {
    std::int64_t errors = 0;
    for (const auto& f : findings) errors += f.severity == Severity::Error ? 1 : 0;
    add(out, "findings", "findings", static_cast<std::int64_t>(findings.size()));
    add(out, "findings.error", "[error] findings", errors);
}
}  // namespace

const Figure* TraceFigures::find(std::string_view key) const {
    for (const Figure& f : figures)
        if (f.key == key) return &f;
    return nullptr;
}

TraceFigures traceFigures(const TraceAnalysis& a) {
    TraceFigures t;
    timeFigures(a.summary, t.figures);
    if (a.cache && !a.cache->facts.lookups.empty()) cacheFigures("cache", "cache", *a.cache, t.figures);
    if (a.moduleCache && !a.moduleCache->facts.lookups.empty())
        cacheFigures("modules.cache", "module cache", *a.moduleCache, t.figures);
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
