// The report's sections: each file collects its facts from a trace and renders them.
//
// Each `collect*` reads one trace into its part of TraceReport; each `render*` writes one <section>
// for all the traces of the report (one block per trace when there are several). Every section
// carries `data-count` on its root element: the number of items it found (findings, misses, module
// names, ...), so tests and scripts can read the figures without parsing the prose.
#pragma once

#include "html_builder.h"
#include "report_model.h"

#include <string>
#include <vector>

namespace cs::trace {
class TraceReader;
}
namespace cs::engine {
struct CacheAnalysis;
}

namespace cs::report {

struct Ledger;  // ledger.h

// `cache` is the replay engine's analysis of the trace (engine/cache_analysis.h); the acceptance
// verdict and the miss reasons come from it.
// Both place sessions with r.clocks (engine::sessionClocks), which the caller fills first.
void collectSummary(const trace::TraceReader& reader, const engine::CacheAnalysis& cache, TraceReport& r);
void collectTimeline(const trace::TraceReader& reader, TraceReport& r, int buckets);
void collectCacheMisses(const engine::CacheAnalysis& cache, TraceReport& r);
void collectRepeatedHashes(const trace::TraceReader& reader, TraceReport& r);
void collectInvalidations(const trace::TraceReader& reader, TraceReport& r);
void collectPhases(const trace::TraceReader& reader, TraceReport& r);
void collectSamples(const trace::TraceReader& reader, TraceReport& r);

void renderSummary(HtmlBuilder& h, const std::vector<TraceReport>& traces);
void renderFindings(HtmlBuilder& h, const std::vector<TraceReport>& traces);
void renderTimeline(HtmlBuilder& h, const std::vector<TraceReport>& traces);
void renderCacheMisses(HtmlBuilder& h, const std::vector<TraceReport>& traces);
void renderRepeatedHashes(HtmlBuilder& h, const std::vector<TraceReport>& traces);
void renderInvalidations(HtmlBuilder& h, const std::vector<TraceReport>& traces);
void renderPhases(HtmlBuilder& h, const std::vector<TraceReport>& traces);
void renderComparison(HtmlBuilder& h, const std::vector<TraceReport>& traces, const Ledger* ledger);

// Shared pieces of the renderers (section_common.cpp).
// Opens <section id=..><h2>title</h2> with data-count; the caller closes it.
void openSection(HtmlBuilder& h, Trusted id, std::string_view title, std::int64_t count);
// A per-trace sub-heading, only when the report holds several traces.
void traceHeading(HtmlBuilder& h, const std::vector<TraceReport>& traces, const TraceReport& t);
// <table attrs><thead><tr><th>column</th>...</tr></thead><tbody>; the caller adds rows and closes
// the tbody and the table (h.close().close()). A column name starting with '#' is numeric (right
// aligned), the '#' itself is not shown unless it is the whole name.
void openTable(HtmlBuilder& h, std::initializer_list<Attr> attrs, std::initializer_list<std::string_view> columns);
// "N more rows in the trace, not listed" when a list was cut.
void moreRows(HtmlBuilder& h, std::int64_t total, size_t shown);
// An empty-state line: what the section would show and which facts the trace lacks.
void emptyNote(HtmlBuilder& h, std::string_view what);
// A horizontal bar for a fraction 0..1, as inline SVG (style attributes are blocked by the CSP).
void fractionBar(HtmlBuilder& h, double fraction, Trusted cls = "bar");
// The source of a section's figures, e.g. "replay engine" or "raw tables".
void sourceNote(HtmlBuilder& h, std::string_view source);

}  // namespace cs::report
