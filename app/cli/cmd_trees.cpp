// `compilescope trees TRACE [--module M] [--min-children K] [--nodes] [--path NAME]`: the trace's
// Julia invalidation trees in SnoopCompile's printed form, each root with the recompilation it caused.
#include "command.h"
#include "loss_line.h"

#include "core/engine/julia/invalidation_load.h"
#include "core/engine/julia/invalidation_printed.h"
#include "core/engine/analysis/trace_analysis.h"
#include "core/engine/analysis/trace_figures.h"

#include <charconv>

namespace cs::cli {

namespace {
int runTrees(const std::vector<std::string>& args, CommandIo& io) {
    std::string trace, module, path;
    long long minChildren = 0;
    engine::TreePrintOptions options;
    for (size_t i = 0; i < args.size(); ++i) {
        const auto& a = args[i];
        auto value = [&](const char* name) -> const std::string* {
            if (i + 1 >= args.size()) return nullptr;
            (void)name;
            return &args[++i];
        };
        if (a == "--module") {
            auto v = value("--module");
            if (!v) return usageError(io, "trees", "--module needs a module name");
            module = *v;
        } else if (a == "--min-children") {
            auto v = value("--min-children");
            if (!v) return usageError(io, "trees", "--min-children needs a number");
            auto [p, ec] = std::from_chars(v->data(), v->data() + v->size(), minChildren);
            if (ec != std::errc() || p != v->data() + v->size() || minChildren < 0)
                return usageError(io, "trees", "--min-children needs a non-negative number, not \"" + *v + "\"");
        } else if (a == "--path") {
            auto v = value("--path");
            if (!v) return usageError(io, "trees", "--path needs a method name");
            path = *v;
        } else if (a == "--nodes") {
            options.nodes = true;
        } else if (!a.empty() && a[0] == '-') {
            return usageError(io, "trees", "unknown option " + a);
        } else if (trace.empty()) {
            trace = a;
        } else {
            return usageError(io, "trees", "expected one TRACE argument");
        }
    }
    if (trace.empty()) return usageError(io, "trees", "expected a TRACE argument");
    auto analysis = engine::analyseTraceFile(trace);
    auto forest = analysis->invalidations ? analysis->invalidations : std::make_shared<const engine::InvalidationForest>();
    printLossLine(io.err, analysis->losses);  // stderr: stdout stays SnoopCompile's text
    auto shown = engine::filterTrees(*forest, module, minChildren);
    if (!path.empty()) {
        auto found = engine::findCaller(*shown, path);
        if (!found) {
            io.out << "no invalidated MethodInstance matches \"" << path << "\"\n";
            return Exit::Ok;
        }
        engine::printCallerPath(io.out, *shown, *found);
        return Exit::Ok;
    }
    engine::printTrees(io.out, *shown, options);
    // Each tree's counts, the keyed figures (engine/analysis/trace_figures.h) the GUI and the report show: on
    // stderr, as stdout stays SnoopCompile's text. Children and invalidated MethodInstances are two
    // counts, labelled apart. A filter renumbers the trees, so only the whole forest gets them.
    if (module.empty() && minChildren == 0) {
        const engine::TraceFigures figures = engine::traceFigures(*analysis);
        for (std::size_t i = 0; i < forest->trees.size(); ++i) {
            const std::string key = engine::invalidationTreeKey(i);
            io.err << "tree " << i + 1 << ": " << engine::figureText(figures, key + ".children") << " children, "
                   << engine::figureText(figures, key + ".invalidated") << " invalidated MethodInstances";
            if (forest->costJoined) io.err << ", " << engine::figureText(figures, key + ".recompile_ns") << " recompiling";
            io.err << "\n";
        }
    }
    // What could not be read is said after the trees, on stderr, so stdout stays SnoopCompile's text.
    for (const auto& p : forest->problems) io.err << "note: " << p.what << " (" << p.items << " items)\n";
    return Exit::Ok;
}
}  // namespace

Command treesCommand() {
    return {"trees", "print Julia invalidation trees (SnoopCompile's form) with their recompile cost",
            "Usage: compilescope trees TRACE [--module M] [--min-children K] [--nodes] [--path NAME]\n\n"
            "Builds SnoopCompile's invalidation_trees from the trace's raw invalidation lists (or reads the\n"
            "printed trees it holds) and prints them as SnoopCompile does, smallest first. When the trace\n"
            "holds compile timings (--trace-compile '# recompile' statements, @time_imports __init__ rows),\n"
            "each tree gets a 'recompiled:' line with the milliseconds its invalidations cost.\n"
            "  --module M        only trees whose inserted/deleted method is defined in module M\n"
            "  --min-children K  only trees with at least K children\n"
            "  --nodes           also print each entry's caller tree, with per-instance recompile time\n"
            "  --path NAME       the path from a root to the first MethodInstance containing NAME\n"
            "Parts of the log that could not be attributed are listed on stderr as 'note:' lines.\n",
            runTrees};
}

}  // namespace cs::cli
