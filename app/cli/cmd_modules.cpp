// `compilescope modules TRACE`: Warp module identities as a repeated-hashes table, then the findings.
#include "command.h"
#include "loss_line.h"
#include "table_printer.h"

#include "core/engine/warp/warp_diagnosis.h"
#include "core/engine/analysis/trace_analysis.h"

#include <algorithm>
#include <cstdio>

namespace cs::cli {

namespace {
std::string ms(std::int64_t ns) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.2f", static_cast<double>(ns) / 1e6);
    return buf;
}

std::string joined(const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "" : ",") + x;
    return s.empty() ? "-" : s;
}

void printFinding(std::ostream& out, const engine::Finding& f) {
    out << "[" << engine::severityName(f.severity) << "] " << f.kind << ": " << f.title << "\n";
    if (f.costNs) out << "  cost:      ~" << ms(*f.costNs) << " ms (estimated from recorded durations)\n";
    out << "  mechanism: " << f.mechanism << "\n";
    for (size_t i = 0; i < f.evidence.size(); ++i)
        out << (i ? "             " : "  evidence:  ") << f.evidence[i].note << "\n";
    out << "  fix:       " << f.fix << "\n";
}

int runModules(const std::vector<std::string>& args, CommandIo& io) {
    if (args.size() != 1) return usageError(io, "modules", "expected exactly one TRACE argument");
    auto analysis = engine::analyseTraceFile(args[0]);
    const engine::warp::ModuleReport& report = *analysis->modules;
    std::vector<engine::Finding> findings;
    for (const auto& f : analysis->findings)
        if (f.kind.rfind("warp.", 0) == 0) findings.push_back(f);
    auto& out = io.out;
    printLossLine(out, analysis->losses);
    if (report.loadCount == 0) {
        out << "no Warp module loads in this trace\n";
        return Exit::Ok;
    }
    size_t identities = 0;
    for (const auto& m : report.modules) identities += m.identities.size();
    out << "Warp modules: " << report.loadCount << " loads, " << report.modules.size() << " module names, "
        << identities << " distinct identities (name, hash, device, block_dim)\n\n";

    // Most expensive first, so repeated builds of big modules lead.
    std::vector<const engine::warp::ModuleSummary*> rows;
    for (const auto& m : report.modules) rows.push_back(&m);
    std::stable_sort(rows.begin(), rows.end(), [](auto* a, auto* b) { return a->totalNs > b->totalNs; });
    const bool manySessions = report.sessions.size() > 1;
    std::vector<std::string> header = {"module", "device", "hashes", "block_dims", "compiled", "cached", "errors", "ms"};
    if (manySessions) header.insert(header.begin(), "session");
    TablePrinter table(header);
    for (auto* m : rows) {
        std::vector<std::string> dims;
        for (auto d : m->blockDims) dims.push_back(std::to_string(d));
        std::vector<std::string> shortHashes;
        for (const auto& h : m->hashes) shortHashes.push_back(engine::warp::shortHash(h));
        std::string hashes = shortHashes.size() > 1 ? std::to_string(shortHashes.size()) + ": " + joined(shortHashes)
                                                    : joined(shortHashes);
        std::vector<std::string> row = {m->name, joined(m->devices), hashes, joined(dims), std::to_string(m->compiled),
                                        std::to_string(m->cached), std::to_string(m->errors), ms(m->totalNs)};
        if (manySessions) row.insert(row.begin(), std::to_string(m->sessionId));
        table.addRow(std::move(row));
    }
    table.print(out, 100);

    // What moved between identities, where the trace knows it.
    bool anyDiff = false;
    for (auto* m : rows) {
        for (const auto& d : m->diffs) {
            if (d.changes.empty()) continue;
            if (!anyDiff) out << "\nWhat changed between identities:\n";
            anyDiff = true;
            out << "  " << m->name << " " << engine::warp::shortHash(m->identities[d.from].hash) << " -> "
                << engine::warp::shortHash(m->identities[d.to].hash) << ":";
            for (const auto& c : d.changes) {
                out << " " << engine::warp::changeKindName(c.kind) << " " << c.subject;
                if (!c.before.empty() && !c.after.empty()) out << " (" << c.before << " -> " << c.after << ")";
                out << ";";
            }
            out << "\n";
        }
    }

    if (findings.empty()) {
        out << "\nNo findings: every module identity was built once, no cached load repeated, and nothing in the "
               "trace shows serial builds. The cost is the size of the builds themselves.\n";
        return Exit::Ok;
    }
    out << "\n" << findings.size() << " finding" << (findings.size() == 1 ? "" : "s") << ":\n";
    for (const auto& f : findings) {
        out << "\n";
        printFinding(out, f);
    }
    return Exit::Ok;
}
}  // namespace

Command modulesCommand() {
    return {"modules", "Warp module identities: repeated hashes, block_dims, cache reuse, with findings",
            "Usage: compilescope modules TRACE\n\n"
            "Prints one row per module name (per session when the trace has several): devices, the hashes it\n"
            "was built under, block_dims, compiled / cached / error counts and total load ms; then what moved\n"
            "between identities (kernels, options, generic instances) when the trace records it; then the\n"
            "findings by the Warp diagnosis table (docs/warp.md), each with mechanism, evidence rows, estimated cost and fix.\n",
            runModules};
}

}  // namespace cs::cli
