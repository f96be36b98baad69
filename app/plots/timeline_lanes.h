// LanesPlottable: the QCustomPlot layer that draws TimelinePlot's lanes (timeline_paint.cpp) and
// keeps, per row, the items of about twice the visible window at one bucket width. Private to the
// timeline's sources in app/plots (it includes qcustomplot.h).
#pragma once

#include "plot_canvas.h"
#include "timeline_plot.h"

#include <qcustomplot.h>

#include <vector>

namespace cs::gui {

// Draws the lanes and keeps, per row, the items of ~2x the visible window at one bucket width.
class LanesPlottable : public QCPAbstractPlottable {
public:
    LanesPlottable(TimelinePlot* owner, QCPAxis* key, QCPAxis* value) : QCPAbstractPlottable(key, value), m_owner(owner) {
        // Axis-aligned boxes gain nothing from antialiasing, and it makes each one several times dearer.
        setAntialiased(false);
        setAntialiasedFill(false);
    }

    struct Cache {
        std::vector<engine::TimelineItem> items;
        std::vector<engine::MarkItem> marks;
        std::int64_t from = 0, to = -1, bucket = 0;
    };
    mutable std::vector<Cache> caches;  // one per TimelinePlot::Row
    mutable std::vector<std::vector<engine::MarkItem>> steps;  // per source, visible steps
    mutable std::size_t drawn = 0;
    mutable std::uint32_t categories = 0;  // bit c: category c was drawn by the last paint
    mutable bool marks = false;             // cache-lookup marks were drawn

    // Items of row `r` covering [t0, t1) at `bucket`, fetched anew only when the window leaves the cache.
    const Cache& fetch(std::size_t r, std::int64_t t0, std::int64_t t1, std::int64_t bucket) const {
        Cache& c = caches[r];
        if (c.bucket == bucket && c.from <= t0 && c.to >= t1) return c;
        const TimelinePlot::Row& row = m_owner->m_rows[r];
        const engine::TimelineData& data = *m_owner->m_sources[static_cast<std::size_t>(row.source)].data;
        std::int64_t w = (t1 - t0) / 2;  // half a view either side: small pans cost no query
        c.from = t0 - w;
        c.to = t1 + w;
        c.bucket = bucket;
        c.items.clear();
        c.marks.clear();
        if (row.lane >= 0) data.lanes[static_cast<std::size_t>(row.lane)].spans.query(c.from, c.to, bucket, c.items);
        else data.marks[static_cast<std::size_t>(row.marks)].lookups.query(c.from, c.to, bucket, c.marks);
        return c;
    }

    double selectTest(const QPointF&, bool, QVariant*) const override { return -1; }
    QCPRange getKeyRange(bool& found, QCP::SignDomain) const override {
        found = false;
        return {};
    }
    QCPRange getValueRange(bool& found, QCP::SignDomain, const QCPRange&) const override {
        found = false;
        return {};
    }

protected:
    void draw(QCPPainter* painter) override {
        PainterCanvas canvas(*painter);
        m_owner->paintContent(canvas);
    }
    void drawLegendIcon(QCPPainter*, const QRectF&) const override {}

private:
    TimelinePlot* m_owner;
};

}  // namespace cs::gui
