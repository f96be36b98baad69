#include "timeline_plot.h"

#include "plot_canvas.h"
#include "time_axis.h"
#include "timeline_lanes.h"
#include "app/models/text.h"
#include "core/util/saturating.h"

#include <qcustomplot.h>

#include <QFile>
#include <QFontMetrics>
#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QHBoxLayout>
#include <QScrollBar>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace cs::gui {

// Ticks in adaptive units (time_axis.h); the step QCustomPlot chose is what the labels need. Ticks
// are placed and labelled relative to the origin (0 = the trace's first event until the user moves
// it with O), so a moved origin still gets round ticks and a "0" where it is.
class TimeTicker : public QCPAxisTicker {
public:
    double origin = 0;  // key coordinate of the labels' zero

protected:
    double getTickStep(const QCPRange& range) override {
        m_step = QCPAxisTicker::getTickStep(range);
        return m_step;
    }
    QVector<double> createTickVector(double tickStep, const QCPRange& range) override {
        QVector<double> ticks = QCPAxisTicker::createTickVector(tickStep, QCPRange(range.lower - origin, range.upper - origin));
        for (double& t : ticks) t += origin;
        return ticks;
    }
    QVector<QString> createLabelVector(const QVector<double>& ticks, const QLocale&, QChar, int) override {
        QVector<double> relative = ticks;
        for (double& t : relative) t -= origin;
        return timeTickLabels(relative, m_step);
    }

private:
    double m_step = 0;
};

namespace {
constexpr double kNsPerSecond = 1e9;
constexpr std::int64_t kMinVisiblePx = 3;

std::int64_t pow2Floor(std::int64_t v) {
    std::int64_t p = 1;
    while (p * 2 <= v) p *= 2;
    return p;
}
}  // namespace

TimelinePlot::TimelinePlot(QWidget* parent)
    : QWidget(parent), m_plot(new QCustomPlot(this)), m_vscroll(new QScrollBar(Qt::Vertical, this)) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_plot, 1);
    layout->addWidget(m_vscroll);
    // The scroll bar and the value axis move together (a drag, Page Up / Down, the bar itself).
    connect(m_plot->yAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, &TimelinePlot::syncScrollBar);
    // After each layout (a resize) the rows keep their height in pixels.
    // The margins were laid out for the old range's tick labels: lay out again (queued) when it moved.
    connect(m_plot, &QCustomPlot::afterLayout, this, [this] {
        if (applyRowHeight()) m_plot->replot(QCustomPlot::rpQueuedReplot);
    });
    connect(m_vscroll, &QScrollBar::valueChanged, this, [this](int v) {
        if (m_syncing) return;
        m_fittedRows = false;
        const double size = m_plot->yAxis->range().size();
        m_plot->yAxis->setRange(v / 10.0 - 0.3, v / 10.0 - 0.3 + size);
        replot();
    });
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    m_plot->axisRect()->setRangeDrag(Qt::Horizontal | Qt::Vertical);
    m_plot->axisRect()->setRangeZoom(Qt::Horizontal);
    m_plot->yAxis->setRangeReversed(true);
    m_plot->yAxis->setTicker(QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText));
    m_plot->yAxis->grid()->setVisible(false);
    auto ticker = QSharedPointer<TimeTicker>(new TimeTicker);
    m_ticker = ticker.data();
    m_plot->xAxis->setTicker(ticker);
    m_plot->xAxis->setLabel(QStringLiteral("time since the trace's first event"));
    m_plot->setMouseTracking(true);  // the hover position anchors W / S zooming
    m_plot->setNoAntialiasingOnDrag(true);
    m_plot->setFocusPolicy(Qt::StrongFocus);
    m_plot->installEventFilter(this);
    m_lanes = new LanesPlottable(this, m_plot->xAxis, m_plot->yAxis);
    connect(m_plot, &QCustomPlot::mousePress, this, [this](QMouseEvent* e) {
        m_pressPos = e->pos();
        // Shift-drag selects a time range (its table in TimelineView); a plain drag pans.
        m_plot->setSelectionRectMode(e->modifiers() & Qt::ShiftModifier ? QCP::srmCustom : QCP::srmNone);
    });
    connect(m_plot->selectionRect(), &QCPSelectionRect::accepted, this,
            [this](const QRect& r, QMouseEvent*) { selectRange(r.topLeft(), r.bottomRight()); });
    connect(m_plot, &QCustomPlot::mouseRelease, this, [this](QMouseEvent* e) {
        if (std::abs(e->pos().y() - m_pressPos.y()) >= 4) m_fittedRows = false;  // dragged up or down
        if ((e->pos() - m_pressPos).manhattanLength() < 4) selectAt(e->pos());
    });
    connect(m_plot->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, &TimelinePlot::rangeChanged);
    connect(m_plot, &QCustomPlot::afterReplot, this, &TimelinePlot::replotted);
}

