// Summary and acceptance verdict: what the trace holds, where the compile time went, and whether the
// run passes the acceptance check.
//
// Every figure is the engine's (engine/analysis/trace_analysis.h): compile time and cache-load time as
// docs/accounting.md defines them, the time span of the clocked work, and the verdict judged once by
// engine/cache/verdict.h ("misses == entries" and no miss after the first step; from the replay
// when lookups were recorded, from the runtime's cache_stats() counters otherwise).
#include "core/report/sections.h"

#include "core/engine/analysis/trace_analysis.h"
#include "core/util/units.h"
#include "core/util/saturating.h"

#include <compilescope/trace_constants.h>

#include <algorithm>
#include <cmath>
#include <set>

namespace cs::report {

namespace {
std::string timeBases(const engine::CompileSummary& s) {
    std::string out;
    for (auto base : {engine::TimeBase::Recorded, engine::TimeBase::OwnClock, engine::TimeBase::Sequence,
                      engine::TimeBase::Untimed}) {
        int n = s.sessionsOf(base);
        if (!n) continue;
        if (!out.empty()) out += ", ";
        out += std::to_string(n) + " " + engine::timeBaseName(base);
    }
    return out;
}
}  // namespace

void collectSummary(const engine::TraceAnalysis& a, TraceReport& r) {
    Summary& s = r.summary;
    const engine::CompileSummary& c = a.summary;
    std::set<std::string> runtimes;
    for (const auto& ses : c.sessions) {
        ++s.sessions;
        if (!ses.endNs) ++s.unfinishedSessions;
        if (!ses.runtime.empty() && runtimes.insert(ses.runtime).second) s.runtimes.push_back(ses.runtime);
    }
    s.startNs = c.spanStartNs;
    s.endNs = c.spanEndNs;
    s.families = a.facts.families;
    s.stats = a.facts.stats;
    s.statKinds = a.facts.statKinds;
    s.lookups = a.facts.lookups;
    s.misses = a.facts.misses;
    s.compileNs = c.compileNs;
    s.cacheLoadNs = c.cacheLoadNs;
    s.untimedCompiles = c.untimedCompiles;
    s.compileShare = c.compileShare();
    s.recompileShare = c.recompileShare();
    s.timeBases = timeBases(c);
    if (a.modules) {
        s.moduleLoads = a.modules->loadCount;
        for (const auto& m : a.modules->modules) {
            s.modulesCompiled += m.compiled;
            s.moduleCompileNs = util::satAdd(s.moduleCompileNs, m.compiledNs);
        }
    }
    s.cudaPrograms = a.facts.cudaPrograms;
    s.phaseRows = a.facts.phases.timings;
    s.phaseNs = a.facts.phases.totalNs;
    s.verdict = a.verdict;
}

namespace {
struct Tile {
    std::string label, value, sub;
    bool zero = false;  // shows nothing happened: never leads
    std::string figure{};  // the TraceFigures key whose value this tile shows ("": not a keyed figure)
};

// A tile of keyed figure `key` (engine/analysis/trace_figures.h): its value is the figure's own text.
Tile keyed(const TraceReport& t, const std::string& key, std::string label, std::string sub, bool zero) {
    const engine::Figure* f = t.figures.find(key);
    return {std::move(label), f ? engine::figureText(*f) : "-", std::move(sub), zero, f ? key : std::string()};
}

std::string percent(double share) { return std::to_string(static_cast<int>(std::lround(share * 100))) + " %"; }

// The tiles, chosen from what the trace holds: a cache trace leads with misses and the verdict, a
// Warp trace with module builds and identity churn, a Julia trace with invalidations and the
// recompile share, a compiler trace with its phases; then the figures every trace has. A tile that
// shows nothing happened never leads (issue 18: a Warp trace used to open on "0 cache misses").
std::vector<Tile> chooseTiles(const TraceReport& t) {
    const Summary& s = t.summary;
    std::vector<Tile> tiles;
    if (s.lookups > 0) {
        const char* verdict = s.verdict.incomplete()                          ? "INCOMPLETE"
                              : s.verdict.state == engine::VerdictState::Pass ? "PASS"
                              : s.verdict.state == engine::VerdictState::Fail ? "FAIL"
                                                                              : "n/a";
        // One definition of a miss, the replay's, as check and the Cache misses section count it.
        const engine::Figure* replayed = t.figures.find("cache.misses.replayed");
        const bool none = !replayed || replayed->value.value_or(0) == 0;
        Tile misses = keyed(t, "cache.misses.replayed", "cache misses (replayed)", "of " + std::to_string(s.lookups) + " lookups", none);
        Tile accept{"acceptance", verdict, "misses == entries, none after step 1", false, ""};
        if (misses.zero) tiles.insert(tiles.end(), {accept, misses});
        else tiles.insert(tiles.end(), {misses, accept});
    }
    if (s.moduleLoads > 0) {
        tiles.push_back(keyed(t, "modules.compiled", "modules compiled",
                              "of " + std::to_string(s.moduleLoads) + " loads; " + util::formatDuration(s.moduleCompileNs) + " compiling",
                              s.modulesCompiled == 0));
        tiles.push_back(keyed(t, "modules.repeated", "module names rebuilt",
                              "of " + std::to_string(t.modules.modules) + " built under several identities", t.modules.repeated == 0));
    }
    if (t.invalidations.items > 0 || s.recompileShare) {
        if (t.invalidations.items > 0)
            tiles.push_back(t.figures.find("invalidations.trees")
                                ? keyed(t, "invalidations.trees", "invalidation trees",
                                        std::to_string(t.invalidations.items) + " logged invalidations", t.invalidations.roots == 0)
                                : Tile{"invalidation trees", std::to_string(t.invalidations.roots), std::to_string(t.invalidations.items) + " logged invalidations", t.invalidations.roots == 0, ""});
        if (s.recompileShare)
            tiles.push_back({"recompile share", percent(*s.recompileShare), "of the compile time the runtime reported",
                             *s.recompileShare <= 0, ""});
    }
    if (s.phaseRows > 0) {
        std::string sub = std::to_string(s.phaseRows) + " timings";
        if (!t.phases.rows.empty()) sub += "; slowest: " + truncateUtf8(t.phases.rows.front().phase, 40);
        tiles.push_back({"compiler phases", util::formatDuration(s.phaseNs), sub, s.phaseNs == 0, ""});
    }
    if (s.cudaPrograms > 0) tiles.push_back({"NVRTC / nvJitLink", std::to_string(s.cudaPrograms), "programs", false, ""});

    std::int64_t span = s.startNs && s.endNs && *s.endNs > *s.startNs ? util::satSub(*s.endNs, *s.startNs) : 0;
    std::string share = s.compileShare ? percent(*s.compileShare) + " of the clocked wall time" : "no wall clock";
    // The share is of the clocked part; a log's durations lie outside the wall time (issue 35).
    if (const engine::Figure* unclocked = t.figures.find("compile.unclocked_ns"); s.compileShare && unclocked && unclocked->value.value_or(0) > 0)
        share = engine::figureText(t.figures, "compile.clocked_ns") + " of it in the clocked wall time (" + percent(*s.compileShare) +
                "); " + engine::figureText(*unclocked) + " from logs without a clock";
    if (s.untimedCompiles) share += "; " + std::to_string(s.untimedCompiles) + " compiles, time not recorded";
    // Compiles printed without their time and none timed: the compile_ns figure is unknown, not 0 ns
    // (issue 35, engine/analysis/trace_figures.h).
    tiles.push_back(keyed(t, "compile_ns", "compile time", share, s.compileNs == 0 && s.untimedCompiles == 0));
    tiles.push_back(keyed(t, "cache_load_ns", "cache-load time", "loading code compiled before", s.cacheLoadNs == 0));
    tiles.push_back(keyed(t, "time_span_ns", "time span", s.timeBases, span == 0));
    tiles.push_back(keyed(t, "sessions", "sessions",
                          s.unfinishedSessions ? std::to_string(s.unfinishedSessions) + " unfinished" : "all complete", s.sessions == 0));
    tiles.push_back(keyed(t, "findings", "findings", "", t.findings.empty()));
    std::stable_partition(tiles.begin(), tiles.end(), [](const Tile& x) { return !x.zero; });
    return tiles;
}

void metric(HtmlBuilder& h, const Tile& t) {
    h.open("div", {{"class", t.zero ? "metric zero" : "metric"}});
    if (t.figure.empty()) h.leaf("div", t.value, {{"class", "value"}});
    else h.leaf("div", t.value, {{"class", "value"}, {"data-figure", t.figure}});
    h.leaf("div", t.label, {{"class", "label"}});
    if (!t.sub.empty()) h.leaf("div", t.sub, {{"class", "sub"}});
    h.close();
}

// Every keyed figure of the trace with its definition: the values `compilescope info --json` prints
// under "figures" and the GUI's Overview lists, each cell carrying its key.
void renderFigures(HtmlBuilder& h, const TraceReport& t) {
    h.open("details", {{"class", "figures"}});
    h.leaf("summary", "Every figure, by the key compilescope info --json gives it");
    openTable(h, {{"class", "compact"}}, {"figure", "key", "#value"});
    for (const engine::Figure& f : t.figures.figures) {
        h.open("tr").leaf("td", f.label).open("td").leaf("code", f.key).close();
        h.leaf("td", engine::figureText(f), {{"class", "num"}, {"data-figure", f.key}});
        h.close();
    }
    h.close().close();
    h.close();  // details
}

// Lookups left out as trace problems (issue 40): the rules below judged part of the run, so the
// verdict is "incomplete", as `check` says (exit 3), whatever they say.
void renderIncomplete(HtmlBuilder& h, const Summary& s) {
    h.open("div", {{"class", "verdict incomplete"}, {"data-verdict", "incomplete"}});
    h.leaf("strong", "Acceptance: INCOMPLETE");
    h.leaf("span", " - " + util::formatCount(s.verdict.lookupsLeftOut) +
                       " cache lookup rows were left out as trace problems (compilescope info lists them); "
                       "the rules below judge the rest of the run only, and do not count as a pass.");
    h.close();
}

void renderVerdict(HtmlBuilder& h, const Summary& s) {
    if (s.verdict.incomplete()) {
        renderIncomplete(h, s);  // the rules that were judged follow, each with its own pass or FAIL
        if (s.verdict.rules.empty()) return;
    } else if (s.verdict.state == engine::VerdictState::NotApplicable) {
        h.open("div", {{"class", "verdict na"}, {"data-verdict", "not-applicable"}});
        h.leaf("strong", "Acceptance: not applicable");
        h.leaf("span", " - the trace records no cache counters or per-step lookups to judge.");
        h.close();
        return;
    } else {
        const bool pass = s.verdict.state == engine::VerdictState::Pass;
        h.open("div", {{"class", pass ? "verdict pass" : "verdict fail"}, {"data-verdict", pass ? "pass" : "fail"}});
        h.leaf("strong", pass ? "Acceptance: PASS" : "Acceptance: FAIL");
        // The rules are the trace's own (a program cache's, a function's, a Warp module's): named below.
        h.leaf("span", pass ? " - every rule below holds." : " - at least one rule below is broken.");
        h.close();
    }
    openTable(h, {{"class", "rules"}}, {"rule", "scope", "verdict", "detail"});
    for (const auto& a : s.verdict.rules) {
        h.open("tr", {{"class", a.pass ? "ok" : "bad"}});
        h.leaf("td", a.rule).open("td").shortText(a.scope, 120).close();
        h.leaf("td", a.pass ? "pass" : "FAIL", {{"class", a.pass ? "sev-info" : "sev-error"}});
        h.open("td").shortText(a.detail, 1200).close();
        h.close();
    }
    h.close().close();
    sourceNote(h, s.verdict.source);
}
}  // namespace

void renderSummary(HtmlBuilder& h, const std::vector<TraceReport>& traces) {
    std::int64_t sessions = 0;
    for (const auto& t : traces) sessions += t.summary.sessions;
    openSection(h, "summary", "Summary and acceptance verdict", sessions);
    for (const auto& t : traces) {
        const Summary& s = t.summary;
        h.open("div", {{"class", "trace-summary"}, {"data-trace", t.label}});
        traceHeading(h, traces, t);
        h.open("div", {{"class", "metrics"}});
        for (const Tile& tile : chooseTiles(t)) metric(h, tile);
        h.close();
        renderVerdict(h, s);
        renderFigures(h, t);
        h.open("details", {{"class", "facts"}});
        h.leaf("summary", "What the trace holds");
        h.open("p");
        h.text("File: ").open("code").shortText(t.path, 200).close();
        if (!s.runtimes.empty()) {
            h.text(". Runtimes and importers: ");
            for (size_t i = 0; i < s.runtimes.size() && i < 20; ++i) {
                if (i) h.text(", ");
                h.open("code").shortText(s.runtimes[i], 80).close();
            }
        }
        h.text(".").close();
        openTable(h, {{"class", "compact"}}, {"fact family", "#rows"});
        for (const auto& f : s.families) {
            h.open("tr").leaf("td", f.family).leaf("td", std::to_string(f.rows), {{"class", "num"}}).close();
        }
        h.close().close();
        h.close();  // details
        if (s.stats.empty()) {
            h.leaf("p", "Nothing was dropped or malformed while recording or importing.", {{"class", "source"}});
        } else {
            h.open("div", {{"class", "warnbox"}});
            h.leaf("strong", std::to_string(s.stats.size()) + " kind(s) of dropped or malformed input");
            openTable(h, {{"class", "compact"}}, {"stat", "source", "#count", "first example"});
            for (const auto& st : s.stats) {
                h.open("tr").open("td").shortText(st.name, 80).close().open("td").shortText(st.source, 80).close();
                h.leaf("td", std::to_string(st.count), {{"class", "num"}}).open("td").shortText(st.detail, 200).close();
                h.close();
            }
            h.close().close().close();
        }
        h.close();  // trace-summary
    }
    h.close();
}

}  // namespace cs::report
