// Baseline-vs-candidate comparison of duration samples, with the noise band of noise_band.h.
//
// Why this rule: the Warp guide's (docs/warp.md) `compare` "treats a result inside max(1% of baseline, 2 x baseline MAD)
// as inconclusive" and "rejects changed launch topology": a single fast sample proves nothing, and a
// run that launched different kernels is a different workload. Medians and the median absolute
// deviation are robust to the one slow outlier every cold run has.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cs::measure {

double median(std::vector<std::int64_t> v);
double medianAbsoluteDeviation(const std::vector<std::int64_t>& v);

enum class CompareVerdict { Better, Worse, Inconclusive, OnlyBaseline, OnlyCandidate };
const char* compareVerdictName(CompareVerdict v);

struct MetricComparison {
    std::string metric;
    size_t baseSamples = 0, candSamples = 0;
    double baseMedian = 0, candMedian = 0, baseMad = 0;
    double delta = 0;      // candidate - baseline, ns
    double band = 0;       // max(1% of baseline, 2 x baseline MAD), ns
    CompareVerdict verdict = CompareVerdict::Inconclusive;
};

MetricComparison compareSamples(const std::string& metric, const std::vector<std::int64_t>& base,
                                const std::vector<std::int64_t>& cand);

// Every metric of either side, largest baseline median first.
std::vector<MetricComparison> compareAll(const std::map<std::string, std::vector<std::int64_t>>& base,
                                         const std::map<std::string, std::vector<std::int64_t>>& cand);

// Launch topology (kernel, grid, block -> launches): the differences, empty when equal.
std::vector<std::string> topologyDifferences(const std::map<std::string, std::int64_t>& base,
                                             const std::map<std::string, std::int64_t>& cand, size_t maxLines = 20);

}  // namespace cs::measure
