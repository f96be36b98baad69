// Summary and acceptance verdict: what the trace holds, where the compile time went, and whether the
// run passes seed 000's acceptance check.
//
// The verdict is the replay engine's (engine/acceptance.h): "Check that misses == entries and that
// misses does not grow with the number of steps. Both counters are cumulative, so a miss that is not
// also a new entry is a program compiled twice", plus the expected program count. A trace with
// cache_stats() counters but no lookups is still judged on misses == entries from the counters.
#include "sections.h"
#include "sql_row.h"

#include "core/engine/cache_analysis.h"
#include "core/trace/reader.h"
#include "core/trace/schema.h"
#include "core/util/units.h"

#include <compilescope/trace_constants.h>

#include <map>
#include <set>

namespace cs::report {

namespace {
// The engine's verdict (engine/acceptance.h), as rows: the seed's three rules always, then every
// other broken rule (the replay disagreeing with the runtime, cache_stats() disagreeing).
void acceptanceFromEngine(const engine::CacheAnalysis& cache, Summary& s) {
    const engine::AcceptanceResult& a = cache.acceptance;
    std::map<std::string, std::vector<std::string>> failed;
    std::vector<std::string> order;
    for (const auto& f : a.failures) {
        if (!failed.count(f.rule)) order.push_back(f.rule);
        failed[f.rule].push_back(f.reason);
    }
    auto row = [&](const std::string& rule, const std::string& passDetail) {
        auto it = failed.find(rule);
        if (it == failed.end()) {
            s.acceptance.push_back({rule, "whole trace", true, passDetail});
            return;
        }
        std::string detail;
        for (size_t i = 0; i < it->second.size() && i < 5; ++i) detail += (i ? "; " : "") + it->second[i];
        if (it->second.size() > 5) detail += "; and " + std::to_string(it->second.size() - 5) + " more";
        s.acceptance.push_back({rule, "whole trace", false, detail});
    };
    row("misses == entries", "misses " + std::to_string(a.counts.misses) + ", entries " + std::to_string(a.counts.entries));
    row("no miss after the first step", "no program missed after the step it was first used at");
    if (a.expected)
        row("expected program count", "compiled " + std::to_string(a.counts.misses) + ", expected " +
                                          std::to_string(*a.expected) +
                                          (a.derived.basis.empty() ? "" : " (" + a.derived.basis + ")"));
    for (const auto& rule : order)
        if (rule != "misses == entries" && rule != "no miss after the first step" && rule != "expected program count")
            row(rule, "");
    s.acceptanceSource = "the replay engine: the trace's lookups replayed in order, checked against the runtime's "
                         "own verdicts and cache_stats() counters";
}

// Without lookups the runtime's counters can still be judged: misses == entries per cache.
void acceptanceFromCounters(const trace::TraceReader& reader, Summary& s) {
    std::map<std::pair<std::int64_t, std::string>, std::map<std::string, std::int64_t>> last;
    reader.query("SELECT c.session_id, coalesce(sc.str, ''), n.str, c.value FROM counters c "
                 "JOIN strings n ON n.id = c.name_sid LEFT JOIN strings sc ON sc.id = c.scope_sid "
                 "WHERE n.str IN ('hits', 'misses', 'entries') ORDER BY c.session_id, c.ts_ns, c.id",
                 [&](sqlite3_stmt* st) { last[{colInt(st, 0), colText(st, 1)}][colText(st, 2)] = colInt(st, 3); });
    for (const auto& [key, values] : last) {
        auto m = values.find("misses"), e = values.find("entries");
        if (m == values.end() || e == values.end()) continue;
        std::string scope = key.second.empty() ? "session " + std::to_string(key.first)
                                               : key.second + " (session " + std::to_string(key.first) + ")";
        std::string detail = "misses " + std::to_string(m->second) + ", entries " + std::to_string(e->second);
        if (m->second > e->second) detail += ": " + std::to_string(m->second - e->second) + " program(s) compiled twice";
        s.acceptance.push_back({"misses == entries", scope, m->second == e->second, detail});
    }
    s.acceptanceSource = "the trace's own cache_stats() counters (no lookups recorded to replay)";
}
}  // namespace

void collectSummary(const trace::TraceReader& reader, const engine::CacheAnalysis& cache, TraceReport& r) {
    Summary& s = r.summary;
    std::set<std::string> runtimes;
    // On the display axis, where each clock domain starts at zero (engine/session_clocks.h).
    const engine::SessionClocks& clocks = r.clocks;
    reader.query("SELECT s.start_ns, s.end_ns, coalesce(rt.str, ''), s.id FROM sessions s "
                 "LEFT JOIN strings rt ON rt.id = s.runtime_sid ORDER BY s.id",
                 [&](sqlite3_stmt* st) {
                     ++s.sessions;
                     auto start = colOpt(st, 0), end = colOpt(st, 1);
                     const std::int64_t off = clocks.offsetOf(colInt(st, 3));
                     if (start) *start += off;
                     if (end) *end += off;
                     if (!end) ++s.unfinishedSessions;
                     if (start && (!s.startNs || *start < *s.startNs)) s.startNs = start;
                     if (end && (!s.endNs || *end > *s.endNs)) s.endNs = end;
                     std::string rt = colText(st, 2);
                     if (!rt.empty() && runtimes.insert(rt).second) s.runtimes.push_back(rt);
                 });
    std::map<std::string, size_t> index;
    for (const auto& t : trace::schemaTables()) {
        if (t.family == "format" || t.family == "stats") continue;
        std::string fam(t.family);
        if (!index.count(fam)) {
            index[fam] = s.families.size();
            s.families.push_back({fam, 0});
        }
        s.families[index[fam]].rows += reader.rowCount(t.name);
    }
    reader.query("SELECT name, source, count, coalesce(detail, '') FROM stats ORDER BY count DESC, id LIMIT 50",
                 [&](sqlite3_stmt* st) {
                     s.stats.push_back({colText(st, 0), colText(st, 1), colText(st, 3), colInt(st, 2)});
                 });
    reader.query("SELECT count(*), coalesce(sum(verdict = " + std::to_string(CS_VERDICT_MISS) +
                     "), 0), coalesce(sum(compile_ns), 0) FROM cache_lookups",
                 [&](sqlite3_stmt* st) {
                     s.lookups = colInt(st, 0), s.misses = colInt(st, 1), s.compileNs = colInt(st, 2);
                 });
    reader.query("SELECT count(*), coalesce(sum(result = " + std::to_string(CS_MODULE_COMPILED) +
                     "), 0), coalesce(sum(dur_ns), 0) FROM module_loads",
                 [&](sqlite3_stmt* st) {
                     s.moduleLoads = colInt(st, 0), s.modulesCompiled = colInt(st, 1), s.moduleNs = colInt(st, 2);
                 });
    reader.query("SELECT count(*), coalesce(sum(dur_ns), 0) FROM cuda_programs",
                 [&](sqlite3_stmt* st) { s.cudaPrograms = colInt(st, 0), s.cudaNs = colInt(st, 1); });
    // Only top-level phases count toward the total (children are already inside their parent).
    reader.query("SELECT count(*), coalesce(sum(CASE WHEN parent_id IS NULL THEN dur_ns END), 0) FROM phase_timings",
                 [&](sqlite3_stmt* st) { s.phaseRows = colInt(st, 0), s.phaseNs = colInt(st, 1); });
    if (!cache.facts.empty()) acceptanceFromEngine(cache, s);
    else acceptanceFromCounters(reader, s);
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
    if (s.acceptance.empty()) {
        h.open("div", {{"class", "verdict na"}, {"data-verdict", "not-applicable"}});
        h.leaf("strong", "Acceptance: not applicable");
        h.leaf("span", " - the trace records no cache counters or per-step lookups to judge.");
        h.close();
        return;
    }
    bool pass = true;
    for (const auto& a : s.acceptance) pass = pass && a.pass;
    h.open("div", {{"class", pass ? "verdict pass" : "verdict fail"}, {"data-verdict", pass ? "pass" : "fail"}});
    h.leaf("strong", pass ? "Acceptance: PASS" : "Acceptance: FAIL");
    h.leaf("span", pass ? " - no program compiled twice, no recompile after the first step."
                        : " - at least one rule of the acceptance check is broken.");
    h.close();
    openTable(h, {{"class", "rules"}}, {"rule", "scope", "verdict", "detail"});
    for (const auto& a : s.acceptance) {
        h.open("tr", {{"class", a.pass ? "ok" : "bad"}});
        h.leaf("td", a.rule).open("td").shortText(a.scope, 120).close();
        h.leaf("td", a.pass ? "pass" : "FAIL", {{"class", a.pass ? "sev-info" : "sev-error"}});
        h.open("td").shortText(a.detail, 1200).close();
        h.close();
    }
    h.close().close();
    sourceNote(h, s.acceptanceSource);
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
        std::int64_t span = s.startNs && s.endNs && *s.endNs > *s.startNs ? *s.endNs - *s.startNs : 0;
        metric(h, "sessions", std::to_string(s.sessions),
               s.unfinishedSessions ? std::to_string(s.unfinishedSessions) + " unfinished" : "all complete");
        metric(h, "time span", span ? util::formatDuration(span) : "-");
        metric(h, "cache misses", std::to_string(s.misses), "of " + std::to_string(s.lookups) + " lookups");
        metric(h, "program compile time", util::formatDuration(s.compileNs));
        metric(h, "modules compiled", std::to_string(s.modulesCompiled),
               "of " + std::to_string(s.moduleLoads) + " loads, " + util::formatDuration(s.moduleNs));
        metric(h, "NVRTC / nvJitLink", std::to_string(s.cudaPrograms), util::formatDuration(s.cudaNs));
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
