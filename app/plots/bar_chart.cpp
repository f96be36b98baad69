#include "bar_chart.h"

#include "plot_canvas.h"

#include <qcustomplot.h>

#include <QVBoxLayout>

#include <algorithm>

namespace cs::gui {

BarChart::BarChart(Qt::Orientation orientation, QWidget* parent)
    : QWidget(parent), m_orientation(orientation), m_plot(new QCustomPlot(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    setMinimumHeight(160);
}

void BarChart::setBars(const QStringList& labels, const QVector<double>& values, const QVector<QColor>& colors,
                       const QString& valueAxisLabel) {
    m_labels = labels;
    m_values = values;
    m_colors = colors;
    m_plot->clearPlottables();
    bool horizontal = m_orientation == Qt::Horizontal;
    QCPAxis* keyAxis = horizontal ? m_plot->yAxis : m_plot->xAxis;
    QCPAxis* valueAxis = horizontal ? m_plot->xAxis : m_plot->yAxis;
    auto ticker = QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText);
    // One QCPBars per bar so each keeps its own colour.
    for (int i = 0; i < values.size(); ++i) {
        auto* bars = new QCPBars(keyAxis, valueAxis);
        bars->setWidth(0.7);
        QColor c = colors.value(i, QColor(0x3f, 0x7f, 0xbf));
        bars->setBrush(c);
        bars->setPen(c.darker(130));
        bars->addData(i, values[i]);
        ticker->addTick(i, labels.value(i));
    }
    keyAxis->setTicker(ticker);
    keyAxis->setRangeReversed(horizontal);
    keyAxis->setRange(-0.6, std::max<double>(1, values.size()) - 0.4);
    keyAxis->grid()->setVisible(false);
    double hi = values.isEmpty() ? 1.0 : *std::max_element(values.begin(), values.end());
    valueAxis->setRange(0, hi > 0 ? hi * 1.1 : 1.0);
    valueAxis->setLabel(valueAxisLabel);
    keyAxis->setLabel(QString());
    m_plot->replot();
}

QString BarChart::toSvg() const {
    SvgCanvas svg(m_plot->width(), m_plot->height());
    bool horizontal = m_orientation == Qt::Horizontal;
    QCPAxis* keyAxis = horizontal ? m_plot->yAxis : m_plot->xAxis;
    QCPAxis* valueAxis = horizontal ? m_plot->xAxis : m_plot->yAxis;
    for (int i = 0; i < m_values.size(); ++i) {
        double k0 = keyAxis->coordToPixel(i - 0.35), k1 = keyAxis->coordToPixel(i + 0.35);
        double v0 = valueAxis->coordToPixel(0), v1 = valueAxis->coordToPixel(m_values[i]);
        QRectF r = horizontal ? QRectF(QPointF(v0, std::min(k0, k1)), QPointF(v1, std::max(k0, k1)))
                              : QRectF(QPointF(std::min(k0, k1), v1), QPointF(std::max(k0, k1), v0));
        QColor c = m_colors.value(i, QColor(0x3f, 0x7f, 0xbf));
        svg.rect(r.normalized(), c, c.darker(130));
        QRectF label = horizontal ? QRectF(0, r.top(), v0 - 4, r.height()) : QRectF(r.left() - 10, v0 + 2, r.width() + 20, 14);
        svg.text(label, m_labels.value(i), Qt::black);
        svg.text(horizontal ? QRectF(r.right() + 4, r.top(), 90, r.height()) : QRectF(r.left(), r.top() - 14, 90, 14),
                 QString::number(m_values[i], 'g', 4), Qt::black);
    }
    svg.text(QRectF(valueAxis->axisRect()->left(), m_plot->height() - 16, 400, 14), valueAxis->label(), Qt::black);
    return svg.finish();
}

bool BarChart::savePng(const QString& path) const { return m_plot->savePng(path); }

}  // namespace cs::gui
