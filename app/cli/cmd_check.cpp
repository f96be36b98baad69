// `compilescope check TRACE...`: the acceptance check as a CI gate (exit 0 pass or not applicable,
// 1 fail, 2 unreadable, 3 incomplete: lookups left out as trace problems), and, given several
// traces of one job, divergence across its ranks. The
// verdict is the engine's (core/engine/cache/verdict.h), the one the GUI and the report show.
#include "cache_text.h"
#include "command.h"
#include "loss_line.h"

#include "core/engine/cache/rank_divergence.h"
#include "core/engine/cache/runtime_words.h"
#include "core/engine/analysis/error_verdict.h"
#include "core/engine/analysis/rank_compare.h"
#include "core/engine/accounting/session_labels.h"
#include "core/engine/analysis/trace_figures.h"
#include "core/engine/analysis/trace_analysis.h"
#include "core/engine/warp/warp_verdict.h"
#include "core/trace/reader.h"
#include "core/util/units.h"
#include "core/util/utf8.h"

#include <memory>

namespace cs::cli {

namespace {
void printIncomplete(std::ostream& out, const std::string& label, std::int64_t leftOut) {
    out << "check " << label << ": INCOMPLETE (" << util::formatCount(leftOut)
        << " cache lookup rows left out as trace problems; `compilescope info` lists them)\n"
           "  the verdict below judges the rest of the run only and does not count\n";
}

// Warp's module loads replayed as its kernel cache, as explain, the Cache view and the Ranks view
// count them: keyed figures (engine/analysis/trace_figures.h), so a Warp log's misses read the same everywhere.
void printModuleCache(std::ostream& out, const engine::TraceFigures& f) {
    if (!f.find("modules.cache.lookups")) return;
    out << "  module loads (Warp's kernel cache, replayed): lookups " << engine::figureText(f, "modules.cache.lookups")
        << ", misses " << engine::figureText(f, "modules.cache.misses.replayed") << ", hits "
        << engine::figureText(f, "modules.cache.hits.replayed") << "\n";
}

// Without lookups: the counters' rules, or "not applicable".
void printVerdict(std::ostream& out, const std::string& label, const engine::AcceptanceVerdict& v, const engine::TraceFigures& f) {
    if (v.state == engine::VerdictState::NotApplicable) {
        out << "check " << label << ": NOT APPLICABLE (" << v.source << ")\n";
        return;
    }
    out << "check " << label << ": " << (v.state == engine::VerdictState::Pass ? "PASS" : "FAIL") << "\n";
    out << "  judged by " << v.source << "\n";
    printModuleCache(out, f);
    for (const auto& r : v.rules)
        out << "  " << (r.pass ? "pass " : "FAIL ") << r.rule << " (" << r.scope << "): " << r.detail << "\n";
}

// The replay's account, under the whole verdict: a trace that also loaded Warp modules is judged by
// their rule too (warp_verdict.h), whose row follows the replay's failures, as are [error] findings
// (error_verdict.h).
// The counts are keyed figures (engine/analysis/trace_figures.h), as the GUI and the report show them.
void printAcceptance(std::ostream& out, const std::string& label, const engine::CacheAnalysis& a,
                     const engine::AcceptanceVerdict& verdict, const engine::TraceFigures& figures) {
    const auto& acc = a.acceptance;
    const engine::TraceFigures& f = figures;
    auto figure = [&figures](const char* key) { return engine::figureText(figures, key); };
    out << "check " << label << ": " << (verdict.passes() ? "PASS" : "FAIL") << "\n";
    out << "  replay: lookups " << figure("cache.lookups") << ", misses " << figure("cache.misses.replayed") << ", hits "
        << figure("cache.hits.replayed") << ", entries " << figure("cache.entries");
    if (f.find("cache.loads")) out << " (" << figure("cache.loads") << " loaded from a persistent cache)";
    out << "\n";
    if (f.find("cache.counters.misses")) {
        auto v = [&figures](const char* key) { return figures.find(key)->value ? engine::figureText(figures, key) : std::string("-"); };
        // cache_stats() is ReactantNitro's name for its counters; other runtimes read "cache counters".
        out << "  runtime " << (engine::usesReactantNitro(a.facts) ? "cache_stats()" : "cache counters") << ": hits "
            << v("cache.counters.hits") << ", misses " << v("cache.counters.misses") << ", entries "
            << v("cache.counters.entries") << "\n";
    }
    printModuleCache(out, f);
    out << "  programs:";
    for (const auto& p : acc.programs) out << " " << p.program << " " << p.compiles << "/" << p.lookups;
    out << " (compiles/lookups)\n";
    // A training run's program count means nothing to a Numba, JAX or PyTorch trace: not shown there.
    if (acc.expected || acc.derived.applies) {
        out << "  expected programs: ";
        if (!acc.expected) out << "not judged (" << acc.derived.basis << ")\n";
        else if (acc.expectedFromOption)
            out << *acc.expected << " (--expect-programs; the run's shape gives: " << acc.derived.basis << ")\n";
        else out << *acc.expected << " (" << acc.derived.basis << ")\n";
    }
    out << "  misses per step:";
    for (const auto& s : acc.series) out << " " << s.step << ":" << s.misses;
    if (acc.series.empty()) out << " (no steps recorded)";
    out << "\n";
    if (a.facts.linesOutOfOrder && !a.replay.disagreements.empty())
        out << "  note: the log's lines are out of time order; the runtime's own hit and miss lines are taken as "
               "printed (the replay in time order reads " << a.replay.disagreements.size() << " lookup(s) otherwise)\n";
    for (const auto& fail : acc.failures) out << "  FAIL " << fail.rule << ": " << fail.reason << "\n";
    for (const auto& r : verdict.rules)
        if (r.scope == engine::warp::kModuleRuleScope || r.scope == engine::kErrorFindingScope)
            out << "  " << (r.pass ? "pass " : "FAIL ") << r.rule << " (" << r.scope << "): " << r.detail << "\n";
}

void printDivergence(std::ostream& out, const engine::RankDivergence& d) {
    out << "ranks (" << d.ranks.size() << " traces): " << (d.diverges() ? "DIVERGE" : "agree") << "\n";
    for (const auto& p : d.programs)
        out << "  FAIL program " << p.key << " compiled by " << util::formatList(p.compiledBy) << ", not by " << util::formatList(p.notBy) << "\n";
    for (const auto& s : d.steps)
        out << "  FAIL " << s.program << " missed at step " << s.step << " on " << util::formatList(s.missedBy) << ", not on "
            << util::formatList(s.notBy) << "\n";
    for (const auto& s : d.slow)
        out << "  WARN " << engine::slowRankText(s) << " (the others wait for it)\n";
}

int runCheck(const std::vector<std::string>& args, CommandIo& io) {
    engine::AcceptanceOptions options;
    std::vector<std::string> traces;
    bool asRanks = false;  // --ranks: compare as ranks whatever their programs
    for (size_t i = 0; i < args.size(); ++i) {
        const auto& a = args[i];
        if (a == "--ranks") {
            asRanks = true;
        } else if (a == "--expect-programs" || a == "--max-misses-after-step") {
            std::int64_t n = 0;
            if (++i >= args.size() || !parseCount(args[i], n))
                return usageError(io, "check", a + " needs a non-negative integer");
            if (a == "--expect-programs") options.expectPrograms = n;
            else options.maxLateMisses = n;
        } else if (!a.empty() && a[0] == '-') {
            return usageError(io, "check", "unknown option " + a);
        } else {
            traces.push_back(a);
        }
    }
    if (traces.empty()) return usageError(io, "check", "expected at least one TRACE");
    // Open every trace first: an unreadable one is exit 2 before anything is judged.
    std::vector<std::unique_ptr<trace::TraceReader>> readers;
    for (const auto& t : traces) readers.push_back(trace::TraceReader::open(t));
    bool pass = true, anyLookups = false, incomplete = false;
    std::vector<std::shared_ptr<const engine::TraceAnalysis>> analyses;
    std::vector<engine::RankTrace> ranks;
    // The ranks of a job often write rank0/trace.cstrace, rank1/trace.cstrace: each is named by the
    // shortest trailing path that tells it apart, so that no two ranks share a label.
    // Escaped (issue 40): a newline in a file name would otherwise break the verdict's line.
    std::vector<std::string> labels = engine::distinguishingSuffixes(traces);
    for (std::string& l : labels) l = util::printablePath(l);
    for (size_t i = 0; i < traces.size(); ++i) {
        analyses.push_back(engine::analyseTrace(*readers[i], {.acceptance = options}));
        const engine::TraceAnalysis& a = *analyses.back();
        printLossLine(io.out, a.losses);
        const std::int64_t leftOut = a.verdict.lookupsLeftOut;  // engine/cache/verdict.h
        if (leftOut > 0) printIncomplete(io.out, labels[i], leftOut);
        const engine::TraceFigures figures = engine::traceFigures(a);
        if (a.cache && !a.cache->facts.empty()) {
            printAcceptance(io.out, labels[i], *a.cache, a.verdict, figures);
            anyLookups = true;
        } else {
            printVerdict(io.out, labels[i], a.verdict, figures);
        }
        incomplete = incomplete || leftOut > 0;
        pass = pass && (a.verdict.passes() || leftOut > 0);  // a partial FAIL is no more trusted than a partial PASS
        ranks.push_back(engine::rankTraceOf(labels[i], &a));
    }
    std::vector<const engine::TraceAnalysis*> all;
    for (const auto& a : analyses) all.push_back(a.get());
    if (traces.size() > 1 && !asRanks && !engine::tracesOfOneProgram(all)) {
        // Unrelated traces (issue 35): judged one by one, side by side, never as ranks.
        io.out << "ranks: not compared (the traces ran different programs; --ranks compares them as the ranks of one job)\n";
    } else if (traces.size() > 1) {
        // Programs and steps are compared where there are lookups; compile times always.
        auto d = engine::compareRanks(ranks);
        if (anyLookups || !d.slow.empty()) printDivergence(io.out, d);
        pass = pass && !d.diverges();
    }
    return !pass ? Exit::CheckFailed : incomplete ? Exit::Incomplete : Exit::Ok;
}
}  // namespace

Command checkCommand() {
    return {"check", "the acceptance check: no recompile after the first step (CI gate)",
            "Usage: compilescope check TRACE... [--expect-programs N] [--max-misses-after-step K] [--ranks]\n\n"
            "Replays the trace's program cache and judges the acceptance rule of a cached JIT run:\n"
            "  - misses == entries (a miss that is not a new entry is a program compiled twice);\n"
            "  - no miss after the first step: a program may compile at its first step only\n"
            "    (--max-misses-after-step K tolerates K such misses; default 0);\n"
            "  - the expected number of programs: train-only 2, +1 with validation, +1 per :device metric\n"
            "    hook, +1 for a ragged split of a metric (--expect-programs N overrides the count);\n"
            "  - the replay agrees with the runtime's verdicts and cache counters (ReactantNitro's\n"
            "    cache_stats()).\n"
            "Each failure is printed with its reason. Given several traces of one program (the same\n"
            "runtime and command line in their sessions) or with --ranks (the ranks of one job), also\n"
            "fails when ranks compiled different programs or missed at different steps, and warns (without\n"
            "failing) of a rank that compiled at least twice as long as the median rank (three ranks or more).\n"
            "Without lookups, the runtime's cache counters are judged (misses == entries per cache);\n"
            "a trace with neither (an imported Warp log, a Julia printout, a compiler time trace) has\n"
            "nothing to judge: NOT APPLICABLE, exit 0, as the GUI and the report say.\n"
            "Any [error] finding (a PyTorch recompile-limit hit, lost events, a Warp CPU load race) fails\n"
            "the check, whatever the rules above say.\n"
            "A trace from which cache lookups were left out as trace problems (rows that break the trace\n"
            "format: `compilescope info` lists them) is INCOMPLETE, exit 3: never a pass.\n"
            "Exit status: 0 pass or not applicable, 1 fail, 2 unreadable trace or bad usage, 3 incomplete.\n",
            runCheck};
}

}  // namespace cs::cli