TimelinePlot::~TimelinePlot() = default;

QWidget* TimelinePlot::plotWidget() const { return m_plot; }

void TimelinePlot::setOrigin(int source, std::int64_t ns) {
    if (source < 0 || source >= static_cast<int>(m_sources.size())) return;
    m_ticker->origin = keyOf(source, ns);
    m_originSet = true;
    m_plot->xAxis->setLabel(QStringLiteral("time since the origin at %1 (O moves it, Shift+O resets)").arg(secondsText(m_ticker->origin)));
    replot();
}

void TimelinePlot::resetOrigin() {
    m_ticker->origin = 0;
    m_originSet = false;
    m_plot->xAxis->setLabel(QStringLiteral("time since the trace's first event"));
    replot();
}

bool TimelinePlot::applyRowHeight() {
    const double px = m_plot->axisRect()->height();
    if (px <= 0) return false;
    if (m_fittedRows) m_rowPx = std::clamp(px / (m_totalRows + 0.3), 16.0, 40.0);
    const QCPRange r = m_plot->yAxis->range();
    const double lower = m_fittedRows ? -0.3 : r.lower, want = px / m_rowPx;
    if (std::abs(r.lower - lower) <= 1e-9 && std::abs(r.size() - want) <= 1e-9) return false;
    m_plot->yAxis->setRange(lower, lower + want);
    return true;
}

void TimelinePlot::syncScrollBar() {
    placePinned();
    const QCPRange r = m_plot->yAxis->range();
    const int total = static_cast<int>(std::ceil((m_totalRows + 0.3) * 10));
    const int page = static_cast<int>(r.size() * 10);
    m_syncing = true;
    m_vscroll->setRange(0, std::max(0, total - page));
    m_vscroll->setPageStep(std::max(1, page));
    m_vscroll->setSingleStep(10);
    m_vscroll->setValue(static_cast<int>(std::lround((r.lower + 0.3) * 10)));
    m_vscroll->setVisible(total > page);
    m_syncing = false;
}

void TimelinePlot::setSources(std::vector<TimelineSource> sources, bool refresh) {
    bool keep = refresh && sources.size() == m_sources.size() && !m_sources.empty();
    for (std::size_t s = 0; keep && s < sources.size(); ++s) keep = sources[s].label == m_sources[s].label;
    const bool sameTraces = keep;
    if (keep) {
        // Was the whole trace in view? Then follow it as it grows.
        QCPRange r = m_plot->xAxis->range();
        for (std::size_t s = 0; keep && s < m_sources.size(); ++s)
            keep = r.lower > keyOf(static_cast<int>(s), m_sources[s].data->minNs) ||
                   r.upper < keyOf(static_cast<int>(s), m_sources[s].data->maxNs);
    }
    QCPRange x = m_plot->xAxis->range(), y = m_plot->yAxis->range();
    // A selection (or a range) in a trace whose snapshot is the same stays: 256 ranks arrive one by
    // one after their outlines, and each arrival must not take away what the user clicked in another.
    auto unchanged = [&](int source) {
        return sameTraces && source >= 0 && static_cast<std::size_t>(source) < sources.size() &&
               sources[static_cast<std::size_t>(source)].data == m_sources[static_cast<std::size_t>(source)].data;
    };
    const bool keepSelection = unchanged(m_selection.source), keepRange = unchanged(m_range.source);
    m_sources = std::move(sources);
    if (!keepSelection) m_selection = {};
    if (!keepRange) m_range = {};
    if (!keep) {
        m_highlights.clear();
        m_highlightCount = 0;
    }
    layoutRows();
    if (!keep) {
        fitAll();
        return;
    }
    m_plot->xAxis->setRange(x);
    m_plot->yAxis->setRange(y);
    replot();
}

