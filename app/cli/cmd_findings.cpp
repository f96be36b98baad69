// `compilescope findings TRACE [--json]`: every finding of every analysis of a trace.
#include "cache_text.h"
#include "command.h"
#include "loss_line.h"

#include "core/engine/analysis/trace_analysis.h"
#include "core/util/json_writer.h"
#include "core/util/units.h"

namespace cs::cli {

namespace {
void printJson(std::ostream& out, const std::string& label, const std::vector<engine::Finding>& findings) {
    util::JsonWriter w(out, true);
    w.beginObject().key("trace").value(label).key("findings").beginArray();
    for (const auto& f : findings) {
        w.beginObject();
        w.key("kind").value(f.kind).key("severity").value(engine::severityName(f.severity));
        w.key("title").value(f.title).key("mechanism").value(f.mechanism).key("fix").value(f.fix);
        w.key("cost_ns");
        f.costNs ? w.value(*f.costNs) : w.null();
        w.key("session_id");
        f.sessionId ? w.value(*f.sessionId) : w.null();
        w.key("start_ns");
        f.startNs ? w.value(*f.startNs) : w.null();
        w.key("end_ns");
        f.endNs ? w.value(*f.endNs) : w.null();
        w.key("evidence").beginArray();
        for (const auto& e : f.evidence)
            w.beginObject().key("table").value(e.table).key("row_id").value(e.rowId).key("note").value(e.note).endObject();
        w.endArray().endObject();
    }
    w.endArray().endObject();
    out << "\n";
}

int runFindings(const std::vector<std::string>& args, CommandIo& io) {
    bool json = false;
    std::string trace;
    for (const auto& a : args) {
        if (a == "--json") json = true;
        else if (!a.empty() && a[0] == '-') return usageError(io, "findings", "unknown option " + a);
        else if (trace.empty()) trace = a;
        else return usageError(io, "findings", "expected exactly one TRACE argument");
    }
    if (trace.empty()) return usageError(io, "findings", "expected a TRACE argument");
    auto analysis = engine::analyseTraceFile(trace);
    const auto& findings = analysis->findings;
    // JSON on stdout stays one object: the loss line goes to stderr (the loss findings are in the list).
    printLossLine(json ? io.err : io.out, analysis->losses);
    if (json) {
        printJson(io.out, traceLabel(trace), findings);
        return Exit::Ok;
    }
    io.out << "findings " << traceLabel(trace) << ": " << findings.size() << "\n";
    for (const auto& f : findings) {
        io.out << "[" << engine::severityName(f.severity) << "] " << f.kind << ": " << f.title << "\n";
        io.out << "  why: " << f.mechanism << "\n";
        if (f.costNs) io.out << "  cost: " << util::formatDuration(*f.costNs) << "\n";
        io.out << "  fix: " << f.fix << "\n";
        for (const auto& e : f.evidence) io.out << "  evidence: " << evidenceText(e) << "\n";
    }
    return Exit::Ok;
}
}  // namespace

Command findingsCommand() {
    return {"findings", "every finding of every analysis of a trace (--json for tools)",
            "Usage: compilescope findings TRACE [--json]\n\n"
            "Runs every analysis that applies to the trace (cache replay, ...) and lists its findings:\n"
            "kind, severity, what happened, why, the estimated cost, the fix and the rows that prove it.\n"
            "--json writes the same list as one JSON object for other tools.\n",
            runFindings};
}

}  // namespace cs::cli
