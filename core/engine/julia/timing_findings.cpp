#include "core/engine/julia/timing_findings.h"

#include "core/engine/julia/invalidation_printed.h"
#include "core/trace/reader.h"
#include "core/trace/row.h"
#include "core/util/saturating.h"

#include <compilescope/trace_constants.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <unordered_map>

namespace cs::engine {

namespace {
constexpr std::int64_t kMinNs = 10'000'000;     // a recompilation shorter than 10 ms is not a finding
constexpr std::int64_t kWarningNs = 100'000'000;  // 100 ms: the scale invalidation_findings warns at

std::string pct(double p) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f%%", p);
    return buf;
}

const char* kSnoopFix =
    "Record the invalidations of that load: in a fresh session, `using SnoopCompileCore; invs = "
    "@snoop_invalidations <the load or call>`, then `using SnoopCompile; trees = invalidation_trees(invs)`. "
    "The roots with the most children are the method definitions that threw the compiled code away; fix "
    "them (no methods on types and functions you do not own, concrete inference in the callers). Import the "
    "printed trees beside these timings (`compilescope import`) to see each root's cost.";
}  // namespace

// One pass over the Julia timing track's spans and one over their args, keyed by span id.
JuliaTimingReport loadJuliaTiming(const trace::TraceReader& reader) {
    JuliaTimingReport r;
    // The track first (a few rows): a trace without one, the common case, costs no scan of its spans.
    std::string tracks;
    reader.query("SELECT t.id FROM tracks t JOIN strings tn ON tn.id = t.name_sid WHERE tn.str = 'julia compiles'",
                 [&](const trace::Row& st) { tracks += (tracks.empty() ? "" : ",") + std::to_string(trace::colInt(st, 0)); });
    if (tracks.empty()) return r;
    const std::string julia = "FROM spans s JOIN tracks t ON t.id = s.track_id WHERE s.track_id IN (" + tracks + ")";
    struct Raw {
        JuliaTimingReport::Row row;
        int category = 0;
        bool timed = false;
    };
    std::vector<Raw> raws;
    std::unordered_map<std::int64_t, size_t> at;
    reader.query("SELECT s.id, t.session_id, s.start_ns, s.dur_ns, s.category, coalesce((SELECT str FROM strings "
                 "WHERE id = s.name_sid), '') " + julia + " ORDER BY s.id",
                 [&](const trace::Row& st) {
                     Raw x;
                     x.row.spanId = trace::colInt(st, 0);
                     x.row.sessionId = trace::colInt(st, 1);
                     x.row.startNs = trace::colInt(st, 2);
                     auto dur = trace::colOpt(st, 3);
                     x.row.ns = dur ? std::max<std::int64_t>(*dur, 0) : -1;
                     x.category = static_cast<int>(trace::colInt(st, 4));
                     x.row.name = trace::colText(st, 5);
                     at.emplace(x.row.spanId, raws.size());
                     raws.push_back(std::move(x));
                 });
    if (raws.empty()) return r;
    reader.query("SELECT a.span_id, k.str, a.value FROM span_args a JOIN strings k ON k.id = a.key_sid WHERE a.span_id IN "
                 "(SELECT s.id " + julia + ") AND k.str IN ('compile_ns', 'recompile_ns', 'recompile_pct', 'expr', 'run', "
                 "'recompile', 'workload', 'untimed')",
                 [&](const trace::Row& st) {
                     auto it = at.find(trace::colInt(st, 0));
                     if (it == at.end()) return;
                     auto& row = raws[it->second].row;
                     const std::string key = trace::colText(st, 1);
                     if (key == "compile_ns") row.compileNs = std::max<std::int64_t>(trace::colInt(st, 2), 0);
                     else if (key == "recompile_ns") row.recompileNs = std::max<std::int64_t>(trace::colInt(st, 2), 0);
                     else if (key == "recompile_pct") row.recompilePct = st.real(2);
                     else if (key == "expr") row.expr = trace::colText(st, 2);
                     else if (key == "run") row.run = trace::colInt(st, 2);
                     else if (key == "recompile") row.recompile = trace::colInt(st, 2) == 1;
                     else if (key == "workload") row.workload = trace::colInt(st, 2) == 1;
                     else if (key == "untimed") row.ns = -1;
                 });
    for (auto& x : raws) {
        if (x.category == CS_CAT_COMPILE) r.statements.push_back(std::move(x.row));
        else if (x.category == CS_CAT_IMPORT) r.packages.push_back(std::move(x.row));
        else if (x.category == CS_CAT_OTHER && x.row.name == "@time") r.times.push_back(std::move(x.row));
    }
    return r;
}

