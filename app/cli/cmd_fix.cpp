// `compilescope fix TRACE [--finding ID] [-o DIR]`: the change that applies each mechanical fix, and
// `fix --verify [RUNTIME] [-o DIR] -- CMD`: the loop that proves it (record, apply, record, diff).
#include "cache_text.h"
#include "command.h"
#include "diff_output.h"
#include "fix_output.h"

#include "core/engine/analysis/fix_sources.h"
#include "core/engine/analysis/trace_analysis.h"
#include "core/measure/trace_diff.h"
#include "core/trace/reader.h"
#include "core/trace/trace_error.h"
#include "core/util/utf8.h"

#include <filesystem>
#include <set>
#include <stdexcept>

namespace cs::cli {

namespace {
struct FixArgs {
    std::string trace, finding, dir;
    bool verify = false;
    std::vector<std::string> runtimes, command;
};

std::string parseFixArgs(const std::vector<std::string>& args, FixArgs& f) {
    for (size_t i = 0; i < args.size(); ++i) {
        const auto& a = args[i];
        if (a == "--") {
            f.command.assign(args.begin() + static_cast<std::ptrdiff_t>(i) + 1, args.end());
            break;
        }
        if (a == "--verify") f.verify = true;
        else if (a == "--warp" || a == "--torch" || a == "--jax" || a == "--numba" || a == "--cuda") f.runtimes.push_back(a);
        else if (a == "--finding" || a == "-o") {
            if (++i >= args.size()) return a + " needs a value";
            (a == "-o" ? f.dir : f.finding) = args[i];
        } else if (!a.empty() && a[0] == '-') return "unknown option " + a;
        else if (f.trace.empty()) f.trace = a;
        else return "expected one TRACE argument";
    }
    if (f.verify && f.command.empty()) return "--verify needs a command after --";
    if (f.verify && !f.trace.empty()) return "--verify records its own traces: give the command, not a TRACE";
    if (!f.verify && f.trace.empty()) return "expected a TRACE argument";
    return "";
}

// "3" (the finding's id, as fix prints it) or a kind: the indices it selects.
std::optional<std::string> selectFindings(const engine::TraceAnalysis& a, const std::string& id, std::set<size_t>& out) {
    if (id.empty()) return std::nullopt;
    if (id.find_first_not_of("0123456789") == std::string::npos) {
        size_t n = std::stoul(id);
        if (n == 0 || n > a.findings.size())
            return "no finding " + id + " (the trace has " + std::to_string(a.findings.size()) + ")";
        out.insert(n - 1);
        return std::nullopt;
    }
    for (size_t i = 0; i < a.findings.size(); ++i)
        if (a.findings[i].kind == id) out.insert(i);
    if (out.empty()) return "no finding of kind " + id;
    return std::nullopt;
}

engine::fix::FixPlan planFor(const std::string& trace, const engine::TraceAnalysis& a, const std::set<size_t>& only) {
    auto reader = trace::TraceReader::open(trace);
    auto context = engine::fix::loadFixContext(*reader, std::filesystem::current_path().string());
    if (only.empty()) return engine::fix::planFixes(engine::fixSourcesOf(a), context);
    engine::fix::FixPlan plan;
    for (auto i : only) {
        auto part = engine::fix::planFixes(engine::fixSourcesOf(a), context, i);
        for (auto& c : part.changes) plan.changes.push_back(std::move(c));
        for (auto& n : part.none) plan.none.push_back(std::move(n));
    }
    return plan;
}

int showFixes(const FixArgs& f, const std::string& trace, CommandIo& io) {
    auto analysis = engine::analyseTraceFile(trace);
    std::set<size_t> only;
    if (auto bad = selectFindings(*analysis, f.finding, only)) return usageError(io, "fix", *bad);
    auto plan = planFor(trace, *analysis, only);
    printFixPlan(io.out, traceLabel(trace), *analysis, plan);
    if (analysis->findings.empty() && plan.changes.empty()) io.out << "no findings: nothing to fix\n";
    if (!f.dir.empty() && !plan.changes.empty()) {
        for (const auto& p : writeFixFiles(f.dir, *analysis, plan)) io.out << "wrote " << util::printablePath(p) << "\n";
    }
    return Exit::Ok;
}

// "norm (/tmp/a.py:3): 3 compiles for ..." -> "norm (/tmp/a.py:3)"; "module X built under ..." -> "module X".
std::string subjectOf(const engine::Finding& f) {
    auto colon = f.title.find("): ");
    if (colon != std::string::npos) return f.title.substr(0, colon + 1);
    auto built = f.title.find(" built under ");
    return built != std::string::npos ? f.title.substr(0, built) : f.title;
}

int record(const std::string& trace, const FixArgs& f, CommandIo& io) {
    std::vector<std::string> args = {"-o", trace};
    args.insert(args.end(), f.runtimes.begin(), f.runtimes.end());
    args.push_back("--");
    args.insert(args.end(), f.command.begin(), f.command.end());
    for (const auto& c : commands())
        if (c.name == "record") return c.run(args, io);
    return Exit::Usage;
}

int verify(const FixArgs& f, CommandIo& io) {
    const std::string dir = f.dir.empty() ? ".compilescope-fix" : f.dir;
    std::filesystem::create_directories(dir);
    const auto before = dir + "/before.cstrace", after = dir + "/after.cstrace";
    if (!std::filesystem::exists(before)) {
        int rc = record(before, f, io);
        io.out << "recorded " << before << " (command exit " << rc << ")\n";
        FixArgs shown = f;
        shown.dir = dir;
        showFixes(shown, before, io);
        io.out << "\nApply the changes, then run the same `compilescope fix --verify` again: it records " << after
               << " and says, finding by finding, whether each is resolved.\n";
        return Exit::Ok;
    }
    int rc = record(after, f, io);
    io.out << "recorded " << after << " (command exit " << rc << ")\n";
    const auto [baseRuns, headRuns] = measure::analyseSides({before}, {after});
    auto a = engine::analyseTraceFile(before), b = engine::analyseTraceFile(after);
    int open = 0;
    for (size_t i = 0; i < a->findings.size(); ++i) {
        const auto& f0 = a->findings[i];
        bool still = false;
        for (const auto& f1 : b->findings) still = still || (f1.kind == f0.kind && subjectOf(f1) == subjectOf(f0));
        open += still;
        io.out << "finding " << i + 1 << " " << f0.kind << ": " << (still ? "NOT resolved" : "resolved") << ": " << f0.title << "\n";
    }
    io.out << "\n";
    printDiffText(io.out, measure::diffRuns(baseRuns, headRuns), measure::FailOn{});
    return open ? Exit::CheckFailed : Exit::Ok;
}

int runFix(const std::vector<std::string>& args, CommandIo& io) {
    FixArgs f;
    if (auto bad = parseFixArgs(args, f); !bad.empty()) return usageError(io, "fix", bad);
    try {
        return f.verify ? verify(f, io) : showFixes(f, f.trace, io);
    } catch (const std::filesystem::filesystem_error& e) {
        io.err << "compilescope fix: " << e.what() << "\n";
    } catch (const std::runtime_error& e) {
        if (dynamic_cast<const trace::TraceError*>(&e)) throw;
        io.err << "compilescope fix: " << e.what() << "\n";
    }
    return Exit::Unreadable;
}
}  // namespace

Command fixCommand() {
    return {"fix", "the change that applies each mechanical fix: a diff of the source, or a snippet and where it goes",
            "Usage: compilescope fix TRACE [--finding ID] [-o DIR]\n"
            "       compilescope fix --verify [--warp|--torch|--jax|--numba] [-o DIR] -- CMD [ARGS...]\n\n"
            "For each finding whose fix is mechanical, writes the change: a unified diff where the trace names\n"
            "the source file and line (a PyTorch frame, a JAX function, a Numba dispatcher, a Warp session's\n"
            "script), otherwise a snippet and where it goes. Each change carries the finding's id (its place in\n"
            "`compilescope findings`), the expected saving and how to verify it. A finding without a mechanical\n"
            "fix is listed with the reason. Rules per runtime: docs/fix.md.\n"
            "--finding ID   only this finding: its id, or a kind (every finding of that kind)\n"
            "-o DIR         also write each change as DIR/finding-N-RUNTIME.patch (apply: patch FILE < it)\n"
            "               or DIR/finding-N-RUNTIME.snippet.py / .snippet.jl\n"
            "--verify       records CMD (with the runtime flags of `record`) into DIR/before.cstrace (DIR\n"
            "               defaults to .compilescope-fix) and prints the changes; applies nothing. Run it again\n"
            "               after applying them: it records DIR/after.cstrace and prints, finding by finding,\n"
            "               resolved or NOT resolved, then `compilescope diff` of the two runs. Exit 1 while a\n"
            "               finding is not resolved.\n",
            runFix};
}

}  // namespace cs::cli
