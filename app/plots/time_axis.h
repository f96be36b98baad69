// Time axis labels in adaptive units (ns, µs, ms, s), as Perfetto labels its ruler.
//
// Why not QCustomPlot's numbers: the axis counts seconds from the trace's first event, and
// "0.156272 0.156275" at a 14 µs window tells nobody anything. The unit follows the tick step, so a
// label never needs more than a few digits; when the window sits far from the origin (a 2 µs step at
// 156 ms), the first tick names the absolute time and the others the offset from it ("+2 µs"), so
// no label grows past what fits under its tick.
#pragma once

#include <QString>
#include <QVector>

namespace cs::gui {

// Labels for `ticks` (seconds from the origin) that lie `step` seconds apart.
QVector<QString> timeTickLabels(const QVector<double>& ticks, double step);

// A window width or a duration in seconds as text with its unit ("2.13 s", "14.0 µs").
QString secondsText(double seconds);

}  // namespace cs::gui
