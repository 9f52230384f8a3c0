#include "stats/Statistics.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace moewb::stats {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
}

double mean(std::span<const double> values) {
    if (values.empty())
        return kNaN;
    double sum = 0.0;
    for (double v : values)
        sum += v;
    return sum / double(values.size());
}

double sampleVariance(std::span<const double> values) {
    if (values.empty())
        return kNaN;
    if (values.size() == 1)
        return 0.0;
    const double m = mean(values);
    double sq = 0.0;
    for (double v : values)
        sq += (v - m) * (v - m);
    return sq / double(values.size() - 1);
}

double sampleStdDev(std::span<const double> values) {
    return std::sqrt(sampleVariance(values));
}

double coefficientOfVariation(std::span<const double> values) {
    if (values.empty())
        return kNaN;
    if (values.size() == 1)
        return 0.0;
    const double m = mean(values);
    if (m == 0.0)
        return kNaN;
    return sampleStdDev(values) / m;
}

double percentileOfSorted(std::span<const double> sorted, double p) {
    if (sorted.empty())
        return kNaN;
    // numpy "linear": h = (n−1)·p/100, interpolate between floor(h) and floor(h)+1.
    const double h = double(sorted.size() - 1) * std::clamp(p, 0.0, 100.0) / 100.0;
    const auto lo = static_cast<std::size_t>(std::floor(h));
    const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
    const double frac = h - double(lo);
    return sorted[lo] + frac * (sorted[hi] - sorted[lo]);
}

double percentile(std::span<const double> values, double p) {
    std::vector<double> copy(values.begin(), values.end());
    std::sort(copy.begin(), copy.end());
    return percentileOfSorted(copy, p);
}

double median(std::span<const double> values) {
    return percentile(values, 50.0);
}

Summary summarize(std::vector<double> values) {
    Summary s;
    s.count = int(values.size());
    if (values.empty()) {
        s.mean = s.median = s.p99 = s.min = s.max = kNaN;
        return s;
    }
    std::sort(values.begin(), values.end());
    s.mean = mean(values);
    s.median = percentileOfSorted(values, 50.0);
    s.p99 = percentileOfSorted(values, 99.0);
    s.min = values.front();
    s.max = values.back();
    return s;
}

} // namespace moewb::stats
