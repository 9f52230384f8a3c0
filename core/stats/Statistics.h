#pragma once
// Descriptive statistics shared by the stage gates and the probe's conventions
// (docs/probe-json.md): percentiles by linear interpolation between closest ranks
// (numpy's default, Hyndman–Fan type 7), sample variance (divide by n−1; 0 for one
// value), coefficient of variation = sample stddev / mean.
#include <span>
#include <vector>

namespace moewb::stats {

// Arithmetic mean; NaN for no values.
double mean(std::span<const double> values);
// Sample variance (n−1); 0 for a single value, NaN for none.
double sampleVariance(std::span<const double> values);
double sampleStdDev(std::span<const double> values);
// sampleStdDev / mean; 0 for a single value; NaN for none or a zero mean.
double coefficientOfVariation(std::span<const double> values);

// p in [0, 100]. `sorted` must be in ascending order. NaN for no values.
double percentileOfSorted(std::span<const double> sorted, double p);
// Sorts a copy; use percentileOfSorted for several percentiles of one set.
double percentile(std::span<const double> values, double p);
double median(std::span<const double> values);

// Summary of one set, sorted once.
struct Summary {
    int count = 0;
    double mean = 0.0;
    double median = 0.0;
    double p99 = 0.0;
    double min = 0.0;
    double max = 0.0;
};
Summary summarize(std::vector<double> values); // by value: sorted in place

} // namespace moewb::stats
