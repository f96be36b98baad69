// BarChart: labelled bars (compile time by category, misses per step), on QCustomPlot.
#pragma once

#include "exportable_plot.h"

#include <QColor>
#include <QStringList>
#include <QVector>
#include <QWidget>

class QCustomPlot;
class QCPBars;

namespace cs::gui {

class BarChart : public QWidget, public ExportablePlot {
    Q_OBJECT
public:
    // Horizontal: labels on the left, bars to the right (rankings). Vertical: labels below (series).
    BarChart(Qt::Orientation orientation, QWidget* parent = nullptr);
    void setBars(const QStringList& labels, const QVector<double>& values, const QVector<QColor>& colors,
                 const QString& valueAxisLabel);
    int barCount() const { return static_cast<int>(m_values.size()); }
    double value(int i) const { return m_values.value(i); }
    QString toSvg() const override;
    bool savePng(const QString& path) const override;

private:
    Qt::Orientation m_orientation;
    QCustomPlot* m_plot;
    QStringList m_labels;
    QVector<double> m_values;
    QVector<QColor> m_colors;
};

}  // namespace cs::gui
