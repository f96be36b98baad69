// TimelinePlot's process groups and range selection.
//
// Why groups: a trace of a job with many threads, or several traces side by side, is a wall of lanes
// whose labels all start with the same process name. Each session's lanes sit under one header row,
// as Perfetto's process tracks do; a click collapses a group the user does not care about, and the
// lanes under it are labelled by their own name only. Collapsed groups are remembered by trace and
// session, so a live refresh (new snapshots of the same traces) keeps them collapsed.
//
// Why a range table: "what filled this second?" is answered by summing what a Shift-drag band
// covers, per span name (core/engine/timeline/range_summary.h), without a query per pixel.
#include "timeline_plot.h"

#include <qcustomplot.h>

#include <algorithm>

namespace cs::gui {

int TimelinePlot::rowCount() const {
    return static_cast<int>(std::count_if(m_rows.begin(), m_rows.end(), [](const Row& r) { return !r.header; }));
}

QString TimelinePlot::groupKey(int group) const {
    const Group& g = m_groups[static_cast<std::size_t>(group)];
    return m_sources[static_cast<std::size_t>(g.source)].label + QLatin1Char('\n') + QString::number(g.sessionId);
}

QString TimelinePlot::groupLabel(int group) const {
    if (group < 0 || group >= groupCount()) return {};
    return m_groups[static_cast<std::size_t>(group)].label;
}

QString TimelinePlot::groupHeaderText(int group) const {
    if (group < 0 || group >= groupCount()) return {};
    const Group& g = m_groups[static_cast<std::size_t>(group)];
    const bool collapsed = groupCollapsed(group);
    const QString lanes = g.lanes == 1 ? QStringLiteral("1 lane") : QStringLiteral("%1 lanes").arg(g.lanes);
    // An outline's group (its trace still loading) says so, and how much is coming.
    const bool stopped = m_sources[static_cast<std::size_t>(g.source)].stopped;
    QString text = g.loading ? QStringLiteral("%1 %2 · %3, %4 events, %5")
                                   .arg(collapsed ? QStringLiteral("▸") : QStringLiteral("▾"), g.label, lanes)
                                   .arg(g.spans)
                                   .arg(stopped ? QStringLiteral("not read (loading stopped)") : QStringLiteral("loading…"))
                   : collapsed ? QStringLiteral("▸ %1 · %2, %3 events hidden (click to expand)").arg(g.label, lanes).arg(g.spans)
                               : QStringLiteral("▾ %1 · %2").arg(g.label, lanes);
    // What the window knows of the trace as a whole: a slow or divergent rank says so here.
    if (const QString& note = m_sources[static_cast<std::size_t>(g.source)].note; !note.isEmpty()) text += QStringLiteral(" — ") + note;
    return text;
}

bool TimelinePlot::groupLoading(int group) const {
    return group >= 0 && group < groupCount() && m_groups[static_cast<std::size_t>(group)].loading;
}

int TimelinePlot::groupSource(int group) const {
    return group >= 0 && group < groupCount() ? m_groups[static_cast<std::size_t>(group)].source : -1;
}

bool TimelinePlot::groupCollapsed(int group) const {
    return group >= 0 && group < groupCount() && m_collapsed.contains(groupKey(group));
}

void TimelinePlot::setGroupCollapsed(int group, bool collapsed) {
    if (group < 0 || group >= groupCount() || groupCollapsed(group) == collapsed) return;
    if (collapsed) m_collapsed.insert(groupKey(group));
    else m_collapsed.remove(groupKey(group));
    if (!collapsed && groupLoading(group)) emit loadingGroupExpanded(groupSource(group));
    // What is selected may be under the collapsed header: it stays selected, just not drawn.
    layoutRows();
    applyRowHeight();
    replot();
}

QPoint TimelinePlot::groupHeaderPixel(int group) const {
    for (const Row& row : m_rows)
        if (row.header && row.group == group) {
            const QRect area = m_plot->axisRect()->rect();
            const double yy = m_plot->yAxis->coordToPixel(row.y0 + 0.5);
            return m_plot->mapTo(this, QPoint(area.left() + area.width() / 2, static_cast<int>(yy)));
        }
    return {-1, -1};
}

bool TimelinePlot::laneShown(int source, int lane) const {
    return std::any_of(m_rows.begin(), m_rows.end(), [&](const Row& r) { return r.source == source && r.lane == lane; });
}

int TimelinePlot::rowAtValue(double v) const {
    const bool band = inPinnedBand(v);  // the band covers the rows scrolled under it
    for (std::size_t r = 0; r < m_rows.size(); ++r)
        if (m_rows[r].pinned == band && v >= m_rows[r].y0 && v < m_rows[r].y0 + m_rows[r].height) return static_cast<int>(r);
    return -1;
}

void TimelinePlot::setHighlights(const std::vector<TimelineSelection>& hits) {
    m_highlights.clear();
    m_highlightCount = 0;
    for (const TimelineSelection& h : hits)
        if (h.valid() && h.lane >= 0) m_highlightCount += m_highlights[{h.source, h.lane}].insert(h.item.rowId).second ? 1 : 0;
    replot();
}

void TimelinePlot::selectRange(QPoint a, QPoint b) {
    m_range = {};
    const double va = m_plot->yAxis->pixelToCoord(a.y()), vb = m_plot->yAxis->pixelToCoord(b.y());
    const double lo = std::min(va, vb), hi = std::max(va, vb);
    // The lanes the band crossed, of the first trace it touched (a range is in one trace's clock).
    for (const Row& row : m_rows) {
        if (row.lane < 0 || row.y0 + row.height <= lo || row.y0 > hi) continue;
        if (m_range.source < 0) m_range.source = row.source;
        if (row.source == m_range.source) m_range.lanes.push_back(row.lane);
    }
    if (m_range.source >= 0) {
        const std::int64_t t0 = nsOf(m_range.source, m_plot->xAxis->pixelToCoord(a.x()));
        const std::int64_t t1 = nsOf(m_range.source, m_plot->xAxis->pixelToCoord(b.x()));
        m_range.summary = engine::summarizeRange(*m_sources[static_cast<std::size_t>(m_range.source)].data, m_range.lanes, t0, t1);
    }
    emit rangeSelected();
}

}  // namespace cs::gui
