// `compilescope build-report TRACE [--top N] [--json]`: ClangBuildAnalyzer's answers for a build
// imported from its clang time traces (and its .ninja_log). Renders core/engine/build/build_report.h.
#include "cache_text.h"
#include "command.h"
#include "table_printer.h"

#include "core/engine/analysis/trace_analysis.h"
#include "core/util/json_writer.h"
#include "core/util/saturating.h"
#include "core/util/units.h"

#include <charconv>
#include <cstdio>

namespace cs::cli {

namespace {
using engine::build::BuildReport;
using engine::build::Cost;

void costTable(std::ostream& out, const char* title, const char* what, const std::vector<Cost>& costs, size_t top) {
    if (costs.empty()) return;
    out << "\n" << title << ":\n";
    TablePrinter t({what, "time", "count", "files", "most expensive in", "there"});
    for (size_t i = 0; i < costs.size() && i < top; ++i) {
        const Cost& c = costs[i];
        t.addRow({c.name, util::formatDuration(c.ns), util::formatCount(c.count), util::formatCount(c.files), c.worstFile,
                  util::formatDuration(c.worstNs)});
    }
    t.print(out, 100);
}

void costJson(util::JsonWriter& w, const char* key, const std::vector<Cost>& costs, size_t top) {
    w.key(key).beginArray();
    for (size_t i = 0; i < costs.size() && i < top; ++i) {
        const Cost& c = costs[i];
        w.beginObject().key("name").value(c.name).key("ns").value(c.ns).key("count").value(c.count);
        w.key("files").value(c.files).key("worst_file").value(c.worstFile).key("worst_ns").value(c.worstNs);
        w.key("worst_span_id").value(c.worstSpanId).endObject();
    }
    w.endArray();
}

void printJson(std::ostream& out, const std::string& label, const BuildReport& r, size_t top) {
    util::JsonWriter w(out, true);
    w.beginObject().key("trace").value(label);
    w.key("total_ns").value(r.totalNs).key("frontend_ns").value(r.frontendNs).key("backend_ns").value(r.backendNs);
    w.key("span_ns").value(util::satSub(r.spanEndNs, r.spanStartNs)).key("peak_parallelism").value(static_cast<std::int64_t>(r.peakParallelism));
    w.key("files").beginArray();
    for (const auto& f : r.files) {
        w.beginObject().key("session_id").value(f.sessionId).key("label").value(f.label).key("source").value(f.source);
        w.key("offset_ns").value(f.offsetNs).key("total_ns").value(f.totalNs);
        w.key("frontend_ns").value(f.frontendNs).key("backend_ns").value(f.backendNs);
        w.key("ninja_output").value(f.output).key("ninja_ns");
        f.ninjaNs ? w.value(*f.ninjaNs) : w.null();
        w.endObject();
    }
    w.endArray();
    costJson(w, "headers", r.headers, top);
    costJson(w, "templates", r.templates, top);
    costJson(w, "template_sets", r.templateSets, top);
    costJson(w, "optimised_functions", r.optimisedFunctions, top);
    costJson(w, "generated_functions", r.generatedFunctions, top);
    w.key("phases").beginArray();
    for (size_t i = 0; i < r.phases.size() && i < top; ++i) {
        const auto& p = r.phases[i];
        w.beginObject().key("name").value(p.name).key("stage").value(p.backend ? "backend" : "frontend");
        w.key("ns").value(p.ns).key("count").value(p.count).key("files").value(p.files).endObject();
    }
    w.endArray();
    w.key("ninja_commands").value(static_cast<std::int64_t>(r.ninjaTargets.size())).key("ninja_joined").value(r.ninjaJoined);
    const auto& sc = r.schedule;
    w.key("schedule").beginObject().key("from").value(sc.fromNinjaLog ? "ninja_log" : "time_traces");
    w.key("targets").value(sc.targets).key("wall_ns").value(sc.wallNs).key("busy_ns").value(sc.busyNs);
    w.key("average_parallelism").value(sc.averageParallelism);
    w.key("peak_concurrency").value(static_cast<std::int64_t>(sc.peakConcurrency));
    w.key("critical_path_ns").value(sc.criticalPathNs).key("critical_path").beginArray();
    for (const auto& p : sc.criticalPath)
        w.beginObject().key("output").value(p.output).key("span_id").value(p.spanId).key("start_ns").value(p.startNs)
            .key("dur_ns").value(p.durNs).endObject();
    w.endArray().endObject();
    w.endObject();
    out << "\n";
}

void printSchedule(std::ostream& out, const engine::build::BuildSchedule& s, std::int64_t buildStartNs, size_t top) {
    if (s.targets == 0) return;
    const char* what = s.fromNinjaLog ? "ninja commands" : "files";
    out << "\nParallelism (" << what << "): wall " << util::formatDuration(s.wallNs) << ", busy "
        << util::formatDuration(s.busyNs) << ", average " << util::formatFixed(s.averageParallelism, 2) << ", peak "
        << s.peakConcurrency << "\n";
    out << "Critical path by timing only (no dependency edges are recorded): " << s.criticalPath.size() << " steps, "
        << util::formatDuration(s.criticalPathNs) << " (" << util::formatShare(s.criticalPathNs, s.wallNs) << " of the wall)\n";
    TablePrinter t({"#", "output", "start", "duration"});
    const size_t n = s.criticalPath.size();
    // The path's last steps are what ended the build: with --top N, the last N.
    for (size_t i = n > top ? n - top : 0; i < n; ++i) {
        const auto& p = s.criticalPath[i];
        t.addRow({std::to_string(i + 1), p.output, util::formatOffset(util::satSub(p.startNs, buildStartNs)),
                  util::formatDuration(p.durNs)});
    }
    t.print(out, 100);
}

void printText(std::ostream& out, const std::string& label, const BuildReport& r, size_t top) {
    out << "build " << label << ": " << r.files.size() << " time traces, " << util::formatDuration(r.totalNs)
        << " of compiler time: frontend " << util::formatDuration(r.frontendNs) << " (" << util::formatShare(r.frontendNs, r.totalNs)
        << "), backend " << util::formatDuration(r.backendNs) << " (" << util::formatShare(r.backendNs, r.totalNs) << ")\n";
    out << "span " << util::formatDuration(util::satSub(r.spanEndNs, r.spanStartNs)) << ", peak parallelism " << r.peakParallelism;
    if (!r.ninjaTargets.empty())
        out << ", " << util::formatCount(static_cast<std::int64_t>(r.ninjaTargets.size())) << " ninja commands ("
            << util::formatCount(r.ninjaJoined) << " joined to a time trace)";
    out << "\n";
    printSchedule(out, r.schedule, r.spanStartNs, top);
    if (!r.files.empty()) {
        out << "\nFiles (slowest first):\n";
        TablePrinter t({"file", "start", "total", "frontend", "backend", "ninja"});
        for (size_t i = 0; i < r.files.size() && i < top; ++i) {
            const auto& f = r.files[i];
            t.addRow({f.label, util::formatOffset(f.offsetNs), util::formatDuration(f.totalNs),
                      util::formatDuration(f.frontendNs), util::formatDuration(f.backendNs),
                      f.ninjaNs ? util::formatDuration(*f.ninjaNs) : "-"});
        }
        t.print(out, 100);
    }
    if (!r.phases.empty()) {
        out << "\nPhases (each in the frontend or the backend event that contains it):\n";
        TablePrinter t({"phase", "stage", "time", "count", "files"});
        for (size_t i = 0; i < r.phases.size() && i < top; ++i) {
            const auto& p = r.phases[i];
            t.addRow({p.name, p.backend ? "backend" : "frontend", util::formatDuration(p.ns), util::formatCount(p.count),
                      util::formatCount(p.files)});
        }
        t.print(out, 100);
    }
    costTable(out, "Headers by inclusive parse time", "header", r.headers, top);
    costTable(out, "Template instantiations", "template", r.templates, top);
    costTable(out, "Template sets (arguments folded)", "template set", r.templateSets, top);
    costTable(out, "Functions optimised (OptFunction)", "function", r.optimisedFunctions, top);
    costTable(out, "Functions generated (CodeGen Function)", "function", r.generatedFunctions, top);
}

int runBuildReport(const std::vector<std::string>& args, CommandIo& io) {
    bool json = false;
    size_t top = 10;
    std::string trace;
    for (size_t i = 0; i < args.size(); ++i) {
        const auto& a = args[i];
        if (a == "--json") {
            json = true;
        } else if (a == "--top") {
            if (++i >= args.size()) return usageError(io, "build-report", "--top needs a number");
            const std::string& v = args[i];
            auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), top);
            if (ec != std::errc() || p != v.data() + v.size() || top == 0)
                return usageError(io, "build-report", "--top needs a positive number, not \"" + v + "\"");
        } else if (!a.empty() && a[0] == '-') {
            return usageError(io, "build-report", "unknown option " + a);
        } else if (trace.empty()) {
            trace = a;
        } else {
            return usageError(io, "build-report", "expected exactly one TRACE argument");
        }
    }
    if (trace.empty()) return usageError(io, "build-report", "expected a TRACE argument");
    auto analysis = engine::analyseTraceFile(trace);
    if (!analysis->build) {
        io.err << "compilescope build-report: " << traceLabel(trace)
               << " holds no clang -ftime-trace files and no .ninja_log (import them with 'compilescope import')\n";
        return Exit::CheckFailed;
    }
    if (json) printJson(io.out, traceLabel(trace), *analysis->build, top);
    else printText(io.out, traceLabel(trace), *analysis->build, top);
    return Exit::Ok;
}
}  // namespace

Command buildReportCommand() {
    return {"build-report", "a build's clang time traces: slow files, headers, templates, functions",
            "Usage: compilescope build-report TRACE [--top N] [--json]\n\n"
            "For a trace imported from a build's clang -ftime-trace files (and its .ninja_log): compiler time\n"
            "per file split into frontend and backend, where each file started in the build, the headers\n"
            "with the most inclusive parse time over all files (how many files include them, which one\n"
            "most expensively), the most expensive template instantiations and template sets (arguments\n"
            "folded to $), and the functions that took longest to optimise and to generate. --top N lists\n"
            "N rows per table (default 10); --json writes the same as one JSON object. What to change is\n"
            "in 'compilescope findings' (kinds build.*). See docs/builds.md.\n",
            runBuildReport};
}

}  // namespace cs::cli