void TimelinePlot::layoutRows() {
    m_rows.clear();
    m_groups.clear();
    double y = 0;
    layoutPinned(y);
    bool several = m_sources.size() > 1;
    for (std::size_t s = 0; s < m_sources.size(); ++s) {
        const engine::TimelineData& d = *m_sources[s].data;
        QString prefix = several ? m_sources[s].label + QStringLiteral(": ") : QString();
        auto addRow = [&](int lane, int marks, int height, const QString& label, bool header) {
            m_rows.push_back({static_cast<int>(s), lane, marks, y, height, label, static_cast<int>(m_groups.size()) - 1, header, false, 0});
            y += height + (header ? kLaneGap / 2 : kLaneGap);
        };
        // Sessions in lane order (lanes are grouped by session), then those with marks only; one
        // pass over lanes and marks, not one per session.
        std::vector<std::int64_t> sessions;
        std::unordered_map<std::int64_t, std::vector<int>> lanesOf, marksOf;
        for (std::size_t l = 0; l < d.lanes.size(); ++l) {
            auto& v = lanesOf[d.lanes[l].sessionId];
            if (v.empty() && !marksOf.count(d.lanes[l].sessionId)) sessions.push_back(d.lanes[l].sessionId);
            v.push_back(static_cast<int>(l));
        }
        for (std::size_t m = 0; m < d.marks.size(); ++m) {
            if (d.marks[m].lookups.size() == 0 && d.marks[m].outlineLookups == 0) continue;
            if (!lanesOf.count(d.marks[m].sessionId) && !marksOf.count(d.marks[m].sessionId)) sessions.push_back(d.marks[m].sessionId);
            marksOf[d.marks[m].sessionId].push_back(static_cast<int>(m));
        }
        for (std::int64_t session : sessions) {
            const std::vector<int>& lanes = lanesOf[session];
            const std::vector<int>& marks = marksOf[session];
            Group g{static_cast<int>(s), session, {}, static_cast<int>(lanes.size() + marks.size()), 0, d.outline};
            for (int l : lanes) g.spans += d.lanes[static_cast<std::size_t>(l)].spans.spanCount();
            for (int m : marks) g.spans += d.marks[static_cast<std::size_t>(m)].lookups.size();
            g.spans += d.outlineEventsOf(session);  // an outline's events, none read yet
            g.label = prefix + qs(!lanes.empty() ? d.lanes[static_cast<std::size_t>(lanes.front())].process
                                                 : d.marks[static_cast<std::size_t>(marks.front())].process);
            m_groups.push_back(g);
            addRow(-1, -1, 1, g.label, true);
            const QString key = groupKey(static_cast<int>(m_groups.size()) - 1);
            if (!m_seenGroups.contains(key)) {
                m_seenGroups.insert(key);
                if (std::max(m_sources.size(), m_openTraces) > kExpandedTraces) m_collapsed.insert(key);
            }
            if (m_collapsed.contains(key)) continue;
            // A session's cache-lookup row comes right above its lanes. Rows under a header are
            // labelled without the process: the header says it once.
            for (int m : marks) addRow(-1, m, 1, QStringLiteral("cache lookups"), false);
            for (int l : lanes)
                if (m_pinned.isEmpty() || !m_pinned.contains(laneKey(static_cast<int>(s), l)))  // pinned: in the band
                    addRow(l, -1, std::max(1, d.lanes[static_cast<std::size_t>(l)].spans.depthCount()),
                       qs(d.lanes[static_cast<std::size_t>(l)].name), false);
        }
    }
    m_totalRows = y;
    m_lanes->caches.assign(m_rows.size(), {});
    placePinned(true);
}

QString TimelinePlot::laneLabel(int source, int lane) const {
    const engine::TimelineLane& l = m_sources[static_cast<std::size_t>(source)].data->lanes[static_cast<std::size_t>(lane)];
    return qs(l.process) + QStringLiteral(" · ") + qs(l.name);
}

QPoint TimelinePlot::pixelOf(int source, int lane, int depth, std::int64_t ns) const {
    for (const Row& row : m_rows)
        if (row.source == source && row.lane == lane) {
            double x = m_plot->xAxis->coordToPixel(keyOf(source, ns));
            double y = m_plot->yAxis->coordToPixel(row.y0 + depth + 0.5);
            return m_plot->mapTo(this, QPoint(static_cast<int>(x), static_cast<int>(y)));
        }
    return {-1, -1};
}

