// `compilescope export --format tef TRACE -o trace.json`: the trace as Trace Event Format JSON, for
// Perfetto (ui.perfetto.dev) and chrome://tracing. The mapping is core/engine/export/tef_export.h.
// `compilescope export --format jsonl TRACE -o DIR`: every table as JSON lines, for fleet queries
// (docs/fleet.md, core/engine/export/jsonl_export.h).
#include "command.h"
#include "loss_line.h"

#include "core/engine/export/jsonl_export.h"
#include "core/engine/export/tef_export.h"
#include "core/trace/reader.h"
#include "core/util/utf8.h"

#include <filesystem>
#include <fstream>

namespace cs::cli {

namespace {
int exportJsonlDir(const trace::TraceReader& reader, const std::string& dir, CommandIo& io) {
    // An unwritable DIR throws, and runCli prints "compilescope export: cannot write ..." with exit 2.
    const auto counts = engine::exportJsonl(reader, dir);
    std::int64_t rows = 0;
    for (const auto& c : counts) rows += c.rows;
    io.out << "wrote " << counts.size() << " files to " << util::printablePath(dir) << ": " << rows << " rows of trace "
           << engine::traceId(reader) << "\n";
    return Exit::Ok;
}

int runExport(const std::vector<std::string>& args, CommandIo& io) {
    std::string trace, output, format = "tef";
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "-o" || a == "--output" || a == "--format") {
            if (i + 1 >= args.size()) return usageError(io, "export", a + " needs a value");
            (a == "--format" ? format : output) = args[++i];
        } else if (!a.empty() && a[0] == '-') {
            return usageError(io, "export", "unknown option '" + a + "'");
        } else if (trace.empty()) {
            trace = a;
        } else {
            return usageError(io, "export", "expected one TRACE, got '" + trace + "' and '" + a + "'");
        }
    }
    if (format != "tef" && format != "jsonl")
        return usageError(io, "export", "unknown format '" + format + "' (known: tef, jsonl)");
    if (trace.empty()) return usageError(io, "export", "expected a TRACE");
    if (format == "jsonl") {
        if (output.empty() || output == "-") return usageError(io, "export", "--format jsonl expects -o DIR (the folder to write)");
        auto jsonlReader = trace::TraceReader::open(trace);
        printLossLine(io.err, lossesOfTrace(*jsonlReader));
        return exportJsonlDir(*jsonlReader, output, io);
    }
    if (output.empty()) return usageError(io, "export", "expected -o FILE (the JSON to write, - for stdout)");
    auto reader = trace::TraceReader::open(trace);
    // On stderr: stdout may be the JSON itself (-o -).
    printLossLine(io.err, lossesOfTrace(*reader));
    if (output == "-") {
        engine::exportTef(*reader, io.out);
        return Exit::Ok;
    }
    // Written beside the target and renamed, so a failed run never leaves half a file.
    const std::string tmp = output + ".tmp";
    engine::TefExportCounts counts;
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out) {
            io.err << "compilescope export: cannot write " << output << "\n";
            return Exit::Unreadable;
        }
        try {
            counts = engine::exportTef(*reader, out);
        } catch (...) {
            out.close();
            std::filesystem::remove(tmp);
            throw;
        }
        if (!out.flush()) {
            out.close();
            std::filesystem::remove(tmp);
            io.err << "compilescope export: cannot write " << output << "\n";
            return Exit::Unreadable;
        }
    }
    std::filesystem::rename(tmp, output);
    io.out << "wrote " << util::printablePath(output) << ": " << counts.spans << " spans (" << counts.unfinished << " never ended), "
           << counts.runtimeRows << " module loads / programs / phases, " << counts.flows << " flows, " << counts.lookups << " cache lookups, " << counts.steps << " steps on "
           << counts.tracks << " tracks of " << counts.sessions << " sessions\n";
    return Exit::Ok;
}
}  // namespace

Command exportCommand() {
    return {"export", "write a trace as Trace Event Format JSON (Perfetto) or as JSON lines per table (fleets)",
            "Usage: compilescope export [--format tef] TRACE -o FILE\n"
            "       compilescope export --format jsonl TRACE -o DIR\n\n"
            "tef: writes the trace as Trace Event Format JSON, which Perfetto (ui.perfetto.dev) and\n"
            "chrome://tracing open. Each session is a process (named by its label), each track a thread;\n"
            "spans are complete (\"X\") events with their category, detail and every stored arg; spans that\n"
            "never ended are \"B\" events without an end; module loads, NVRTC / nvJitLink programs, driver\n"
            "JIT, kernel launches and compiler phases are complete events on their session's runtime lanes,\n"
            "with every column as an arg; flows are \"s\" / \"f\" events; cache lookups and\n"
            "steps are instant events (hit / miss with the program, key components and step). Times are\n"
            "exact nanoseconds (microseconds with three decimals), shifted per session as the timeline\n"
            "draws them. `compilescope import` reads the file back into the same spans.\n\n"
            "jsonl: writes every table of the trace as newline-delimited JSON, one file per table\n"
            "(DIR/spans.jsonl, DIR/cache_lookups.jsonl, ...) plus DIR/traces.jsonl (one row: the trace's\n"
            "id, creation time and creator). Every row carries the trace id; columns keep the names and\n"
            "types of docs/trace-format.md (times in integer nanoseconds, strings as *_sid ids into\n"
            "strings.jsonl). Spark, Trino, BigQuery and DuckDB read the files as they are; export each\n"
            "trace of a fleet into its own DIR and query them together (docs/fleet.md).\n\n"
            "  --format tef    Trace Event Format JSON (the default)\n"
            "  --format jsonl  JSON lines, one file per table, for fleet queries\n"
            "  -o FILE         tef: the JSON to write (replaced atomically); - writes to stdout\n"
            "  -o DIR          jsonl: the folder to write (created when missing); its files are replaced\n"
            "                  only once all of them are written\n\n"
            "Exit status 2 when the trace cannot be read or FILE / DIR cannot be written.\n",
            runExport};
}

}  // namespace cs::cli
