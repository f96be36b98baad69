// TimelinePlot: the timeline of one or more traces, drawn with QCustomPlot.
//
// Why a custom plottable instead of one QCPBars per lane: QCustomPlot items are objects, and a
// million of them would be the memory and the repaint time we are trying to avoid. The plottable
// asks the core's TimelineIndex for ~2x the visible window at the current bucket width (ns per
// pixel rounded down to a power of two) and caches that; panning inside the cached window and
// repainting cost no query at all, and no repaint ever sees more items than pixels (docs/practices.md 8).
// Keys are seconds from each trace's first event, so several traces (ranks, runs) line up.
#pragma once

#include "app/models/trace_document.h"
#include "core/engine/timeline/range_summary.h"
#include "exportable_plot.h"

#include <QSet>

#include <functional>
#include <map>
#include <unordered_set>
#include <QStringList>
#include <QWidget>

#include <vector>

class QCustomPlot;
class QScrollBar;

namespace cs::gui {
class TimeTicker;
}

namespace cs::gui {

class Canvas;
class LanesPlottable;

struct TimelineSource {
    QString label;      // file name
    TimelinePtr data;
    QString note{};     // on each of its group headers, e.g. "slow rank: 3.02x the median" (empty: none)
    bool stopped = false;  // an outline whose full read will not come (cancelled, or it failed)
    bool dimmed = false;   // a baseline compared with (File > Compare with baseline…): drawn faded
};

// A Shift-drag selection: a time range over the lanes it crossed, summarised per span name.
struct TimelineRange {
    int source = -1;                  // the trace whose clock the range is in; -1 = none
    std::vector<int> lanes;           // lanes of that source the drag crossed
    engine::RangeSummary summary;
    bool valid() const { return source >= 0; }
};

// What is selected: a span (or a fold of spans) of a lane, or a cache-lookup mark.
struct TimelineSelection {
    int source = -1;          // index into the sources; -1 = nothing
    int lane = -1;            // index into data->lanes, or -1 for a cache-lookup mark
    int marks = -1;           // index into data->marks for a mark
    engine::TimelineItem item{};
    engine::MarkItem mark{};
    bool valid() const { return source >= 0; }
};

class TimelinePlot : public QWidget, public ExportablePlot {
    Q_OBJECT
public:
    explicit TimelinePlot(QWidget* parent = nullptr);
    ~TimelinePlot() override;

    // Shows `sources`, fitted. With `refresh` (new snapshots of the same traces, e.g. a live
    // recording), a view the user zoomed or panned stays where it is; a view that showed the whole
    // trace is fitted again to the grown extent.
    void setSources(std::vector<TimelineSource> sources, bool refresh = false);
    const std::vector<TimelineSource>& sources() const { return m_sources; }

    void fitAll();
    // Shows [startNs, endNs) of source `source` (trace time) with a small margin.
    void showRange(int source, std::int64_t startNs, std::int64_t endNs);
    // The visible range in trace time of `source`.
    std::pair<std::int64_t, std::int64_t> visibleRangeNs(int source = 0) const;
    void zoomBy(double factor);     // > 1 zooms in, around the mouse cursor when it is over the plot, else the centre
    // Zooms keeping the time under widget x position `x` where it is (the wheel and W / S do this).
    void zoomAt(double factor, double x);
    void panBy(double fraction);    // of the visible width; > 0 moves right

    void select(const TimelineSelection& s, bool follow);
    const TimelineSelection& selection() const { return m_selection; }
    // Selects what is drawn at widget position `pos` (a click).
    void selectAt(QPoint pos);

