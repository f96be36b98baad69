// The HTML report: one self-contained file (inline CSS, JS and SVG; no network access) that carries
// a trace's summary and acceptance verdict, findings with fixes, an aggregated timeline, cache misses
// with reasons, repeated hashes, invalidation trees, compiler phases and, for several traces, a
// comparison. `compilescope report` and the GUI's export both call writeReport().
//
// Safety: every string from a trace is escaped for its context by HtmlBuilder; a restrictive
// Content-Security-Policy (default-src 'none', scripts and styles allowed only by hash) means that
// even a missed escape could not run script or load anything.
#pragma once

#include "report_model.h"

#include <ostream>
#include <string>
#include <vector>

namespace cs::trace {
class TraceReader;
}

namespace cs::report {

struct Ledger;

struct ReportOptions {
    std::string title = "compile report";
    std::string generator = "compilescope";  // who wrote the file, shown in the footer
    int timelineBuckets = 200;
    const Ledger* ledger = nullptr;  // seed 002's ledger, rendered in the comparison section
};

// Reads every section's facts from one trace. `label` names it in a multi-trace report ("A", "B").
TraceReport collectTrace(const trace::TraceReader& reader, const std::string& label, const ReportOptions& options);

// The whole document for already collected traces (the first is the comparison's baseline).
std::string renderReport(const std::vector<TraceReport>& traces, const ReportOptions& options);

// Opens each trace (throws trace::TraceError for an unreadable one), collects and writes the report.
void writeReport(const std::vector<std::string>& tracePaths, const ReportOptions& options, std::ostream& out);

}  // namespace cs::report
