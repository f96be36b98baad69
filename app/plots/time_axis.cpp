#include "time_axis.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace cs::gui {

namespace {
struct Unit {
    double perSecond;
    const char* name;
};
constexpr std::array<Unit, 4> kUnits = {{{1e9, "ns"}, {1e6, "µs"}, {1e3, "ms"}, {1, "s"}}};

// The largest unit in which `seconds` is at least 1 (ns for anything smaller). `slack` lets a value
// that rounds up to 1 (0.9996 ms shown with three digits) take the larger unit.
const Unit& unitFor(double seconds, double slack = 1e-9) {
    const double a = std::fabs(seconds) * (1 + slack);
    for (std::size_t i = kUnits.size(); i-- > 1;)
        if (a >= 1 / kUnits[i].perSecond) return kUnits[i];
    return kUnits[0];
}

// Decimals that show multiples of `step` (in `unit`) exactly: 0.25 ms -> 2.
int decimalsFor(double stepInUnit) {
    for (int d = 0; d < 6; ++d) {
        const double scaled = stepInUnit * std::pow(10.0, d);
        if (std::fabs(scaled - std::round(scaled)) < 1e-6 * std::max(1.0, scaled)) return d;
    }
    return 6;
}

QString inUnit(double seconds, const Unit& u, int decimals) {
    double v = seconds * u.perSecond;
    if (std::fabs(v) < 0.5 * std::pow(10.0, -decimals)) v = 0;  // no "-0"
    return QString::number(v, 'f', decimals) + QLatin1Char(' ') + QString::fromUtf8(u.name);
}
}  // namespace

QVector<QString> timeTickLabels(const QVector<double>& ticks, double step) {
    QVector<QString> out;
    out.reserve(ticks.size());
    if (ticks.isEmpty() || !(step > 0)) {
        for (double t : ticks) out.push_back(QString::number(t));
        return out;
    }
    const Unit& u = unitFor(step);
    const int decimals = decimalsFor(step * u.perSecond);
    double far = 0;
    for (double t : ticks) far = std::max(far, std::fabs(t));
    if (far / step <= 1e4) {
        for (double t : ticks) out.push_back(inUnit(t, u, decimals));
        return out;
    }
    // Far from the origin: the first tick absolute, at the step's resolution, the others relative.
    const Unit& big = unitFor(ticks.front());
    const int bigDecimals = decimals + static_cast<int>(std::lround(std::log10(u.perSecond / big.perSecond)));
    out.push_back(inUnit(ticks.front(), big, std::min(bigDecimals, 9)));
    for (int i = 1; i < ticks.size(); ++i)
        out.push_back(QLatin1Char('+') + inUnit(ticks[i] - ticks.front(), u, decimals));
    return out;
}

QString secondsText(double seconds) {
    // Three significant digits: decide on the value as it will be rounded (9.9999 ms is "10.0 ms").
    const Unit& u = unitFor(seconds, 5e-4);
    const double v = std::fabs(seconds) * u.perSecond;
    const int decimals = v >= 99.95 ? 0 : v >= 9.995 ? 1 : 2;
    return inUnit(seconds, u, u.perSecond == 1e9 ? 0 : decimals);
}

}  // namespace cs::gui
