// Assembles the report: collects each trace's facts, renders the sections into the body, then writes
// the head last, because the Content-Security-Policy must list the hashes of the inline blocks.
#include "core/report/report.h"

#include "core/measure/trace_diff.h"

#include "core/report/html_builder.h"
#include "core/report/report_assets.h"
#include "core/report/sections.h"

#include "core/engine/cache/rank_divergence.h"
#include "core/engine/analysis/trace_analysis.h"
#include "core/util/json_writer.h"
#include "core/util/on_every_core.h"
#include "core/util/saturating.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace cs::report {

TraceReport collectTrace(std::shared_ptr<const engine::TraceAnalysis> analysis, const std::string& label) {
    TraceReport r;
    const engine::TraceAnalysis& a = *analysis;
    r.path = a.path;
    r.label = label;
    r.figures = engine::traceFigures(a);
    collectSummary(a, r);
    r.findings = a.findings;
    r.timeline = a.digest;
    if (a.cache) collectCacheMisses(*a.cache, r);
    if (a.modules) collectRepeatedHashes(*a.modules, r);
    collectInvalidations(a, r);
    r.phases = a.facts.phases;
    r.samples = a.facts.samples;
    r.launchTopology = a.facts.launchTopology;
    r.analysis = std::move(analysis);
    return r;
}