    // What is drawn at widget position `pos`: a span, a fold, a mark; invalid when nothing.
    TimelineSelection hitAt(QPoint pos) const;
    // The hover tooltip at `pos`: a span's name, duration, category and outcome; a fold's count, busy
    // time and longest names; a lookup's verdict. "" over nothing.
    QString tooltipAt(QPoint pos) const;
    QString tooltipText(const TimelineSelection& s) const;
    // What the selected row means, from the trace's analysis (engine/analysis/row_story.h): for a lookup what
    // moved and the compile it caused, for a module load its identity, for a compile the lookup that
    // caused it; each line a sentence. "" when the analysis has nothing to say (or is not loaded).
    QString storyText(const TimelineSelection& s) const;
    // Where the analysis of source `source` is (null while it loads): set by the window.
    void setAnalysesOf(std::function<AnalysesPtr(int source)> of) { m_analysesOf = std::move(of); }
    // The visible window's width as text ("2.13 s", "14.0 µs").
    QString windowText() const;
    // The time axis' zero (Perfetto's movable origin): O on the plot puts it at the selection's start,
    // Shift+O back at the trace's first event. Ticks stay round about it.
    void setOrigin(int source, std::int64_t ns);
    void resetOrigin();
    bool originMoved() const { return m_originSet; }
    // The time axis' tick labels as last drawn (tests).
    QStringList axisLabels() const;
    // Trace time of `source` at widget x position `x`.
    std::int64_t nsAtPixel(int source, double x) const;

    // Process groups: each session's lanes sit under a header row ("▾ warp pid 4121 · 3 lanes") that a
    // click collapses or expands; a collapsed group's lanes are not drawn. Kept across live refreshes.
    // With more than kExpandedTraces traces open (the ranks of one job), groups start collapsed: one
    // header row per rank, expanded one at a time.
    static constexpr std::size_t kExpandedTraces = 8;
    // How many traces are open, loaded or not (their timelines arrive one by one): the default above
    // counts them, so the first ranks to load start collapsed too.
    void setOpenTraces(std::size_t n) { m_openTraces = n; }
    int groupCount() const { return static_cast<int>(m_groups.size()); }
    QString groupLabel(int group) const;
    QString groupHeaderText(int group) const;  // the header as drawn (tests)
    bool groupCollapsed(int group) const;
    // Whether `group` comes from an outline (engine::TimelineData::outline): its trace is still loading.
    bool groupLoading(int group) const;
    int groupSource(int group) const;  // the source `group` belongs to, -1 for none
    void setGroupCollapsed(int group, bool collapsed);
    // Widget pixel of the header row of `group` (tests, clicks).
    QPoint groupHeaderPixel(int group) const;
    // Whether lane `lane` of `source` has a row on screen (its group is expanded).
    bool laneShown(int source, int lane) const;

    // Pinned lanes, as Perfetto pins tracks: drawn in a band at the top of the plot that stays while
    // the other lanes scroll under it (a lane to watch while looking at another process). P pins or
    // unpins the selected span's lane, a lane's context menu does the same. Kept across live refreshes.
    void setLanePinned(int source, int lane, bool pinned);
    bool lanePinned(int source, int lane) const;
    int pinnedCount() const;

    // Search hits (spans) drawn with an orange outline until replaced; a new set of sources clears them.
    void setHighlights(const std::vector<TimelineSelection>& hits);
    std::size_t highlightCount() const { return m_highlightCount; }

    // The range table of a Shift-drag from widget position `a` to `b` (both corners of the band).
    void selectRange(QPoint a, QPoint b);
    const TimelineRange& range() const { return m_range; }

    // Details of the selection as display text (name, times, table and row).
    QString selectionText() const;
    QString laneLabel(int source, int lane) const;
    // Widget pixel of time `ns` at row `depth` of lane `lane` of `source` (tests, tooltips).
    QPoint pixelOf(int source, int lane, int depth, std::int64_t ns) const;
    // Widget pixel of time `ns` on the cache-lookup row of data->marks[marks] of `source`.
    QPoint markPixelOf(int source, int marks, std::int64_t ns) const;
    int rowCount() const;  // lane and cache-lookup rows on screen (group headers not counted)

