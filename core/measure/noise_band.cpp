#include "core/measure/noise_band.h"

#include <algorithm>
#include <cmath>

namespace cs::measure {

double noiseBand(double baselineMedian, double baselineMad) { return std::max(0.01 * baselineMedian, 2.0 * baselineMad); }

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

std::pair<double, double> medianMad(std::vector<double> values) {
    if (values.empty()) return {0, 0};
    const double med = median(values);
    for (auto& v : values) v = std::fabs(v - med);
    return {med, median(values)};
}

}  // namespace cs::measure
