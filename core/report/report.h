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

#include <ostream>
#include <string>
#include <vector>

namespace cs::measure {
struct Ledger;  // core/measure/ledger.h
}

namespace cs::report {

using measure::Ledger;


struct ReportOptions {
    std::string title = "compile report";
    std::string generator = "compilescope";  // who wrote the file, shown in the footer
    int timelineBuckets = 200;
    const Ledger* ledger = nullptr;  // the measured-options ledger, rendered in the comparison section
};

// Shapes one trace's analysis for the sections. `label` names it in a multi-trace report ("A", "B").
// The analysis should carry a timeline digest (AnalysisOptions::timelineBuckets), or the timeline
// section is empty.
TraceReport collectTrace(std::shared_ptr<const engine::TraceAnalysis> analysis, const std::string& label);

// The whole document for already collected traces (the first is the comparison's baseline).
std::string renderReport(const std::vector<TraceReport>& traces, const ReportOptions& options);

// Opens and analyses each trace once (throws trace::TraceError for an unreadable one) and writes the
// report.
void writeReport(const std::vector<std::string>& tracePaths, const ReportOptions& options, std::ostream& out);

}  // namespace cs::report
