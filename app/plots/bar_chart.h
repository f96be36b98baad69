// BarChart: labelled bars (compile time by category, misses per step), on QCustomPlot.
#pragma once

#include "exportable_plot.h"

#include <QColor>
#include <QSharedPointer>
#include <QStringList>
#include <QVector>
#include <QWidget>

class QCustomPlot;
class QCPBars;
class QCPAxisTickerText;
class QLabel;

namespace cs::gui {

class BarChart : public QWidget, public ExportablePlot {
    Q_OBJECT
public:
    // Horizontal: labels on the left, bars to the right (rankings). Vertical: labels below (series).
    BarChart(Qt::Orientation orientation, QWidget* parent = nullptr);
    void setBars(const QStringList& labels, const QVector<double>& values, const QVector<QColor>& colors,
                 const QString& valueAxisLabel);
    // Stacked bars, one colour per series, with a legend (first compiles below recompiles). With
    // `counts`, the value axis ticks only at whole numbers (no "0.5 misses").
    struct Series {
        QString name;
        QColor color;
        QVector<double> values;  // one per label
    };
    void setStackedBars(const QStringList& labels, const QVector<Series>& series, const QString& valueAxisLabel, bool counts);
    // The sentence shown in place of the chart while it has no bar above zero (what the trace lacks,
    // how to record it: app/widgets/how_to_record.h); "" draws the empty axes.
    void setEmptyText(const QString& text);
    // The sentence shown now; "" while the chart is drawn.
    QString shownEmptyText() const;
    // The value-axis tick labels as drawn now (for tests).
    QStringList valueTickLabels() const;
    int seriesCount() const { return static_cast<int>(m_series.size()); }
    double seriesValue(int series, int bar) const { return m_series.value(series).values.value(bar); }
    int barCount() const { return static_cast<int>(m_values.size()); }
    double value(int i) const { return m_values.value(i); }
    QString toSvg() const override;
    bool savePng(const QString& path) const override;

private:
    void finishAxes(const QSharedPointer<QCPAxisTickerText>& ticker, const QString& valueAxisLabel, bool counts);
    void updateEmpty();
    Qt::Orientation m_orientation;
    QCustomPlot* m_plot;
    QStringList m_labels;
    QVector<double> m_values;
    QVector<QColor> m_colors;
    QVector<Series> m_series;  // stacked bars: parts of m_values
    QLabel* m_empty;           // setEmptyText's sentence, shown instead of the plot
};

}  // namespace cs::gui