QPoint TimelinePlot::markPixelOf(int source, int marks, std::int64_t ns) const {
    for (const Row& row : m_rows)
        if (row.source == source && row.lane < 0 && row.marks == marks) {
            double x = m_plot->xAxis->coordToPixel(keyOf(source, ns));
            double y = m_plot->yAxis->coordToPixel(row.y0 + 0.5);
            return m_plot->mapTo(this, QPoint(static_cast<int>(x), static_cast<int>(y)));
        }
    return {-1, -1};
}

double TimelinePlot::keyOf(int source, std::int64_t ns) const {
    return static_cast<double>(ns - m_sources[static_cast<std::size_t>(source)].data->minNs) / kNsPerSecond;
}

std::int64_t TimelinePlot::nsOf(int source, double key) const {
    return m_sources[static_cast<std::size_t>(source)].data->minNs + static_cast<std::int64_t>(std::llround(key * kNsPerSecond));
}

std::int64_t TimelinePlot::bucketNs(int source) const {
    QCPRange r = m_plot->xAxis->range();
    double px = std::max(1, m_plot->axisRect()->width());
    auto nsPerPixel = static_cast<std::int64_t>((nsOf(source, r.upper) - nsOf(source, r.lower)) / px);
    // Spans under ~3 px fold (Tracy's MinVisSize idea): a 1 px sliver says nothing and costs a rect.
    return pow2Floor(std::max<std::int64_t>(1, nsPerPixel * kMinVisiblePx));
}

void TimelinePlot::fitAll() {
    double hi = 0;
    for (std::size_t s = 0; s < m_sources.size(); ++s)
        hi = std::max(hi, keyOf(static_cast<int>(s), m_sources[s].data->maxNs));
    if (hi <= 0) hi = 1e-6;
    m_plot->xAxis->setRange(-hi * 0.02, hi * 1.02);
    // Rows between 16 and 40 px tall: a big trace scrolls (scroll bar, Page Up / Down) instead of
    // squeezing its lanes into unreadable slivers; a small one is not stretched into slabs. The row
    // height is kept when the window is resized (applyRowHeight), as Perfetto's tracks keep theirs.
    m_fittedRows = true;
    m_plot->yAxis->setRange(-0.3, 1.0);
    applyRowHeight();
    replot();
}

void TimelinePlot::showRange(int source, std::int64_t startNs, std::int64_t endNs) {
    if (source < 0 || source >= static_cast<int>(m_sources.size())) return;
    double a = keyOf(source, startNs), b = keyOf(source, std::max(endNs, startNs + 1));
    double margin = (b - a) * 0.05;
    m_plot->xAxis->setRange(a - margin, b + margin);
    replot();
}

std::pair<std::int64_t, std::int64_t> TimelinePlot::visibleRangeNs(int source) const {
    if (source < 0 || source >= static_cast<int>(m_sources.size())) return {0, 0};
    QCPRange r = m_plot->xAxis->range();
    return {nsOf(source, r.lower), nsOf(source, r.upper)};
}

void TimelinePlot::zoomBy(double factor) {
    if (m_hoverPos.x() >= 0 && m_plot->axisRect()->rect().contains(m_hoverPos)) return zoomAt(factor, m_hoverPos.x());
    m_plot->xAxis->scaleRange(1.0 / factor, m_plot->xAxis->range().center());
    replot();
}

void TimelinePlot::zoomAt(double factor, double x) {
    m_plot->xAxis->scaleRange(1.0 / factor, m_plot->xAxis->pixelToCoord(x));
    replot();
}

QStringList TimelinePlot::axisLabels() const {
    QStringList out;
    for (const QString& l : m_plot->xAxis->tickVectorLabels()) out << l;
    return out;
}

std::int64_t TimelinePlot::nsAtPixel(int source, double x) const {
    if (source < 0 || source >= static_cast<int>(m_sources.size())) return 0;
    return nsOf(source, m_plot->xAxis->pixelToCoord(m_plot->mapFrom(this, QPointF(x, 0)).x()));
}

QString TimelinePlot::windowText() const {
    QCPRange r = m_plot->xAxis->range();
    return secondsText(r.size());
}

void TimelinePlot::panBy(double fraction) {
    m_plot->xAxis->moveRange(m_plot->xAxis->range().size() * fraction);
    replot();
}

void TimelinePlot::replot() { m_plot->replot(QCustomPlot::rpImmediateRefresh); }