namespace {
// Machine-readable figures of the report, for scripts that read a CI artifact, and for the page's
// own script (severity counts). Script data: written by JsonWriter, which never emits '<'.
std::string reportJson(const std::vector<TraceReport>& traces) {
    std::ostringstream ss;
    util::JsonWriter j(ss);
    j.beginObject().key("format").value("compilescope-report-1").key("traces").beginArray();
    for (const auto& t : traces) {
        const Summary& s = t.summary;
        j.beginObject().key("label").value(t.label).key("path").value(truncateUtf8(t.path, 4096));
        j.key("acceptance").value(engine::verdictName(s.verdict));  // "incomplete" too (issue 40)
        j.key("sessions").value(s.sessions).key("lookups").value(s.lookups).key("misses").value(s.misses);
        j.key("compile_ns").value(s.compileNs).key("cache_load_ns").value(s.cacheLoadNs);
        j.key("untimed_compiles").value(s.untimedCompiles);
        j.key("time_span_ns").value(s.startNs && s.endNs ? util::satSub(*s.endNs, *s.startNs) : 0);
        j.key("module_names").value(t.modules.modules);
        j.key("dropped_events").value(t.analysis ? t.analysis->losses.droppedEvents : 0);
        j.key("module_loads").value(s.moduleLoads).key("modules_compiled").value(s.modulesCompiled);
        j.key("repeated_module_names").value(t.modules.repeated);
        j.key("invalidation_items").value(t.invalidations.items);
        j.key("phase_timings").value(t.phases.timings);
        if (t.analysis) j.key("compiles").value(t.analysis->compileIndex.total);
        j.key("figures");
        engine::writeFiguresJson(j, t.figures);
        j.key("findings").beginArray();
        for (const auto& f : t.findings) {
            j.beginObject().key("kind").value(truncateUtf8(f.kind, 200));
            j.key("severity").value(engine::severityName(f.severity));
            j.key("title").value(truncateUtf8(f.title, 400));
            if (f.costNs) j.key("cost_ns").value(*f.costNs);
            j.endObject();
        }
        j.endArray().endObject();
    }
    j.endArray().endObject();
    return ss.str();
}

// What a trace is missing comes before any figure (engine/accounting/trace_losses.h).
void renderLossBanner(HtmlBuilder& body, const std::vector<TraceReport>& traces) {
    bool any = false;
    for (const auto& t : traces) any = any || (t.analysis && t.analysis->losses.anyToShow());
    if (!any) return;
    body.open("div", {{"class", "warnbox lossbanner"}, {"role", "alert"}, {"id", "data-lost"}});
    body.leaf("strong", "Data lost. ");
    for (const auto& t : traces) {
        if (!t.analysis || !t.analysis->losses.anyToShow()) continue;
        body.open("div");
        if (traces.size() > 1) body.leaf("span", t.label, {{"class", "tag"}}).text(" ");
        body.shortText(t.analysis->losses.bannerText(), 600).text(". The findings name each loss and its remedy.");
        body.close();
    }
    body.close();
}

std::string joinHashes(const std::vector<std::string>& hashes) {
    std::string out;
    for (const auto& h : hashes) out += " '" + h + "'";
    return out;
}

// The <!DOCTYPE html> document around a rendered body: the head is written last, because the
// Content-Security-Policy must list the hashes of the body's inline script blocks (none: 'none').
std::string document(const std::string& title, const HtmlBuilder& body) {
    HtmlBuilder head;
    head.styleBlock(kReportCss);  // hashed first, so the CSP below can name it
    const std::string scripts = body.scriptHashes().empty() ? " 'none'" : joinHashes(body.scriptHashes());
    std::string csp = "default-src 'none'; style-src" + joinHashes(head.styleHashes()) + "; script-src" + scripts +
                      "; img-src 'none'; base-uri 'none'; form-action 'none'";
    HtmlBuilder doc;
    doc.markup("<!DOCTYPE html>\n");
    doc.open("html", {{"lang", "en"}});
    doc.open("head");
    doc.single("meta", {{"charset", "utf-8"}});
    doc.single("meta", {{"http-equiv", "Content-Security-Policy"}, {"content", csp}});
    doc.single("meta", {{"name", "referrer"}, {"content", "no-referrer"}});
    doc.single("meta", {{"name", "viewport"}, {"content", "width=device-width, initial-scale=1"}});
    doc.leaf("title", truncateUtf8(title, 200));
    doc.append(head);
    doc.close();  // head
    doc.append(body);
    doc.close();  // html
    return doc.str() + "\n";
}

// The traces rendered section by section (TraceReport::detailed).
std::vector<TraceReport> detailedOnly(const std::vector<TraceReport>& all) {
    std::vector<TraceReport> out;
    for (const auto& t : all)
        if (t.detailed) out.push_back(t);
    return out;
}

std::string renderIndexPage(const std::vector<TraceReport>& all, const ReportOptions& options, const Links& links) {
    const bool everyTrace = std::all_of(all.begin(), all.end(), [](const TraceReport& t) { return t.detailed; });
    const std::vector<TraceReport> someTraces = everyTrace ? std::vector<TraceReport>{} : detailedOnly(all);
    const std::vector<TraceReport>& traces = everyTrace ? all : someTraces;
    HtmlBuilder body;
    body.open("body");
    body.open("header", {{"class", "top"}});
    body.open("h1").leaf("span", "CompileScope", {{"class", "brand"}}).text(" \xC2\xB7 ").shortText(options.title, 120).close();
    body.open("p", {{"class", "traces"}});
    for (size_t i = 0; i < traces.size(); ++i) {
        if (i) body.text("  \xC2\xB7  ");
        if (all.size() > 1) body.leaf("span", traces[i].label, {{"class", "tag"}});
        body.open("code").shortText(traces[i].path, 160).close();
    }
    if (traces.size() < all.size())
        body.text("  \xC2\xB7  and " + std::to_string(all.size() - traces.size()) + " more traces, in Ranks");
    body.close().close();
    renderLossBanner(body, all);  // what any trace is missing, detailed or not
    // A report over many ranks is a report on the ranks: their section comes first.
    const bool ranksFirst = !everyTrace;
    body.open("nav", {{"class", "toc"}});
    if (options.baselineDiff) body.leaf("a", "Changed since baseline", {{"href", "#changed"}});
    if (ranksFirst) body.leaf("a", "Ranks", {{"href", "#ranks"}});
    body.leaf("a", "Summary", {{"href", "#summary"}}).leaf("a", "Compiles", {{"href", "#compiles"}});
    body.leaf("a", "Findings", {{"href", "#findings"}});
    body.leaf("a", "Timeline", {{"href", "#timeline"}}).leaf("a", "Cache misses", {{"href", "#cache-misses"}});
    body.leaf("a", "Repeated hashes", {{"href", "#repeated-hashes"}});
    body.leaf("a", "Invalidation trees", {{"href", "#invalidations"}}).leaf("a", "Compiler phases", {{"href", "#phases"}});
    if (anyBuild(traces)) body.leaf("a", "Build", {{"href", "#build"}});
    if (all.size() > 1 && !ranksFirst) body.leaf("a", "Ranks", {{"href", "#ranks"}});
    if (traces.size() > 1 || options.ledger) body.leaf("a", "Comparison", {{"href", "#comparison"}});
    body.close();
    body.open("main");
    if (options.baselineDiff && !traces.empty()) renderChangedSinceBaseline(body, *options.baselineDiff, traces.front(), links);
    if (ranksFirst) renderRanks(body, all, options.asRanks);
    renderSummary(body, traces);
    renderCompileIndex(body, traces, links);
    renderFindings(body, traces, links);
    renderTimeline(body, traces);
    renderCacheMisses(body, traces);
    renderRepeatedHashes(body, traces);
    renderInvalidations(body, traces);
    renderPhases(body, traces);
    renderBuild(body, traces);
    if (!ranksFirst) renderRanks(body, all, options.asRanks);
    renderComparison(body, traces, options.ledger);
    renderCompileDetails(body, traces, links);
    body.close();
    body.open("footer").text("Written by ").shortText(options.generator, 80)
        .text(". Self-contained: no network access, scripts limited by a Content-Security-Policy.").close();
    body.jsonBlock("report-data", reportJson(all));  // every trace's figures, detailed or not
    body.scriptBlock(kReportJs);
    body.close();  // body
    return document(options.title, body);
}

// A compile's own page in a split report: the header, its details, a way back. No script.
std::string renderCompilePage(const TraceReport& t, const engine::CompileEntry& e, const ReportOptions& options) {
    Links links{.split = true, .onDetailPage = true};
    HtmlBuilder body;
    body.open("body");
    body.open("header", {{"class", "top"}});
    body.open("h1").leaf("span", "CompileScope", {{"class", "brand"}}).text(" \xC2\xB7 ").shortText(options.title, 120).close();
    body.open("p", {{"class", "traces"}}).open("code").shortText(t.path, 160).close().close();
    body.close();
    body.open("nav", {{"class", "toc"}});
    body.leaf("a", "Index of compiles", {{"href", "../index.html#compiles"}}).leaf("a", "Findings", {{"href", "../index.html#findings"}});
    body.leaf("a", "Timeline", {{"href", "../index.html#timeline"}});
    body.close();
    body.open("main").open("section", {{"class", "card"}});
    renderCompileDetail(body, t, e, links);
    body.close().close();
    body.open("footer").text("Written by ").shortText(options.generator, 80).text(". Self-contained: no network access, no script.").close();
    body.close();  // body
    return document(e.kind + " " + std::to_string(e.rowId) + " - " + options.title, body);
}
}  // namespace

