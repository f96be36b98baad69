// `compilescope info TRACE [--json]`: what a trace holds, at a glance, and what was lost on the way in.
// Every figure is the engine's analysis (core/engine/analysis/trace_analysis.h), the same the GUI's Overview
// and the report show.
#include "command.h"
#include "table_printer.h"

#include "core/engine/analysis/trace_analysis.h"
#include "core/engine/analysis/trace_figures.h"
#include "core/trace/reader.h"
#include "core/trace/trace_error.h"
#include "core/util/json_writer.h"
#include "core/util/saturating.h"
#include "core/util/units.h"
#include "core/util/utf8.h"

#include <cmath>

namespace cs::cli {

namespace {
std::string percent(double share) { return std::to_string(static_cast<int>(std::lround(share * 100))) + " %"; }

void printJson(std::ostream& out, const trace::TraceReader& reader, const engine::TraceAnalysis& a) {
    const engine::CompileSummary& s = a.summary;
    util::JsonWriter j(out, true);
    j.beginObject().key("trace").value(reader.path()).key("format_version").value(reader.formatVersion());
    j.key("sessions").beginArray();
    for (const auto& ses : s.sessions) {
        j.beginObject().key("id").value(ses.id).key("label").value(ses.label).key("runtime").value(ses.runtime);
        j.key("time_base").value(engine::timeBaseName(ses.base)).key("finished").value(ses.endNs.has_value());
        j.key("exit_status");
        ses.exitStatus ? j.value(*ses.exitStatus) : j.null();
        j.endObject();
    }
    j.endArray();
    j.key("time_span_ns").value(s.spanNs()).key("wall_clock").value(s.wallClock).key("wall_ns").value(s.wallNs);
    j.key("compile_ns").value(s.compileNs).key("clocked_compile_ns").value(s.clockedCompileNs);
    j.key("compile_share");
    s.compileShare() ? j.value(*s.compileShare()) : j.null();
    j.key("cache_load_ns").value(s.cacheLoadNs).key("untimed_compiles").value(s.untimedCompiles);
    j.key("acceptance").value(engine::verdictName(a.verdict.state));
    j.key("findings").value(static_cast<std::int64_t>(a.findings.size()));
    j.key("module_loads").value(a.moduleLoads()).key("module_names").value(a.moduleNames());
    j.key("repeated_modules").value(a.repeatedModules());
    j.key("lookups").value(a.facts.lookups).key("misses").value(a.facts.misses);
    j.key("stat_kinds").value(a.facts.statKinds);
    j.key("dropped_events").value(a.losses.droppedEvents).key("unread_input").value(a.losses.unreadInput);
    j.key("trace_problems").beginArray();
    for (const auto& p : a.facts.problems)
        j.beginObject().key("kind").value(p.kind).key("table").value(p.table).key("column").value(p.column)
            .key("count").value(p.count).key("first_rowid").value(p.firstRowId).endObject();
    j.endArray();
    // Every headline figure under its stable key (engine/analysis/trace_figures.h), as the GUI and report show it.
    j.key("figures");
    engine::writeFiguresJson(j, engine::traceFigures(a));
    j.endObject();
    out << "\n";
}

// "complete" or "unfinished", and how the job ended.
std::string sessionState(const engine::SessionSummary& ses) {
    const bool ended = ses.endNs.has_value();
    std::string state = ended ? "complete" : "unfinished";
    // A negative status is the signal that killed the job (docs/trace-format.md).
    // Read from the file, so any value: only -1..-127 name a signal (and negating INT64_MIN is UB).
    if (ses.exitStatus && *ses.exitStatus < 0 && *ses.exitStatus >= -127)
        state += ", killed by signal " + std::to_string(-*ses.exitStatus);
    else if (ses.exitStatus && *ses.exitStatus < 0)
        state += ", exit status " + std::to_string(*ses.exitStatus) + " (not a signal number)";
    else if (ses.exitStatus) state += ", exit " + std::to_string(*ses.exitStatus);
    return state;
}

std::string sessionStart(const engine::SessionSummary& ses) {
    // "+" only before an offset that is one ("+-8.9e9 s" read as neither), and an offset to the
    // display axis that saturated places nothing: said, not shown as "+-1 ns" (issue 40).
    const bool placed = ses.offsetNs != INT64_MAX && ses.offsetNs != INT64_MIN;
    return !ses.firstNs ? "-"
           : !placed    ? "unknown (offset saturated)"
                        : (*ses.firstNs >= 0 ? "+" : "") + util::formatDuration(*ses.firstNs);
}

void printSessions(std::ostream& out, const engine::CompileSummary& s) {
    TablePrinter sessions({"session", "runtime", "pid", "command / source", "time base", "start", "duration", "state"});
    for (const auto& ses : s.sessions) {
        std::string duration = ses.firstNs && ses.lastNs ? util::formatDuration(util::satSub(*ses.lastNs, *ses.firstNs)) : "-";
        sessions.addRow({std::to_string(ses.id), ses.runtime, ses.pid ? std::to_string(*ses.pid) : "-",
                         ses.command.empty() ? "-" : ses.command, engine::timeBaseName(ses.base), sessionStart(ses),
                         duration, sessionState(ses)});
    }
    out << "sessions: " << sessions.rowCount() << "\n";
    if (sessions.rowCount()) sessions.print(out);
}

// The time span, compile and cache-load time, the verdict and the counts.
void printTimes(std::ostream& out, const engine::TraceAnalysis& a) {
    const engine::CompileSummary& s = a.summary;
    if (s.spanStartNs) {
        out << "time span: " << util::formatDuration(s.spanNs())
            << (s.wallClock ? " (clocked work)" : " (work laid end to end; no wall clock)") << "\n";
    } else {
        out << "time span: - (no timestamps: nothing in the trace is timed)\n";
    }
    // Compiles whose time the input never printed (a cut paste, an untimed log) and none timed: the
    // total is unknown, not 0 ns (issue 35).
    if (s.compileNs == 0 && s.untimedCompiles > 0) out << "compile time: unknown";
    else out << "compile time: " << util::formatDuration(s.compileNs);
    // The share is of the clocked part (docs/accounting.md); a log's durations, outside the wall
    // time, are said apart, so the figure beside the wall time never exceeds it (issue 35).
    const std::int64_t unclocked = util::satSub(s.compileNs, s.clockedCompileNs);
    if (auto share = s.compileShare(); share && unclocked > 0)
        out << " (" << util::formatDuration(s.clockedCompileNs) << " of it in " << util::formatDuration(s.wallNs)
            << " of clocked wall time, " << percent(*share) << "; " << util::formatDuration(unclocked) << " from logs without a clock)";
    else if (share) out << " (" << percent(*share) << " of the clocked wall time)";
    else out << " (no wall clock: no share of wall time)";
    out << "\n";
    if (auto re = s.recompileShare())
        out << "recompilation: " << util::formatDuration(s.recompileNs) << " of the " << util::formatDuration(s.reportedCompileNs)
            << " the runtime reported (" << percent(*re) << ")\n";
    if (s.untimedCompiles) out << "untimed compiles: " << s.untimedCompiles << " (time not recorded)\n";
    out << "cache-load time: " << util::formatDuration(s.cacheLoadNs) << "\n";
    out << "acceptance: " << engine::verdictName(a.verdict.state) << "\n";
    out << "findings: " << a.findings.size() << "\n";
    if (a.moduleLoads())
        out << "modules: " << a.moduleLoads() << " loads, " << a.moduleNames() << " names, " << a.repeatedModules()
            << " built under more than one identity\n";
}

// Rows per family, what was not used on the way in, and the trace problems.
void printStats(std::ostream& out, const engine::TraceAnalysis& a) {
    out << "rows per fact family:\n";
    TablePrinter counts({"family", "rows"});
    for (const auto& f : a.facts.families) counts.addRow({f.family, std::to_string(f.rows)});
    counts.print(out);

    if (a.facts.statKinds == 0) {
        out << "stats: nothing dropped or malformed\n";
    } else {
        TablePrinter stats({"stat", "source", "count", "first example"});
        for (const auto& st : a.facts.stats) stats.addRow({st.name, st.source, std::to_string(st.count), st.detail});
        out << "stats: " << a.facts.statKinds << " kinds of input not used (dropped, malformed, or read and not needed: "
            << (a.losses.any() ? "see the warning above" : "nothing lost") << ")\n";
        stats.print(out, 100);
    }
    if (!a.facts.problems.empty()) {
        out << "trace problems:\n";
        for (const auto& p : a.facts.problems) out << "  " << p.kind << ": " << p.describe() << "\n";
    }
}

int runInfo(const std::vector<std::string>& args, CommandIo& io) {
    bool json = false, check = false;
    std::string path;
    for (const auto& a : args) {
        if (a == "--json") json = true;
        else if (a == "--check") check = true;
        else if (!a.empty() && a[0] == '-') return usageError(io, "info", "unknown option " + a);
        else if (path.empty()) path = a;
        else return usageError(io, "info", "expected exactly one TRACE argument");
    }
    if (path.empty()) return usageError(io, "info", "expected exactly one TRACE argument");
    auto reader = trace::TraceReader::open(path);
    if (check) {
        // On demand, not on every open: quick_check reads every page through the b-tree code, a few
        // seconds at 10M events (docs/reliability.md); the page checksums on open are the cheap part.
        std::string quick = reader->quickCheck();
        if (quick != "ok")
            throw trace::TraceError(trace::TraceErrorKind::Corrupt, reader->path(), "quick_check: " + quick);
    }
    auto analysis = engine::analyseTrace(*reader);
    const engine::TraceAnalysis& a = *analysis;
    if (json) {
        printJson(io.out, *reader, a);
        return Exit::Ok;
    }
    auto& out = io.out;
    // A loss comes first: every figure below is affected by it.
    if (a.losses.any()) out << "warning: " << a.losses.headline() << " (stats at the end; `compilescope findings` for remedies)\n";
    if (!a.facts.problems.empty())
        out << "warning: " << a.facts.problems.size()
            << " kind(s) of trace problem (rows that break the trace format, left out of every figure; see the end)\n";
    out << "trace:   " << util::printablePath(reader->path()) << "\n";
    out << "pages:   checksums " << reader->pageCheck() << (check ? "; quick_check ok" : "") << "\n";
    out << "format:  v" << reader->formatVersion() << ", written by " << reader->meta("creator") << "\n";
    printSessions(out, a.summary);
    printTimes(out, a);
    printStats(out, a);
    return Exit::Ok;
}
}  // namespace

Command infoCommand() {
    return {"info", "summarise a trace: sessions, time span, compile and cache-load time, verdict, stats",
            "Usage: compilescope info TRACE [--json] [--check]\n\n"
            "Prints the trace's sessions with their time base (recorded clock, own clock, sequence only,\n"
            "untimed), the time span of the clocked work, compile time and cache-load time (defined in\n"
            "docs/accounting.md), the acceptance verdict, the number of findings, module identity counts,\n"
            "rows per fact family and the stats table (what was dropped or malformed on the way in; a\n"
            "warning on the first line when anything was), and trace problems (rows that break the\n"
            "format: dangling references, negative durations). --json writes the same figures for tools.\n"
            "--check also runs SQLite's quick_check (page checksums are verified on every open).\n"
            "Exit status 2 when TRACE cannot be read; the message says why.\n",
            runInfo};
}

}  // namespace cs::cli
