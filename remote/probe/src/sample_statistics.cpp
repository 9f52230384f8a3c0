#include "sample_statistics.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace moeprobe {

double percentile_linear(const std::vector<double>& sorted, double q) {
    if (sorted.empty())
        return 0.0;
    const double pos = q * static_cast<double>(sorted.size() - 1);
    const auto lo = static_cast<std::size_t>(std::floor(pos));
    const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
    const double frac = pos - static_cast<double>(lo);
    return sorted[lo] + (sorted[hi] - sorted[lo]) * frac;
}

namespace {
double sample_variance(const std::vector<double>& v, double mean) {
    if (v.size() < 2)
        return 0.0;
    double ss = 0;
    for (double x : v)
        ss += (x - mean) * (x - mean);
    return ss / static_cast<double>(v.size() - 1);
}
} // namespace

SampleSummary summarize_samples(std::vector<double> samples) {
    SampleSummary s;
    if (samples.empty())
        return s;
    std::sort(samples.begin(), samples.end());
    s.count = static_cast<int>(samples.size());
    s.min = samples.front();
    s.max = samples.back();
    s.mean = std::accumulate(samples.begin(), samples.end(), 0.0) / static_cast<double>(samples.size());
    s.median = percentile_linear(samples, 0.5);
    s.p95 = percentile_linear(samples, 0.95);
    s.p99 = percentile_linear(samples, 0.99);
    s.stddev = std::sqrt(sample_variance(samples, s.mean));
    return s;
}

SpreadSummary summarize_spread(const std::vector<double>& values) {
    SpreadSummary s;
    if (values.empty())
        return s;
    s.count = static_cast<int>(values.size());
    s.mean = std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
    s.variance = sample_variance(values, s.mean);
    s.cv = s.mean != 0 ? std::sqrt(s.variance) / s.mean : 0.0;
    return s;
}

} // namespace moeprobe