std::size_t TimelinePlot::lastPaintItems() const { return m_lanes->drawn; }

std::vector<int> TimelinePlot::lastPaintCategories() const {
    std::vector<int> out;
    for (int c = 0; c < 32; ++c)
        if (m_lanes->categories & (1u << c)) out.push_back(c);
    return out;
}

bool TimelinePlot::lastPaintMarks() const { return m_lanes->marks; }

bool TimelinePlot::eventFilter(QObject* watched, QEvent* event) {
    if (watched != m_plot) return QWidget::eventFilter(watched, event);
    switch (event->type()) {
    case QEvent::MouseMove: m_hoverPos = static_cast<QMouseEvent*>(event)->pos(); break;
    case QEvent::Leave: m_hoverPos = {-1, -1}; break;
    case QEvent::ContextMenu: {
        auto* menu = static_cast<QContextMenuEvent*>(event);
        contextMenuAt(menu->pos(), menu->globalPos());
        return true;
    }
    case QEvent::ToolTip: {
        auto* help = static_cast<QHelpEvent*>(event);
        QString tip = tooltipAt(help->pos());
        if (tip.isEmpty()) QToolTip::hideText();
        else QToolTip::showText(help->globalPos(), tip, m_plot);
        return true;
    }
    default: break;
    }
    if (event->type() != QEvent::KeyPress) return QWidget::eventFilter(watched, event);
    // WASD as in Perfetto: W / S zoom, A / D pan; F fits the selection (or everything); 0 fits all.
    switch (static_cast<QKeyEvent*>(event)->key()) {
    case Qt::Key_W: zoomBy(1.25); return true;
    case Qt::Key_S: zoomBy(0.8); return true;
    case Qt::Key_A: panBy(-0.1); return true;
    case Qt::Key_D: panBy(0.1); return true;
    case Qt::Key_F:
        if (m_selection.valid() && m_selection.lane >= 0) showRange(m_selection.source, m_selection.item.startNs, m_selection.item.endNs);
        else fitAll();
        return true;
    case Qt::Key_0:
    case Qt::Key_Home: fitAll(); return true;
    case Qt::Key_Return:
    case Qt::Key_Enter: emit selectionActivated(); return true;
    case Qt::Key_Question: emit helpRequested(); return true;
    case Qt::Key_P:
        if (m_selection.valid() && m_selection.lane >= 0)
            setLanePinned(m_selection.source, m_selection.lane, !lanePinned(m_selection.source, m_selection.lane));
        return true;
    case Qt::Key_O:
        // O: the origin at the selection's start (else under the mouse); Shift+O: back to the first event.
        if (static_cast<QKeyEvent*>(event)->modifiers() & Qt::ShiftModifier) resetOrigin();
        else if (m_selection.valid()) setOrigin(m_selection.source, m_selection.lane >= 0 ? m_selection.item.startNs : m_selection.mark.tsNs);
        else if (m_hoverPos.x() >= 0 && !m_sources.empty()) setOrigin(0, nsOf(0, m_plot->xAxis->pixelToCoord(m_hoverPos.x())));
        return true;
    case Qt::Key_PageDown:
    case Qt::Key_PageUp: {
        const double size = m_plot->yAxis->range().size();
        m_fittedRows = false;
        m_plot->yAxis->moveRange(static_cast<QKeyEvent*>(event)->key() == Qt::Key_PageDown ? size * 0.9 : -size * 0.9);
        replot();
        return true;
    }
    default: return QWidget::eventFilter(watched, event);
    }
}

void TimelinePlot::selectAt(QPoint pos) {
    const int r = rowAtValue(m_plot->yAxis->pixelToCoord(pos.y()));
    if (r >= 0 && m_rows[static_cast<std::size_t>(r)].header) {
        const int g = m_rows[static_cast<std::size_t>(r)].group;
        return setGroupCollapsed(g, !groupCollapsed(g));
    }
    select(hitAt(pos), false);
}

