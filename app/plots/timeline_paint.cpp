// TimelinePlot's painting: the lanes' spans and folds, the cache-lookup marks, the group headers, the
// pinned band and the step markers, on any Canvas (the screen through QCustomPlot, or SVG).
//
// Why through a Canvas: the same code draws the widget and the exported SVG, so an export shows what
// the screen shows. Each paint asks the snapshot's TimelineIndex for at most a few items per pixel
// (LanesPlottable::fetch, docs/practices.md 8).
#include "timeline_plot.h"

#include "category_colors.h"
#include "plot_canvas.h"
#include "timeline_lanes.h"
#include "app/models/text.h"

#include <qcustomplot.h>

#include <QFontMetrics>

#include <algorithm>
#include <cmath>

namespace cs::gui {

double TimelinePlot::pixelX(int source, std::int64_t ns) const { return m_plot->xAxis->coordToPixel(keyOf(source, ns)); }

void TimelinePlot::paintContent(Canvas& canvas) const {
    m_lanes->drawn = 0;
    m_lanes->categories = 0;
    m_lanes->marks = false;
    if (m_sources.empty()) return;
    // Two passes: the scrolling rows, then the pinned band over them (rows scroll under it).
    for (int pass = 0; pass < (m_pinnedRows > 0 ? 2 : 1); ++pass)
        for (std::size_t r = 0; r < m_rows.size(); ++r) {
            const Row& row = m_rows[r];
            if (row.pinned != (pass == 1)) continue;
            if (pass == 1 && r == 0) paintPinnedBand(canvas, row);
            paintRow(canvas, r);
        }
    paintSteps(canvas);
}

void TimelinePlot::paintPinnedBand(Canvas& canvas, const Row& first) const {
    const QRect area = m_plot->axisRect()->rect();
    const double bottom = m_plot->yAxis->coordToPixel(first.y0 - first.home + m_pinnedRows - kLaneGap / 2);
    canvas.rect(QRectF(area.left(), area.top(), area.width(), bottom - area.top()), QColor(0xfa, 0xfa, 0xfa), QColor());
    canvas.line({static_cast<double>(area.left()), bottom}, {static_cast<double>(area.right()), bottom}, QColor(0x60, 0x7d, 0x8b), false);
}

void TimelinePlot::paintRow(Canvas& canvas, std::size_t r) const {
    const Row& row = m_rows[r];
    QCPAxis* y = m_plot->yAxis;
    const QRect area = m_plot->axisRect()->rect();
    const QCPRange kr = m_plot->xAxis->range(), vr = y->range();
    if (row.y0 > vr.upper || row.y0 + row.height < vr.lower) return;
    if (row.header) {
        // A group's header: a band across the plot with the process's name; a collapsed group
        // says what it hides.
        QRectF band(area.left(), y->coordToPixel(row.y0), area.width(), std::abs(y->coordToPixel(1) - y->coordToPixel(0)));
        canvas.rect(band, QColor(0xe3, 0xe8, 0xec), QColor());
        canvas.text(band.adjusted(4, 0, -4, 0), groupHeaderText(row.group), QColor(0x26, 0x32, 0x38));
        return;
    }
    const std::int64_t t0 = nsOf(row.source, kr.lower), t1 = nsOf(row.source, kr.upper);
    const LanesPlottable::Cache& c = m_lanes->fetch(r, t0, t1, bucketNs(row.source));
    canvas.line({static_cast<double>(area.left()), y->coordToPixel(row.y0 + row.height + kLaneGap / 2)},
                {static_cast<double>(area.right()), y->coordToPixel(row.y0 + row.height + kLaneGap / 2)},
                QColor(0xdd, 0xdd, 0xdd), false);
    paintSpans(canvas, row, c.items, t0, t1);
    paintMarks(canvas, row, c.marks, t0, t1);
}

void TimelinePlot::paintSpans(Canvas& canvas, const Row& row, const std::vector<engine::TimelineItem>& items, std::int64_t t0,
                              std::int64_t t1) const {
    QCPAxis* y = m_plot->yAxis;
    const QRect area = m_plot->axisRect()->rect();
    const double rowPx = std::abs(y->coordToPixel(1) - y->coordToPixel(0));
    const TimelineSource& source = m_sources[static_cast<std::size_t>(row.source)];
    auto hitsIt = m_highlights.find({row.source, row.lane});
    const std::unordered_set<std::int64_t>* hits = hitsIt == m_highlights.end() ? nullptr : &hitsIt->second;
    for (const engine::TimelineItem& it : items) {
        if (it.endNs < t0 || it.startNs > t1) continue;
        double a = std::max<double>(pixelX(row.source, it.startNs), area.left() - 2);
        double b = std::min<double>(std::max(pixelX(row.source, it.endNs), a + 1), area.right() + 2);
        QRectF rect(a, y->coordToPixel(row.y0 + it.depth) + 1, b - a, rowPx - 2);
        bool selected = m_selection.source == row.source && m_selection.lane == row.lane &&
                        m_selection.item.rowId == it.rowId && m_selection.item.depth == it.depth;
        QColor fill = categoryColor(it.category);
        if (it.category < 32) m_lanes->categories |= 1u << it.category;
        if (it.count > 1) fill.setAlpha(120);
        if (source.dimmed) fill.setAlpha(fill.alpha() / 3);
        const bool hit = hits && it.count == 1 && hits->count(it.rowId) > 0;
        canvas.rect(rect, fill, selected ? QColor(Qt::black) : hit ? QColor(0xff, 0x6f, 0x00) : QColor());
        if (rect.width() > 30) {
            QString label = it.count > 1 ? QStringLiteral("%1 items").arg(it.count) : qs(source.data->str(it.name));
            canvas.text(rect.adjusted(2, 0, -2, 0), label, Qt::black);
        }
        ++m_lanes->drawn;
    }
}

void TimelinePlot::paintMarks(Canvas& canvas, const Row& row, const std::vector<engine::MarkItem>& marks, std::int64_t t0,
                              std::int64_t t1) const {
    QCPAxis* y = m_plot->yAxis;
    const double rowPx = std::abs(y->coordToPixel(1) - y->coordToPixel(0));
    for (const engine::MarkItem& m : marks) {
        if (m.tsNs < t0 || m.tsNs > t1) continue;
        double a = pixelX(row.source, m.tsNs);
        m_lanes->marks = true;
        // A miss: a full-height bar labelled "miss"; a hit: a tick in the lower half (category_colors.h).
        const bool miss = m.flagged > 0;
        QRectF rect(a - 1.5, y->coordToPixel(row.y0) + (miss ? 1 : rowPx / 2), 3, miss ? rowPx - 2 : rowPx / 2 - 1);
        bool selected = m_selection.source == row.source && m_selection.marks == row.marks && m_selection.mark.rowId == m.rowId;
        QColor markFill = lookupColor(miss);
        if (m_sources[static_cast<std::size_t>(row.source)].dimmed) markFill.setAlpha(markFill.alpha() / 3);
        canvas.rect(rect, markFill, selected ? QColor(Qt::black) : QColor());
        if (miss) canvas.text(QRectF(a + 3, rect.top(), 60, rect.height()), QStringLiteral("miss"), lookupColor(true));
        ++m_lanes->drawn;
    }
}

// Step markers across every lane of their trace. Their labels share one row at the bottom: with many
// traces open (the ranks of a job) their steps fall close together, so a label is drawn only where no
// other one is (the line always is).
void TimelinePlot::paintSteps(Canvas& canvas) const {
    const QRect area = m_plot->axisRect()->rect();
    const QCPRange kr = m_plot->xAxis->range();
    std::vector<char> labelled(static_cast<std::size_t>(std::max(0, area.width())) + 1, 0);
    const QFontMetrics metrics(m_plot->font());
    auto room = [&](double left, int width) {
        const int from = std::clamp(static_cast<int>(left) - area.left(), 0, static_cast<int>(labelled.size()) - 1);
        const int to = std::clamp(from + width, 0, static_cast<int>(labelled.size()));
        for (int i = from; i < to; ++i)
            if (labelled[static_cast<std::size_t>(i)]) return false;
        std::fill(labelled.begin() + from, labelled.begin() + to, 1);
        return true;
    };
    for (std::size_t s = 0; s < m_sources.size(); ++s) {
        const engine::TimelineData& d = *m_sources[s].data;
        std::int64_t t0 = nsOf(static_cast<int>(s), kr.lower), t1 = nsOf(static_cast<int>(s), kr.upper);
        std::int64_t bucket = bucketNs(static_cast<int>(s)) * 16;  // at most one marker per ~32 px
        for (const engine::SessionMarks& sm : d.marks) {
            std::vector<engine::MarkItem> steps;
            sm.steps.query(t0, t1, bucket, steps);
            for (const engine::MarkItem& m : steps) {
                double a = pixelX(static_cast<int>(s), m.tsNs);
                canvas.line({a, static_cast<double>(area.top())}, {a, static_cast<double>(area.bottom())}, QColor(0x60, 0x7d, 0x8b), true);
                QString label = m.count > 1 ? QStringLiteral("%1 steps").arg(m.count) : QStringLiteral("step %1").arg(m.label);
                if (room(a + 2, std::min(70, metrics.horizontalAdvance(label) + 6)))
                    canvas.text(QRectF(a + 2, area.bottom() - 16, 70, 14), label, QColor(0x37, 0x47, 0x4f));  // clear of the headers
                ++m_lanes->drawn;
            }
        }
    }
}

QString TimelinePlot::toSvg() const {
    SvgCanvas svg(m_plot->width(), m_plot->height());
    paintContent(svg);
    // Lane labels and time ticks, as the axes show them.
    QCPAxis* x = m_plot->xAxis;
    QRect area = m_plot->axisRect()->rect();
    for (const Row& row : m_rows) {
        double yy = m_plot->yAxis->coordToPixel(row.y0 + 0.5);
        if (yy >= area.top() && yy <= area.bottom()) svg.text(QRectF(0, yy - 7, area.left() - 4, 14), row.label, Qt::black);
    }
    for (double t : x->tickVector()) {
        double xx = x->coordToPixel(t);
        svg.line({xx, static_cast<double>(area.bottom())}, {xx, area.bottom() + 4.0}, Qt::black, false);
    }
    const QVector<double> ticks = x->tickVector();
    const QVector<QString> labels = x->tickVectorLabels();
    for (int i = 0; i < ticks.size() && i < labels.size(); ++i)
        svg.text(QRectF(x->coordToPixel(ticks[i]) - 2, area.bottom() + 4, 80, 14), labels[i], Qt::black);
    svg.text(QRectF(area.left(), area.bottom() + 20, 400, 14), x->label(), Qt::black);
    return svg.finish();
}

}  // namespace cs::gui
