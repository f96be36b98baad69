#include "bar_chart.h"

#include "plot_canvas.h"

#include <qcustomplot.h>

#include <QLabel>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace cs::gui {

BarChart::BarChart(Qt::Orientation orientation, QWidget* parent)
    : QWidget(parent), m_orientation(orientation), m_plot(new QCustomPlot(this)), m_empty(new QLabel(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    layout->addWidget(m_empty, 1);
    m_empty->setWordWrap(true);
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_empty->hide();
    setMinimumHeight(160);
}

void BarChart::setBars(const QStringList& labels, const QVector<double>& values, const QVector<QColor>& colors,
                       const QString& valueAxisLabel) {
    m_labels = labels;
    m_values = values;
    m_colors = colors;
    m_series.clear();
    m_plot->legend->setVisible(false);
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
    finishAxes(ticker, valueAxisLabel, false);
}

// Key axis: one labelled tick per bar. Value axis: from 0 to a little above the tallest bar; for
// counts, ticks at whole numbers only.
void BarChart::finishAxes(const QSharedPointer<QCPAxisTickerText>& ticker, const QString& valueAxisLabel, bool counts) {
    const bool horizontal = m_orientation == Qt::Horizontal;
    QCPAxis* keyAxis = horizontal ? m_plot->yAxis : m_plot->xAxis;
    QCPAxis* valueAxis = horizontal ? m_plot->xAxis : m_plot->yAxis;
    keyAxis->setTicker(ticker);
    keyAxis->setRangeReversed(horizontal);
    keyAxis->setRange(-0.6, std::max<double>(1, m_values.size()) - 0.4);
    keyAxis->grid()->setVisible(false);
    keyAxis->setLabel(QString());
    const double hi = m_values.isEmpty() ? 1.0 : *std::max_element(m_values.begin(), m_values.end());
    if (counts) {
        auto whole = QSharedPointer<QCPAxisTickerFixed>(new QCPAxisTickerFixed);
        whole->setTickStep(1.0);
        whole->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);  // 1, 2, 5, 10... times a whole step
        valueAxis->setTicker(whole);
        valueAxis->setNumberFormat(QStringLiteral("f"));
        valueAxis->setNumberPrecision(0);
        valueAxis->setRange(0, std::max(1.0, std::ceil(hi * 1.1)));
    } else {
        valueAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
        valueAxis->setNumberFormat(QStringLiteral("gbd"));
        valueAxis->setNumberPrecision(6);
        valueAxis->setRange(0, hi > 0 ? hi * 1.1 : 1.0);
    }
    valueAxis->setLabel(valueAxisLabel);
    m_plot->replot();
    updateEmpty();
}

void BarChart::setEmptyText(const QString& text) {
    m_empty->setText(text);
    updateEmpty();
}

QString BarChart::shownEmptyText() const { return m_empty->isVisibleTo(this) ? m_empty->text() : QString(); }

void BarChart::updateEmpty() {
    const bool empty = !m_empty->text().isEmpty() && std::none_of(m_values.begin(), m_values.end(), [](double v) { return v > 0; });
    m_empty->setVisible(empty);
    m_plot->setVisible(!empty);
}

void BarChart::setStackedBars(const QStringList& labels, const QVector<Series>& series, const QString& valueAxisLabel,
                              bool counts) {
    m_labels = labels;
    m_series = series;
    m_values = QVector<double>(labels.size(), 0.0);
    m_colors.clear();
    for (const Series& s : series)
        for (int i = 0; i < labels.size(); ++i) m_values[i] += s.values.value(i);
    m_plot->clearPlottables();
    const bool horizontal = m_orientation == Qt::Horizontal;
    QCPAxis* keyAxis = horizontal ? m_plot->yAxis : m_plot->xAxis;
    QCPAxis* valueAxis = horizontal ? m_plot->xAxis : m_plot->yAxis;
    auto ticker = QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText);
    for (int i = 0; i < labels.size(); ++i) ticker->addTick(i, labels[i]);
    QCPBars* below = nullptr;
    for (const Series& s : series) {
        auto* bars = new QCPBars(keyAxis, valueAxis);
        bars->setName(s.name);
        bars->setWidth(0.7);
        bars->setBrush(s.color);
        bars->setPen(s.color.darker(130));
        // No zero-height parts: their outline would draw a line on top of the bar below.
        for (int i = 0; i < labels.size(); ++i)
            if (s.values.value(i) > 0) bars->addData(i, s.values.value(i));
        if (below) bars->moveAbove(below);
        below = bars;
    }
    m_plot->legend->setVisible(series.size() > 1);
    m_plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    finishAxes(ticker, valueAxisLabel, counts);
}

QStringList BarChart::valueTickLabels() const {
    const QCPAxis* valueAxis = m_orientation == Qt::Horizontal ? m_plot->xAxis : m_plot->yAxis;
    QStringList out;
    for (const QString& t : valueAxis->tickVectorLabels()) out << t;
    return out;
}

QString BarChart::toSvg() const {
    SvgCanvas svg(m_plot->width(), m_plot->height());
    bool horizontal = m_orientation == Qt::Horizontal;
    QCPAxis* keyAxis = horizontal ? m_plot->yAxis : m_plot->xAxis;
    QCPAxis* valueAxis = horizontal ? m_plot->xAxis : m_plot->yAxis;
    for (int i = 0; i < m_values.size(); ++i) {
        double k0 = keyAxis->coordToPixel(i - 0.35), k1 = keyAxis->coordToPixel(i + 0.35);
        double v0 = valueAxis->coordToPixel(0), v1 = valueAxis->coordToPixel(m_values[i]);
        // Stacked: each series' part of the bar in its colour, bottom first.
        double base = 0;
        for (const Series& s : m_series) {
            const double part = s.values.value(i);
            if (part <= 0) continue;
            const double p0 = valueAxis->coordToPixel(base), p1 = valueAxis->coordToPixel(base + part);
            base += part;
            svg.rect((horizontal ? QRectF(QPointF(p0, std::min(k0, k1)), QPointF(p1, std::max(k0, k1)))
                                 : QRectF(QPointF(std::min(k0, k1), p1), QPointF(std::max(k0, k1), p0)))
                         .normalized(),
                     s.color, s.color.darker(130));
        }
        QRectF r = horizontal ? QRectF(QPointF(v0, std::min(k0, k1)), QPointF(v1, std::max(k0, k1)))
                              : QRectF(QPointF(std::min(k0, k1), v1), QPointF(std::max(k0, k1), v0));
        if (m_series.isEmpty()) {
            QColor c = m_colors.value(i, QColor(0x3f, 0x7f, 0xbf));
            svg.rect(r.normalized(), c, c.darker(130));
        }
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
