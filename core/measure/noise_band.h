// The noise band every comparison uses: a change inside max(1 % of the baseline median, 2 x the
// baseline's median absolute deviation) is not a measured change.
//
// Why this rule (docs/warp.md, Measurement and comparison): 1 % alone is meaningless for small or
// noisy baselines, 2 x MAD alone for perfectly repeatable ones; the larger of the two is what a
// change must beat. Medians and
// the MAD are robust to the one slow outlier every cold run has. `compare`, `measure` and the
// report's comparison all call these functions; nothing else computes a band.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace cs::measure {

double noiseBand(double baselineMedian, double baselineMad);

double median(std::vector<double> v);
// {median, median absolute deviation}; {0, 0} for no samples.
std::pair<double, double> medianMad(std::vector<double> values);

}  // namespace cs::measure