TimelineSelection TimelinePlot::hitAt(QPoint pos) const {
    TimelineSelection sel;
    double v = m_plot->yAxis->pixelToCoord(pos.y());
    const bool band = inPinnedBand(v);
    for (std::size_t r = 0; r < m_rows.size() && !sel.valid(); ++r) {
        const Row& row = m_rows[r];
        if (row.header || row.pinned != band || v < row.y0 || v >= row.y0 + row.height) continue;
        std::int64_t t = nsOf(row.source, m_plot->xAxis->pixelToCoord(pos.x()));
        std::int64_t tol = bucketNs(row.source);  // about 3 px
        const LanesPlottable::Cache& c = m_lanes->caches[r];
        auto depth = static_cast<int>(std::floor(v - row.y0));
        for (const engine::TimelineItem& it : c.items)
            if (it.depth == depth && it.startNs <= t + tol && it.endNs >= t - tol) {
                sel = {row.source, row.lane, -1, it, {}};
                if (it.startNs <= t && it.endNs >= t) break;  // an exact hit beats a near one
            }
        for (const engine::MarkItem& m : c.marks)
            if (std::llabs(m.tsNs - t) <= tol) sel = {row.source, -1, row.marks, {}, m};
    }
    return sel;
}

void TimelinePlot::select(const TimelineSelection& s, bool follow) {
    m_selection = s;
    if (follow && s.valid() && s.lane >= 0) {
        showRange(s.source, s.item.startNs, s.item.endNs);
    } else if (follow && s.valid()) {
        // A mark has no width: centre it, keeping the zoom, and bring its row into view.
        const double k = keyOf(s.source, s.mark.tsNs), half = m_plot->xAxis->range().size() / 2;
        m_plot->xAxis->setRange(k - half, k + half);
        for (const Row& row : m_rows)
            if (row.source == s.source && row.lane < 0 && row.marks == s.marks) {
                const QCPRange y = m_plot->yAxis->range();
                if (row.y0 < y.lower || row.y0 + 1 > y.upper) {
                    m_fittedRows = false;
                    m_plot->yAxis->setRange(row.y0 - 1, row.y0 - 1 + y.size());
                }
            }
        replot();
    } else {
        replot();
    }
    emit selectionChanged();
}

QString TimelinePlot::selectionText() const {
    const TimelineSelection& s = m_selection;
    if (!s.valid()) return QStringLiteral("Click a span or a mark; W/S zoom, A/D pan, F fit selection, 0 fit all.");
    const engine::TimelineData& d = *m_sources[static_cast<std::size_t>(s.source)].data;
    QString trace = m_sources[static_cast<std::size_t>(s.source)].label;
    if (s.lane < 0) {
        const engine::SessionMarks& sm = d.marks[static_cast<std::size_t>(s.marks)];
        if (s.mark.count > 1)
            return QStringLiteral("%1 cache lookups (%2 misses) near %3 s\n%4 · %5")
                .arg(s.mark.count).arg(s.mark.flagged).arg(keyOf(s.source, s.mark.tsNs), 0, 'f', 6).arg(trace, qs(sm.process));
        return QStringLiteral("cache lookup of %1: %2\nat %3 · lookup #%4\n%5 · %6")
            .arg(qs(d.str(s.mark.label)), s.mark.flagged ? QStringLiteral("miss") : QStringLiteral("hit"))
            .arg(secondsText(keyOf(s.source, s.mark.tsNs))).arg(s.mark.rowId).arg(trace, qs(sm.process));
    }
    const engine::TimelineLane& lane = d.lanes[static_cast<std::size_t>(s.lane)];
    const engine::TimelineItem& it = s.item;
    QString where = QStringLiteral("%1 · %2").arg(trace, laneLabel(s.source, s.lane));
    if (it.count > 1)
        return QStringLiteral("%1 items folded (zoom in to see them)\nfrom %2 s to %3 s (%4)\n%5")
            .arg(it.count).arg(keyOf(s.source, it.startNs), 0, 'f', 6).arg(keyOf(s.source, it.endNs), 0, 'f', 6)
            .arg(durationText(cs::util::satSub(it.endNs, it.startNs)), where);
    // A time trace's span says what it worked on: "InstantiateFunction: std::vector<int>::push_back".
    QString name = qs(d.str(it.name));
    if (lane.source == engine::LaneSource::Spans)
        if (const std::uint32_t detail = d.detailOf(it.rowId)) name += QStringLiteral(": ") + qs(d.str(detail));
    return QStringLiteral("%1\n%2 · %3 at %4\n%5")
        .arg(name, categoryName(it.category), durationText(cs::util::satSub(it.endNs, it.startNs)))
        .arg(secondsText(keyOf(s.source, it.startNs)), where);
}

bool TimelinePlot::savePng(const QString& path) const { return m_plot->savePng(path); }

}  // namespace cs::gui