std::string renderReport(const std::vector<TraceReport>& traces, const ReportOptions& options) {
    return renderIndexPage(traces, options, Links{});
}

std::vector<ReportPage> renderReportPages(const std::vector<TraceReport>& traces, const ReportOptions& options) {
    std::vector<ReportPage> pages;
    pages.push_back({"index.html", renderIndexPage(traces, options, Links{.split = true})});
    for (const auto& t : traces) {
        if (!t.analysis) continue;
        for (const auto& e : t.analysis->compileIndex.entries)
            pages.push_back({"compiles/" + Links::compileId(t, e.table, e.rowId) + ".html", renderCompilePage(t, e, options)});
    }
    return pages;
}

namespace {
std::string traceTag(size_t i) {
    std::string label(1, static_cast<char>('A' + static_cast<int>(i % 26)));
    if (i >= 26) label += std::to_string(i / 26);
    return label;
}

// Analyses the traces `which` of `paths` on every core (each with its own connection; the engine
// keeps no shared state). The first failure, in trace order, is rethrown once all have stopped.
std::vector<std::shared_ptr<const engine::TraceAnalysis>> analyseMany(const std::vector<std::string>& paths,
                                                                      const std::vector<size_t>& which,
                                                                      const engine::AnalysisOptions& options) {
    std::vector<std::shared_ptr<const engine::TraceAnalysis>> out(which.size());
    util::onEveryCore(which.size(), [&](size_t k) { out[k] = engine::analyseTraceFile(paths[which[k]], options); });
    return out;
}

std::vector<TraceReport> collectAll(const std::vector<std::string>& tracePaths, const ReportOptions& options) {
    const engine::AnalysisOptions full{.timelineBuckets = options.timelineBuckets, .compileIndexRows = options.compileIndexRows};
    std::vector<size_t> all(tracePaths.size());
    for (size_t i = 0; i < all.size(); ++i) all[i] = i;
    const bool many = options.detailedTraces > 0 && tracePaths.size() > options.detailedTraces;
    // Many ranks: every trace without the timeline digest and the compile index (only detailed
    // traces render them), then the ranks worth detailing analysed in full.
    auto analyses = analyseMany(tracePaths, all, many ? engine::AnalysisOptions{} : full);
    std::vector<TraceReport> traces;
    for (size_t i = 0; i < tracePaths.size(); ++i) traces.push_back(collectTrace(analyses[i], traceTag(i)));
    if (!many) return traces;
    const std::vector<size_t> detail = ranksToDetail(traces, compareTraceRanks(traces), options.detailedTraces);
    const auto detailed = analyseMany(tracePaths, detail, full);
    for (auto& t : traces) t.detailed = false;
    for (size_t k = 0; k < detail.size(); ++k) traces[detail[k]] = collectTrace(detailed[k], traceTag(detail[k]));
    return traces;
}

// `--baseline`: diff of the baseline and the first trace, each analysed with every compile listed
// (identities are matched over all rows, not the report's listed ones).
ReportOptions withBaseline(const std::vector<std::string>& tracePaths, const ReportOptions& options) {
    ReportOptions o = options;
    if (options.baseline.empty() || tracePaths.empty()) return o;
    const auto [base, head] = measure::analyseSides({options.baseline}, {tracePaths.front()});
    o.baselineDiff = std::make_shared<const measure::TraceDiff>(measure::diffRuns(base, head));
    return o;
}
}  // namespace

void writeReport(const std::vector<std::string>& tracePaths, const ReportOptions& options, std::ostream& out) {
    const ReportOptions o = withBaseline(tracePaths, options);
    out << renderReport(collectAll(tracePaths, o), o);
}

void writeReportSplit(const std::vector<std::string>& tracePaths, const ReportOptions& options, const std::string& dir) {
    const ReportOptions o = withBaseline(tracePaths, options);
    const std::vector<ReportPage> pages = renderReportPages(collectAll(tracePaths, o), o);
    std::filesystem::create_directories(std::filesystem::path(dir) / "compiles");
    for (const ReportPage& p : pages) {
        // Written beside the target and renamed, so a failed run never leaves half a page.
        const std::filesystem::path target = std::filesystem::path(dir) / p.path;
        const std::filesystem::path tmp = target.string() + ".tmp";
        {
            std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
            f << p.html;
            if (!f.flush()) throw std::runtime_error("cannot write " + target.string());
        }
        std::filesystem::rename(tmp, target);
    }
}

}  // namespace cs::report
