// TraceFigures: every headline figure of a trace, once, under a stable key (issue 35, "one figure
// per fact").
//
// Why: the one-analysis work (trace_analysis.h) gave every surface the same analysis, but each still
// picked and counted its own figures from it: a Warp log showed 5 misses in one view and 0 in
// another, a JAX report 2 misses in its tile and 1 in its table, an invalidation tree four counts.
// Here each fact has one value and one definition, named where two could be meant (misses replayed
// vs the runtime's own lines; a tree's children vs its invalidated MethodInstances), and the CLI's
// `info --json`, the GUI's Overview and the report (data-figure attributes) render these values
// only. A figure is an integer (a count, or nanoseconds for keys ending in "_ns") or unknown.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cs::util {
class JsonWriter;
}

namespace cs::engine {

struct TraceAnalysis;
struct CompileSummary;

struct Figure {
    std::string key;    // stable, e.g. "compile_ns", "cache.misses.replayed"
    std::string label;  // what a surface calls it, with its definition where two could be meant
    std::optional<std::int64_t> value{};  // nullopt: unknown, shown as "unknown", never as 0
    bool isDuration() const { return key.ends_with("_ns"); }
};

struct TraceFigures {
    std::vector<Figure> figures;  // stable order: time, then compiles and caches, modules, Julia

    const Figure* find(std::string_view key) const;
};

// The figures of one analysis. A figure whose subject the trace does not hold (no cache lookups,
// no module loads, no invalidation trees) is left out rather than shown as 0.
TraceFigures traceFigures(const TraceAnalysis& analysis);

// The time figures alone (compile, wall, span, sessions), from the summary: what a surface shows
// while the rest of the analysis runs. traceFigures() begins with exactly these.
TraceFigures timeFigures(const CompileSummary& summary);

// A figure as every surface prints it: "2.12 s" for a duration, "1,234" for a count, "unknown".
std::string figureText(const Figure& figure);

// The same for a key; "unknown" when the trace has no such figure.
std::string figureText(const TraceFigures& figures, std::string_view key);

// "invalidations.tree.3": the keys of the forest's tree at index `tree` (0-based; numbered from 1 as
// `compilescope trees` prints them) begin with it: .children, .invalidated, .recompile_ns.
std::string invalidationTreeKey(std::size_t tree);

// {"key": value or null, ...} in the figures' order: `info --json` and the report's data block.
void writeFiguresJson(util::JsonWriter& j, const TraceFigures& figures);

}  // namespace cs::engine
