#include "core/measure/comparison.h"
#include "core/measure/noise_band.h"

#include <algorithm>
#include <cmath>

namespace cs::measure {

double median(std::vector<std::int64_t> v) {
    if (v.empty()) return 0;
    size_t mid = v.size() / 2;
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
    double hi = static_cast<double>(v[mid]);
    if (v.size() % 2) return hi;
    double lo = static_cast<double>(*std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid)));
    return (lo + hi) / 2;
}

double medianAbsoluteDeviation(const std::vector<std::int64_t>& v) {
    if (v.empty()) return 0;
    double m = median(v);
    // Deviations are doubled to stay integral (a median may end in .5); halve the result.
    std::vector<std::int64_t> dev;
    dev.reserve(v.size());
    for (auto x : v) dev.push_back(static_cast<std::int64_t>(std::llround(std::fabs(2.0 * static_cast<double>(x) - 2.0 * m))));
    return median(dev) / 2;
}

const char* compareVerdictName(CompareVerdict v) {
    switch (v) {
    case CompareVerdict::Better: return "better";
    case CompareVerdict::Worse: return "worse";
    case CompareVerdict::Inconclusive: return "inconclusive";
    case CompareVerdict::OnlyBaseline: return "only in baseline";
    case CompareVerdict::OnlyCandidate: return "only in candidate";
    }
    return "?";
}

MetricComparison compareSamples(const std::string& metric, const std::vector<std::int64_t>& base,
                                const std::vector<std::int64_t>& cand) {
    MetricComparison c;
    c.metric = metric;
    c.baseSamples = base.size();
    c.candSamples = cand.size();
    c.baseMedian = median(base);
    c.candMedian = median(cand);
    c.baseMad = medianAbsoluteDeviation(base);
    c.delta = c.candMedian - c.baseMedian;
    c.band = noiseBand(c.baseMedian, c.baseMad);
    if (base.empty()) c.verdict = CompareVerdict::OnlyCandidate;
    else if (cand.empty()) c.verdict = CompareVerdict::OnlyBaseline;
    else if (std::fabs(c.delta) <= c.band) c.verdict = CompareVerdict::Inconclusive;
    else c.verdict = c.delta < 0 ? CompareVerdict::Better : CompareVerdict::Worse;
    return c;
}

std::vector<MetricComparison> compareAll(const std::map<std::string, std::vector<std::int64_t>>& base,
                                         const std::map<std::string, std::vector<std::int64_t>>& cand) {
    static const std::vector<std::int64_t> none;
    std::vector<MetricComparison> out;
    for (const auto& [metric, samples] : base) {
        auto it = cand.find(metric);
        out.push_back(compareSamples(metric, samples, it == cand.end() ? none : it->second));
    }
    for (const auto& [metric, samples] : cand)
        if (!base.count(metric)) out.push_back(compareSamples(metric, none, samples));
    std::stable_sort(out.begin(), out.end(), [](const MetricComparison& a, const MetricComparison& b) {
        return std::max(a.baseMedian, a.candMedian) > std::max(b.baseMedian, b.candMedian);
    });
    return out;
}

std::vector<std::string> topologyDifferences(const std::map<std::string, std::int64_t>& base,
                                             const std::map<std::string, std::int64_t>& cand, size_t maxLines) {
    std::vector<std::string> out;
    auto note = [&](const std::string& what, std::int64_t b, std::int64_t c) {
        if (out.size() < maxLines)
            out.push_back(what + ": " + std::to_string(b) + " launch(es) in baseline, " + std::to_string(c) +
                          " in candidate");
        else if (out.size() == maxLines)
            out.push_back("... more differences");
    };
    for (const auto& [k, n] : base) {
        auto it = cand.find(k);
        std::int64_t c = it == cand.end() ? 0 : it->second;
        if (c != n) note(k, n, c);
    }
    for (const auto& [k, n] : cand)
        if (!base.count(k)) note(k, 0, n);
    return out;
}

}  // namespace cs::measure
