// TimelinePlot's pinned lanes.
//
// Why a band that stays: the question is often "what was the recorder thread doing while this
// process compiled?", two lanes far apart in a trace of hundreds. Perfetto answers it by pinning a
// track to the top; so do we. The pinned rows are laid out first (so at the top of the scroll they sit
// above everything), and whenever the value axis moves their y follows its top, so they stay on
// screen while the other rows scroll under them. The band is painted over what scrolls beneath it,
// hit tests give it priority, and the row labels are rebuilt so no label hides under it. Pins are
// remembered by trace, session, track and lane name, so a live refresh keeps them.
#include "timeline_plot.h"

#include "app/models/text.h"

#include <qcustomplot.h>

#include <QMenu>

#include <algorithm>

namespace cs::gui {

QString TimelinePlot::laneKey(int source, int lane) const {
    const engine::TimelineLane& l = m_sources[static_cast<std::size_t>(source)].data->lanes[static_cast<std::size_t>(lane)];
    return m_sources[static_cast<std::size_t>(source)].label + QLatin1Char('\n') + QString::number(l.sessionId) + QLatin1Char('\n') +
           QString::number(l.trackId) + QLatin1Char('\n') + qs(l.name);
}

void TimelinePlot::layoutPinned(double& y) {
    m_pinnedRows = 0;
    if (m_pinned.isEmpty()) return;
    const bool several = m_sources.size() > 1;
    for (std::size_t s = 0; s < m_sources.size(); ++s) {
        const engine::TimelineData& d = *m_sources[s].data;
        for (std::size_t l = 0; l < d.lanes.size(); ++l) {
            if (!m_pinned.contains(laneKey(static_cast<int>(s), static_cast<int>(l)))) continue;
            const QString label = QStringLiteral("pinned · ") + (several ? m_sources[s].label + QStringLiteral(": ") : QString()) +
                                  laneLabel(static_cast<int>(s), static_cast<int>(l));
            const int height = std::max(1, d.lanes[l].spans.depthCount());
            m_rows.push_back({static_cast<int>(s), static_cast<int>(l), -1, y, height, label, -1, false, true, y});
            y += height + kLaneGap;
        }
    }
    m_pinnedRows = y;
}

void TimelinePlot::placePinned(bool relabel) {
    // Without pins nothing moves on a scroll, and the labels built by layoutRows stand.
    if (m_pinnedRows <= 0 && !relabel) return;
    const double top = std::max(0.0, m_plot->yAxis->range().lower + 0.3);  // 0.3: the margin above row 0
    for (Row& r : m_rows)
        if (r.pinned) r.y0 = top + r.home;
    // Row labels: a header's text is drawn in its band; a row under the pinned band has none.
    auto ticker = QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText);
    for (const Row& r : m_rows) {
        const bool covered = !r.pinned && m_pinnedRows > 0 && r.y0 + 0.5 >= top - 0.3 && r.y0 + 0.5 < top + m_pinnedRows;
        if (!covered) ticker->addTick(r.y0 + 0.5, r.header ? QString() : r.label);
    }
    m_plot->yAxis->setTicker(ticker);
}

bool TimelinePlot::inPinnedBand(double v) const {
    if (m_pinnedRows <= 0 || m_rows.empty() || !m_rows.front().pinned) return false;
    const double top = m_rows.front().y0 - m_rows.front().home;
    return v < top + m_pinnedRows - kLaneGap / 2;
}

void TimelinePlot::setLanePinned(int source, int lane, bool pinned) {
    if (source < 0 || source >= static_cast<int>(m_sources.size()) || lane < 0 ||
        lane >= static_cast<int>(m_sources[static_cast<std::size_t>(source)].data->lanes.size()) || lanePinned(source, lane) == pinned)
        return;
    if (pinned) m_pinned.insert(laneKey(source, lane));
    else m_pinned.remove(laneKey(source, lane));
    layoutRows();
    applyRowHeight();
    syncScrollBar();
    replot();
}

bool TimelinePlot::lanePinned(int source, int lane) const {
    return std::any_of(m_rows.begin(), m_rows.end(), [&](const Row& r) { return r.pinned && r.source == source && r.lane == lane; });
}

int TimelinePlot::pinnedCount() const {
    return static_cast<int>(std::count_if(m_rows.begin(), m_rows.end(), [](const Row& r) { return r.pinned; }));
}

QRect TimelinePlot::plotArea() const {
    const QRect r = m_plot->axisRect()->rect();
    return {m_plot->mapTo(this, r.topLeft()), r.size()};
}

void TimelinePlot::contextMenuAt(QPoint pos, QPoint globalPos) {
    const int r = rowAtValue(m_plot->yAxis->pixelToCoord(pos.y()));
    if (r < 0 || m_rows[static_cast<std::size_t>(r)].lane < 0) return;
    const Row row = m_rows[static_cast<std::size_t>(r)];
    QMenu menu(this);
    QAction* pin = menu.addAction(row.pinned ? QStringLiteral("Unpin lane (P)") : QStringLiteral("Pin lane to the top (P)"));
    if (menu.exec(globalPos) == pin) setLanePinned(row.source, row.lane, !row.pinned);
}

}  // namespace cs::gui
