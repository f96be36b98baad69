// `compilescope diff BASE HEAD`: what compiled differently between two runs (core/measure/trace_diff.h),
// as text, JSON, Markdown or JUnit, with a CI gate.
#include "command.h"
#include "diff_output.h"

#include "core/engine/analysis/trace_analysis.h"

#include <stdexcept>

namespace cs::cli {

namespace {
int runDiff(const std::vector<std::string>& args, CommandIo& io) {
    std::vector<std::string> base, head;
    bool vs = false;
    std::string format = "text", failOn;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--vs") {
            if (vs) return usageError(io, "diff", "--vs given twice");
            vs = true;
        } else if (a == "--json") {
            format = "json";
        } else if (a == "--format" || a == "--fail-on") {
            if (++i >= args.size()) return usageError(io, "diff", a + " needs a value");
            (a == "--format" ? format : failOn) = args[i];
        } else if (a.size() > 1 && a[0] == '-') {
            return usageError(io, "diff", "unknown option " + a);
        } else {
            (vs ? head : base).push_back(a);
        }
    }
    if (!vs && base.size() == 2) head.push_back(base.back()), base.pop_back();
    if (base.empty() || head.empty())
        return usageError(io, "diff", "expected BASE HEAD, or BASE... --vs HEAD... (several traces per side are samples)");
    if (format != "text" && format != "json" && format != "markdown" && format != "junit")
        return usageError(io, "diff", "unknown --format " + format + " (text, json, markdown, junit)");
    measure::FailOn gate;
    try {
        if (!failOn.empty()) gate = measure::parseFailOn(failOn);
    } catch (const std::invalid_argument& e) {
        return usageError(io, "diff", e.what());
    }
    // Unreadable traces are exit 2 (TraceError, handled by the command runner) before anything is compared.
    const auto [baseRuns, headRuns] = measure::analyseSides(base, head);
    const measure::TraceDiff d = measure::diffRuns(baseRuns, headRuns);
    if (format == "json") printDiffJson(io.out, d, gate);
    else if (format == "markdown") printDiffMarkdown(io.out, d, gate);
    else if (format == "junit") printDiffJunit(io.out, d, gate);
    else printDiffText(io.out, d, gate);
    for (const auto& c : d.changes)
        if (measure::gates(c, gate)) return Exit::CheckFailed;
    return Exit::Ok;
}
}  // namespace

Command diffCommand() {
    return {"diff", "compare two runs compile by compile: new, gone, recompiled, slower; findings and verdict",
            "Usage: compilescope diff BASE HEAD [options]\n"
            "       compilescope diff BASE... --vs HEAD... [options]   (several traces per side: samples)\n\n"
            "Matches every compile and cache event of the two runs by an identity that survives a new process:\n"
            "a cache lookup by its cache, program and key components (no addresses or world ages), a Warp\n"
            "module by name, hash, block_dim and device, a PyTorch compile span by frame and compile id, a\n"
            "JAX function or Numba dispatcher by its key, a CUDA program by its source digest. Reports\n"
            "identities that are new or gone (with the compile time a gone one saves), compiled on one side\n"
            "and served from a cache on the other (a warm run), names compiled more or fewer times per run\n"
            "(recompiles),\n"
            "compile time that moved beyond the noise band of 'compare' (max(1% of the base median,\n"
            "2 x its MAD)) or inside it, findings new or resolved, and a changed 'check' verdict.\n\n"
            "Options:\n"
            "  --format text|json|markdown|junit   text (default); --json is --format json; markdown suits a\n"
            "                                      CI step summary; junit has one test case per identity and\n"
            "                                      per finding rule, failed where the gate fails\n"
            "  --fail-on LIST                      comma-separated: new-compile (also a compile that the base\n"
            "                                      served from a cache), new-recompile, new-finding,\n"
            "                                      slower:PCT (compile time up by PCT % or more, beyond noise)\n\n"
            "Exit status: 0 no change the gate names (always 0 without --fail-on), 1 at least one gated\n"
            "change, 2 usage error or an unreadable trace.\n",
            runDiff};
}

}  // namespace cs::cli
