// Summary and acceptance verdict: what the trace holds, where the compile time went, and whether the
// run passes the acceptance check.
//
// Every figure is the engine's (engine/trace_analysis.h): compile time and cache-load time as
// docs/accounting.md defines them, the time span of the clocked work, and the verdict judged once by
// engine/cache/verdict.h ("misses == entries" and no miss after the first step; from the replay
// when lookups were recorded, from the runtime's cache_stats() counters otherwise).
#include "core/report/sections.h"

#include "core/engine/trace_analysis.h"
#include "core/util/units.h"
#include "core/util/saturating.h"

#include <compilescope/trace_constants.h>

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
            s.moduleNs = util::satAdd(s.moduleNs, m.totalNs);
        }
    }
    s.cudaPrograms = a.facts.cudaPrograms;
    s.phaseRows = a.facts.phases.timings;
    s.phaseNs = a.facts.phases.totalNs;
    s.verdict = a.verdict;
}

namespace {
void metric(HtmlBuilder& h, std::string_view label, const std::string& value, std::string_view sub = {}) {
    h.open("div", {{"class", "metric"}});
    h.leaf("div", value, {{"class", "value"}});
    h.leaf("div", label, {{"class", "label"}});
    if (!sub.empty()) h.leaf("div", sub, {{"class", "sub"}});
    h.close();
}

void renderVerdict(HtmlBuilder& h, const Summary& s) {
    if (s.verdict.state == engine::VerdictState::NotApplicable) {
        h.open("div", {{"class", "verdict na"}, {"data-verdict", "not-applicable"}});
        h.leaf("strong", "Acceptance: not applicable");
        h.leaf("span", " - the trace records no cache counters or per-step lookups to judge.");
        h.close();
        return;
    }
    const bool pass = s.verdict.state == engine::VerdictState::Pass;
    h.open("div", {{"class", pass ? "verdict pass" : "verdict fail"}, {"data-verdict", pass ? "pass" : "fail"}});
    h.leaf("strong", pass ? "Acceptance: PASS" : "Acceptance: FAIL");
    h.leaf("span", pass ? " - no program compiled twice, no recompile after the first step."
                        : " - at least one rule of the acceptance check is broken.");
    h.close();
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
        std::int64_t span = s.startNs && s.endNs && *s.endNs > *s.startNs ? util::satSub(*s.endNs, *s.startNs) : 0;
        std::string share = s.compileShare ? std::to_string(static_cast<int>(std::lround(*s.compileShare * 100))) +
                                                 " % of the clocked wall time"
                                           : "no wall clock";
        if (s.untimedCompiles) share += "; " + std::to_string(s.untimedCompiles) + " compiles, time not recorded";
        if (s.recompileShare)
            share += "; " + std::to_string(static_cast<int>(std::lround(*s.recompileShare * 100))) +
                     " % of the runtime-reported compile time was recompilation";
        metric(h, "compile time", util::formatDuration(s.compileNs), share);
        metric(h, "cache-load time", util::formatDuration(s.cacheLoadNs), "loading code compiled before");
        metric(h, "time span", span ? util::formatDuration(span) : "-", s.timeBases);
        metric(h, "sessions", std::to_string(s.sessions),
               s.unfinishedSessions ? std::to_string(s.unfinishedSessions) + " unfinished" : "all complete");
        metric(h, "cache misses", std::to_string(s.misses), "of " + std::to_string(s.lookups) + " lookups");
        metric(h, "modules compiled", std::to_string(s.modulesCompiled),
               "of " + std::to_string(s.moduleLoads) + " loads, " + util::formatDuration(s.moduleNs));
        metric(h, "NVRTC / nvJitLink", std::to_string(s.cudaPrograms), "programs");
        metric(h, "compiler phases", util::formatDuration(s.phaseNs), std::to_string(s.phaseRows) + " timings");
        metric(h, "findings", std::to_string(t.findings.size()));
        h.close();
        renderVerdict(h, s);
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
