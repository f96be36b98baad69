// The report's sections: each file shapes its part of the analysis and renders it.
//
// Each `collect*` shapes one trace's analysis into its part of TraceReport; each `render*` writes one <section>
// for all the traces of the report (one block per trace when there are several). Every section
// carries `data-count` on its root element: the number of items it found (findings, misses, module
// names, ...), so tests and scripts can read the figures without parsing the prose.
#pragma once

#include "core/report/html_builder.h"
#include "core/report/report_model.h"

#include <string>
#include <vector>

namespace cs::engine {
struct RankDivergence;
struct CacheAnalysis;
struct CompileEntry;
struct TraceAnalysis;
namespace warp {
struct ModuleReport;
}
}  // namespace cs::engine

namespace cs::measure {
struct Ledger;     // core/measure/ledger.h
struct TraceDiff;  // core/measure/trace_diff.h
}

namespace cs::report {

using measure::Ledger;


// Each shapes one part of the engine's analysis (engine/analysis/trace_analysis.h) for its section.
void collectSummary(const engine::TraceAnalysis& analysis, TraceReport& r);
void collectCacheMisses(const engine::CacheAnalysis& cache, TraceReport& r);
void collectRepeatedHashes(const engine::warp::ModuleReport& modules, TraceReport& r);
void collectInvalidations(const engine::TraceAnalysis& analysis, TraceReport& r);

// Where a compile's details and a finding live: anchors of one page, or the pages of a split
// report (`report --split DIR`: DIR/index.html and one page per compile in DIR/compiles/).
struct Links {
    bool split = false;       // details are pages of their own
    bool onDetailPage = false;  // the page being written is one of those (links go back up)
    // Element id and page name of a listed compile: "A-lookup-13" (trace label, then the engine's anchor).
    static std::string compileId(const TraceReport& t, std::string_view table, std::int64_t rowId);
    std::string compile(const TraceReport& t, std::string_view table, std::int64_t rowId) const;
    static std::string findingId(const TraceReport& t, size_t finding);
    std::string finding(const TraceReport& t, size_t finding) const;
    std::string section(Trusted id) const;  // "#timeline", or "../index.html#timeline" on a detail page
};

// `report --baseline`: the changes `compilescope diff` finds against the baseline, linked to this
// report's rows, with each compile's time in both runs as a pair of bars.
void renderChangedSinceBaseline(HtmlBuilder& h, const measure::TraceDiff& diff, const TraceReport& t, const Links& links);
void renderSummary(HtmlBuilder& h, const std::vector<TraceReport>& traces);
void renderFindings(HtmlBuilder& h, const std::vector<TraceReport>& traces, const Links& links);
// The index of every compile and cache event (engine/analysis/compile_index.h): sortable, filterable, each
// row linking to its details.
void renderCompileIndex(HtmlBuilder& h, const std::vector<TraceReport>& traces, const Links& links);
// Every listed compile's details, one <article> each (single-file report).
void renderCompileDetails(HtmlBuilder& h, const std::vector<TraceReport>& traces, const Links& links);
// One compile's details: key (before -> after), options, log, phases, findings, place on the timeline.
void renderCompileDetail(HtmlBuilder& h, const TraceReport& t, const engine::CompileEntry& e, const Links& links);
void renderTimeline(HtmlBuilder& h, const std::vector<TraceReport>& traces);
void renderCacheMisses(HtmlBuilder& h, const std::vector<TraceReport>& traces);
void renderRepeatedHashes(HtmlBuilder& h, const std::vector<TraceReport>& traces);
void renderInvalidations(HtmlBuilder& h, const std::vector<TraceReport>& traces);
void renderPhases(HtmlBuilder& h, const std::vector<TraceReport>& traces);
// A build's answers (engine/build/build_report.h); nothing at all when no trace holds a build.
bool anyBuild(const std::vector<TraceReport>& traces);
void renderBuild(HtmlBuilder& h, const std::vector<TraceReport>& traces);
// Several traces as the ranks of one job (engine/cache/rank_divergence.h); nothing for one trace.
// Traces of different programs (engine/analysis/rank_compare.h) are only said to be "not compared", unless
// `asRanks` (report --ranks, the GUI's --ranks) says they are the ranks of one job.
void renderRanks(HtmlBuilder& h, const std::vector<TraceReport>& traces, bool asRanks);
// Whether renderRanks compares the traces as ranks: several traces of one program, or `asRanks`.
bool readAsRanks(const std::vector<TraceReport>& traces, bool asRanks);
// The comparison renderRanks shows, over the traces' analyses (labels: the traces' tags).
engine::RankDivergence compareTraceRanks(const std::vector<TraceReport>& traces);
// The traces worth detailing in a report over many ranks, at most `most`, in report order: the
// first (the baseline), the slow ranks, then the minority side of each divergent program and step.
std::vector<size_t> ranksToDetail(const std::vector<TraceReport>& traces, const engine::RankDivergence& d, size_t most);
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
// The same table inside a <div class="scroll">, so a wide table scrolls inside its card instead of
// overflowing it; closeWideTable() closes the tbody, the table and the wrapper.
void openWideTable(HtmlBuilder& h, std::initializer_list<Attr> attrs, std::initializer_list<std::string_view> columns);
void closeWideTable(HtmlBuilder& h);
// "N more rows in the trace, not listed" when a list was cut.
void moreRows(HtmlBuilder& h, std::int64_t total, size_t shown);
// An empty-state line: what the section would show and which facts the trace lacks.
void emptyNote(HtmlBuilder& h, std::string_view what);
// A horizontal bar for a fraction 0..1, as inline SVG (style attributes are blocked by the CSP).
void fractionBar(HtmlBuilder& h, double fraction, Trusted cls = "bar");
// The source of a section's figures, e.g. "replay engine" or "raw tables".
void sourceNote(HtmlBuilder& h, std::string_view source);

}  // namespace cs::report