std::vector<Finding> juliaTimingFindings(const JuliaTimingReport& report) {
    std::vector<Finding> out;
    auto rangeOf = [](Finding& f, const JuliaTimingReport::Row& row) {
        f.sessionId = row.sessionId;
        f.startNs = row.startNs;
        f.endNs = util::satAdd(row.startNs, std::max<std::int64_t>(row.ns, 0));
    };

    // `# recompile` statements: how much of the timed compile time was compiling code a second time.
    std::int64_t timedNs = 0, recompileNs = 0, recompiles = 0, timedRecompiles = 0;
    std::vector<const JuliaTimingReport::Row*> recompiled;
    for (const auto& s : report.statements) {
        if (s.workload) continue;
        if (s.ns >= 0) timedNs = util::satAdd(timedNs, s.ns);
        if (!s.recompile) continue;
        ++recompiles;
        recompiled.push_back(&s);
        if (s.ns >= 0) {
            ++timedRecompiles;
            recompileNs = util::satAdd(recompileNs, s.ns);
        }
    }
    // Fired on time where the time is known (issue 35): a ~0 ms recompile is no finding.
    if (recompiles && (timedRecompiles < recompiles || recompileNs >= kMinNs)) {
        Finding f;
        f.kind = "julia.recompile_statements";
        std::stable_sort(recompiled.begin(), recompiled.end(), [](auto* a, auto* b) { return a->ns > b->ns; });
        const double share = timedNs > 0 ? 100.0 * static_cast<double>(recompileNs) / static_cast<double>(timedNs) : 0;
        f.title = std::to_string(recompiles) + " `# recompile` statement" + (recompiles == 1 ? "" : "s");
        if (timedRecompiles)
            f.title += ": " + formatMs(recompileNs) + ", " + pct(share) + " of the " + formatMs(timedNs) +
                       " of timed compiles";
        else
            f.title += " (time not recorded: run with --trace-compile-timing)";
        f.severity = recompileNs >= kWarningNs ? Severity::Warning : Severity::Info;
        f.mechanism = "Julia printed `# recompile` after these precompile statements: each MethodInstance already had "
                      "compiled code, which a later method definition invalidated, so it was compiled again. " +
                      std::to_string(timedRecompiles) + " of the " + std::to_string(recompiles) +
                      " carry a time (timings are inclusive of the compiles they caused).";
        if (recompileNs > 0) f.costNs = recompileNs;
        for (size_t k = 0; k < recompiled.size() && k < 5; ++k)
            f.evidence.push_back({"spans", recompiled[k]->spanId,
                                  recompiled[k]->name + (recompiled[k]->ns >= 0 ? " recompiled, " + formatMs(recompiled[k]->ns)
                                                                                 : std::string(" recompiled, time not recorded"))});
        f.fix = kSnoopFix;
        rangeOf(f, *recompiled.front());
        out.push_back(std::move(f));
    }

    // Packages that spent time recompiling while loading (the time already includes their __init__):
    // judged on that time, not on its share of the load.
    std::vector<const JuliaTimingReport::Row*> packages;
    for (const auto& p : report.packages)
        if (p.ns > 0 && p.recompileNs >= kMinNs) packages.push_back(&p);
    std::stable_sort(packages.begin(), packages.end(), [](auto* a, auto* b) { return a->recompileNs > b->recompileNs; });
    for (const auto* p : packages) {
        Finding f;
        f.kind = "julia.package_load_recompilation";
        const double share = 100.0 * static_cast<double>(p->recompileNs) / static_cast<double>(p->ns);
        f.title = "loading " + p->name + " is " + pct(share) + " recompilation (" + formatMs(p->recompileNs) + " of " +
                  formatMs(p->ns) + ")";
        f.severity = p->recompileNs >= kWarningNs ? Severity::Warning : Severity::Info;
        f.mechanism = "@time_imports: " + p->name + " spent " + formatMs(p->compileNs) + " compiling while loading, " +
                      pct(p->recompilePct) + " of it recompiling code that packages loaded before it had invalidated "
                      "(its __init__ included). Its cache held that code; the invalidation threw it away.";
        f.costNs = p->recompileNs;
        f.evidence.push_back({"spans", p->spanId, p->name + ": " + formatMs(p->ns) + " load, " + formatMs(p->recompileNs) + " recompiling"});
        f.fix = std::string(kSnoopFix) + " Here the load is `using " + p->name + "`, after the packages loaded before it.";
        rangeOf(f, *p);
        out.push_back(std::move(f));
    }

    // @time results that spent time recompiling, judged on that time: "0.00% compilation time: 100% of
    // which was recompilation" is a ~0 ms recompile, and 30 % of 20 s of compiling is 6 s.
    for (const auto& t : report.times) {
        if (t.recompileNs < kMinNs) continue;
        Finding f;
        f.kind = "julia.time_recompilation";
        std::string what = t.expr.empty() ? "an @time result" : "@time " + t.expr;
        if (t.run > 1) what += " (run " + std::to_string(t.run) + ")";
        f.title = what + ": " + pct(t.recompilePct) + " of its compilation was recompilation";
        if (t.recompileNs > 0) f.title += " (" + formatMs(t.recompileNs) + " of " + formatMs(t.ns) + ")";
        f.severity = t.recompileNs >= kWarningNs ? Severity::Warning : Severity::Info;
        f.mechanism = "@time reports the share of its compile time spent compiling code a second time: code compiled "
                      "earlier in the session was invalidated by a later method definition" +
                      std::string(t.run > 1 ? ", and this repeat of the same expression still compiled" : "") + ".";
        if (t.recompileNs > 0) f.costNs = t.recompileNs;
        f.evidence.push_back({"spans", t.spanId, what + ": " + formatMs(t.ns)});
        f.fix = kSnoopFix;
        if (!t.expr.empty()) f.fix += " Here the call is `" + t.expr + "`.";
        rangeOf(f, t);
        out.push_back(std::move(f));
    }
    return out;
}

}  // namespace cs::engine
