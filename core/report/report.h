// The HTML report: one self-contained file (inline CSS, JS and SVG; no network access) that carries
// a trace's summary and acceptance verdict, findings with fixes, an aggregated timeline, cache misses
// with reasons, repeated hashes, invalidation trees, compiler phases and, for several traces, a
// comparison. `compilescope report` and the GUI's export both call writeReport().
//
// Safety: every string from a trace is escaped for its context by HtmlBuilder; a restrictive
// Content-Security-Policy (default-src 'none', scripts and styles allowed only by hash) means that
// even a missed escape could not run script or load anything.
#pragma once

#include "core/report/report_model.h"

#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace cs::measure {
struct Ledger;     // core/measure/ledger.h
struct TraceDiff;  // core/measure/trace_diff.h
}

namespace cs::report {

using measure::Ledger;


struct ReportOptions {
    std::string title = "compile report";
    std::string generator = "compilescope";  // who wrote the file, shown in the footer
    int timelineBuckets = 200;
    const Ledger* ledger = nullptr;  // the measured-options ledger, rendered in the comparison section
    // Compiles listed in the index with their details (all are counted); misses, compiles and errors
    // first. 500 keep a 1M-event report under 5 MB; a split report can list more.
    size_t compileIndexRows = 500;
    // Over more traces than this (the ranks of one job), only the first trace and the ranks that
    // diverge or compile far longer are rendered section by section; every trace is in Ranks. Keeps
    // a 256-rank report readable and small. 0: detail every trace.
    size_t detailedTraces = 8;
    // A baseline trace: the report opens with what changed against it (`compilescope diff` of the
    // baseline and the first trace). Empty: none.
    std::string baseline;
    // What the section renders: `compilescope diff` of the baseline and the first trace. writeReport
    // and writeReportSplit compute it from `baseline`; renderReport takes it as given.
    std::shared_ptr<const measure::TraceDiff> baselineDiff;
    // --ranks: several traces are the ranks of one job, whatever their programs. Otherwise only
    // traces of one program (engine/analysis/rank_compare.h) are compared as ranks.
    bool asRanks = false;
};

// One file of a split report, its path relative to the report's folder.
struct ReportPage {
    std::string path, html;
};

// Shapes one trace's analysis for the sections. `label` names it in a multi-trace report ("A", "B").
// The analysis should carry a timeline digest (AnalysisOptions::timelineBuckets), or the timeline
// section is empty.
TraceReport collectTrace(std::shared_ptr<const engine::TraceAnalysis> analysis, const std::string& label);

// The whole document for already collected traces (the first is the comparison's baseline).
std::string renderReport(const std::vector<TraceReport>& traces, const ReportOptions& options);

// Opens and analyses each trace (throws trace::TraceError for an unreadable one; several traces are
// analysed on all cores) and writes the report.
void writeReport(const std::vector<std::string>& tracePaths, const ReportOptions& options, std::ostream& out);

// `report --split DIR`, for very large traces, as tlparse writes its output folder: index.html (the
// whole report, without the compile details) and compiles/<id>.html, one page per listed compile.
// Same safety rules: every page escapes its text and carries the strict CSP (the detail pages run no
// script at all); links are relative page names, never URLs.
std::vector<ReportPage> renderReportPages(const std::vector<TraceReport>& traces, const ReportOptions& options);
void writeReportSplit(const std::vector<std::string>& tracePaths, const ReportOptions& options, const std::string& dir);

}  // namespace cs::report
