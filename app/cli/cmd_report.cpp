// `compilescope report TRACE [TRACE...] -o report.html`: the HTML report, one self-contained file.
#include "command.h"

#include "core/measure/ledger.h"
#include "core/report/report.h"
#include "core/util/utf8.h"

#include <filesystem>
#include <fstream>

namespace cs::cli {

namespace {
int runReport(const std::vector<std::string>& args, CommandIo& io) {
    std::vector<std::string> traces;
    std::string output, ledgerPath, splitDir;
    report::ReportOptions options;
    options.generator = "compilescope report";
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto value = [&](const char* what) -> const std::string* {
            if (i + 1 >= args.size()) return nullptr;
            (void)what;
            return &args[++i];
        };
        if (a == "-o" || a == "--output" || a == "--ledger" || a == "--title" || a == "--buckets" || a == "--split" ||
            a == "--baseline") {
            const std::string* v = value(a.c_str());
            if (!v) return usageError(io, "report", a + " needs a value");
            if (a == "--ledger") ledgerPath = *v;
            else if (a == "--split") splitDir = *v;
            else if (a == "--baseline") options.baseline = *v;
            else if (a == "--title") options.title = *v;
            else if (a == "--buckets") {
                try {
                    options.timelineBuckets = std::stoi(*v);
                } catch (const std::exception&) {
                    options.timelineBuckets = 0;
                }
                if (options.timelineBuckets < 10 || options.timelineBuckets > 2000)
                    return usageError(io, "report", "--buckets must be a number from 10 to 2000");
            } else output = *v;
        } else if (a == "--ranks") {
            options.asRanks = true;
        } else if (!a.empty() && a[0] == '-') {
            return usageError(io, "report", "unknown option '" + a + "'");
        } else {
            traces.push_back(a);
        }
    }
    if (traces.empty()) return usageError(io, "report", "expected at least one TRACE");
    if (!output.empty() && !splitDir.empty()) return usageError(io, "report", "-o and --split exclude each other");
    if (output.empty() && splitDir.empty())
        return usageError(io, "report", "expected -o FILE (the report to write) or --split DIR");
    measure::Ledger ledger;
    if (!ledgerPath.empty()) {
        ledger = measure::readLedger(ledgerPath);
        options.ledger = &ledger;
    }
    if (!splitDir.empty()) {
        options.compileIndexRows = 5000;  // pages of their own: the index page stays small
        report::writeReportSplit(traces, options, splitDir);
        io.out << "wrote " << util::printablePath(splitDir) << "/index.html and its compiles/ pages (" << traces.size() << " trace"
               << (traces.size() == 1 ? "" : "s") << ")\n";
        return Exit::Ok;
    }
    // Written beside the target and renamed, so a failed run never leaves half a report.
    std::string tmp = output + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out) {
            io.err << "compilescope report: cannot write " << output << "\n";
            return Exit::Unreadable;
        }
        try {
            report::writeReport(traces, options, out);
        } catch (...) {
            out.close();
            std::filesystem::remove(tmp);
            throw;
        }
        if (!out.flush()) {
            io.err << "compilescope report: cannot write " << output << "\n";
            return Exit::Unreadable;
        }
    }
    std::filesystem::rename(tmp, output);
    io.out << "wrote " << util::printablePath(output) << " (" << std::filesystem::file_size(output) << " bytes, " << traces.size()
           << " trace" << (traces.size() == 1 ? "" : "s") << ")\n";
    return Exit::Ok;
}
}  // namespace

Command reportCommand() {
    return {"report", "write the HTML report of one trace, or compare several",
            "Usage: compilescope report TRACE [TRACE...] (-o report.html | --split DIR) [--ledger FILE]\n"
            "                           [--title TEXT] [--buckets N] [--baseline BASE] [--ranks]\n\n"
            "Writes one self-contained HTML file (inline CSS, JS and SVG; no network access): summary and\n"
            "acceptance verdict, an index of every compile and cache event (outcome, why, cost) linked to\n"
            "each one's details (key before -> after, options, log, phases, findings, place on the timeline),\n"
            "findings with fixes, an aggregated timeline, cache misses with reasons, repeated module hashes,\n"
            "invalidation trees, compiler phases. With several traces the first is\n"
            "the baseline and each other one is compared with it (medians, deltas, inconclusive inside\n"
            "max(1% of baseline, 2 x baseline MAD); refused when the launch topology changed).\n\n"
            "  -o FILE         the report to write (replaced atomically)\n"
            "  --split DIR     for very large traces: DIR/index.html plus one page per compile in\n"
            "                  DIR/compiles/ (up to 5000 listed), as tlparse writes its output folder\n"
            "  --ledger FILE   options measured and not taken: a Markdown table\n"
            "                  | Option | Measured | Why not taken | To take it |, or a JSON array of\n"
            "                  {option, measured, why_not_taken, to_take_it}\n"
            "  --title TEXT    the report's title\n"
            "  --buckets N     timeline resolution, 10..2000 buckets (default 200)\n"
            "  --baseline BASE the report opens with \"Changed since baseline\": what 'compilescope diff BASE\n"
            "                  TRACE' finds (new, gone, recompiled, slower compiles; findings; verdict), each\n"
            "                  linked to its row here, with its compile time in both runs as a pair of bars\n"
            "  --ranks         several traces are the ranks of one job: the Ranks section compares them\n"
            "                  (programs, steps, slow ranks) even when their command lines differ; without it\n"
            "                  only traces of one program (the same runtime and command line) are compared\n\n"
            "Exit status 2 when a trace or the ledger cannot be read; the message says why.\n",
            runReport};
}

}  // namespace cs::cli