    QCustomPlot* plot() const { return m_plot; }
    QWidget* plotWidget() const;  // the QCustomPlot as a widget, for code that must not include it
    QRect plotArea() const;       // where the lanes are drawn (the axis rect), in this widget's coordinates
    void replot();
    std::size_t lastPaintItems() const;  // items drawn by the last paint (tests, benchmarks)
    // The categories (cs_category) of the spans the last paint drew, ascending: the legend's entries.
    std::vector<int> lastPaintCategories() const;
    bool lastPaintMarks() const;  // whether it drew cache-lookup marks
    QString toSvg() const override;
    bool savePng(const QString& path) const override;

signals:
    void selectionChanged();
    void rangeChanged();
    void rangeSelected();
    void selectionActivated();  // Enter on the plot: open what is selected where it is explained
    void helpRequested();       // "?" on the plot
    void replotted();
    // A group of a trace still loading was expanded: the window asks the loader to read it next.
    void loadingGroupExpanded(int source);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    friend class LanesPlottable;
    static constexpr double kLaneGap = 0.5;  // value-axis units between lanes
    struct Row {
        int source = 0;
        int lane = -1;   // span lane, or -1
        int marks = -1;  // cache-lookup row of data->marks[marks], or -1
        double y0 = 0;   // top, in value-axis units (one unit per depth row)
        int height = 1;
        QString label;
        int group = -1;      // index into m_groups
        bool header = false;  // the group's header row (no lane, no marks)
        bool pinned = false;  // in the pinned band: y0 follows the scroll, `home` below the band's top
        double home = 0;
    };
    struct Group {
        int source = 0;
        std::int64_t sessionId = 0;
        QString label;  // "trace: warp pid 4121"
        int lanes = 0;
        std::size_t spans = 0;
        bool loading = false;  // its trace's outline: the lanes' spans are still being read
    };
    void layoutRows();
    void syncScrollBar();
    bool applyRowHeight();  // true when it moved the value axis
    QString groupKey(int group) const;
    QString laneKey(int source, int lane) const;
    void layoutPinned(double& y);  // the pinned band's rows, from the top
    void placePinned(bool relabel = false);  // the band at the top of the view and the rows' labels (always with `relabel`)
    bool inPinnedBand(double v) const;
    void contextMenuAt(QPoint pos, QPoint globalPos);
    int rowAtValue(double v) const;  // index into m_rows at value-axis coordinate v, or -1
    // Painting (timeline_paint.cpp): every row, then the step markers across them.
    void paintContent(Canvas& canvas) const;
    void paintPinnedBand(Canvas& canvas, const Row& first) const;
    void paintRow(Canvas& canvas, std::size_t r) const;
    void paintSpans(Canvas& canvas, const Row& row, const std::vector<engine::TimelineItem>& items, std::int64_t t0,
                    std::int64_t t1) const;
    void paintMarks(Canvas& canvas, const Row& row, const std::vector<engine::MarkItem>& marks, std::int64_t t0,
                    std::int64_t t1) const;
    void paintSteps(Canvas& canvas) const;
    double pixelX(int source, std::int64_t ns) const;  // widget x of time `ns` of `source`
    double keyOf(int source, std::int64_t ns) const;
    std::int64_t nsOf(int source, double key) const;
    std::int64_t bucketNs(int source) const;

    QCustomPlot* m_plot = nullptr;
    QScrollBar* m_vscroll = nullptr;  // the lanes below or above the view
    TimeTicker* m_ticker = nullptr;   // owned by the x axis
    bool m_originSet = false;
    bool m_syncing = false;
    bool m_fittedRows = true;  // rows sized to fit (until the user scrolls)
    double m_rowPx = 24;       // pixels per row
    LanesPlottable* m_lanes = nullptr;
    std::vector<TimelineSource> m_sources;
    std::vector<Row> m_rows;
    double m_totalRows = 0;
    TimelineSelection m_selection;
    TimelineRange m_range;
    std::vector<Group> m_groups;
    QSet<QString> m_collapsed;  // groupKey()s of collapsed groups
    // groupKey()s laid out before: a group's default (collapsed when many traces are open, as the
    // ranks of one job are) applies once, then the user's click rules.
    QSet<QString> m_seenGroups;
    std::size_t m_openTraces = 0;
    QSet<QString> m_pinned;     // laneKey()s of pinned lanes
    double m_pinnedRows = 0;    // height of the pinned band, value-axis units (0: none)
    // Search hits: (source, lane) -> their row ids; looked up per drawn span, so no text is built.
    std::map<std::pair<int, int>, std::unordered_set<std::int64_t>> m_highlights;
    std::size_t m_highlightCount = 0;
    std::function<AnalysesPtr(int)> m_analysesOf;
    QPoint m_pressPos;
    QPoint m_hoverPos{-1, -1};  // last mouse position over the plot; (-1, -1) when outside
};

}  // namespace cs::gui
