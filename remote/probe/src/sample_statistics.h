// Summary statistics of timing samples.
// Percentiles use linear interpolation between closest ranks (numpy's default,
// Hyndman-Fan type 7): p at position (n-1)*q of the sorted samples.
// Standard deviation and variance are the sample (n-1) forms; 0 for a single sample.
#pragma once

#include <vector>

namespace moeprobe {

struct SampleSummary {
    double min = 0;
    double mean = 0;
    double median = 0;
    double p95 = 0;
    double p99 = 0;
    double max = 0;
    double stddev = 0;
    int count = 0;
};

// Mean, variance and coefficient of variation (stddev / mean) of a few values,
// e.g. per-repeat medians.
struct SpreadSummary {
    double mean = 0;
    double variance = 0;
    double cv = 0;
    int count = 0;
};

double percentile_linear(const std::vector<double>& sorted, double q);
SampleSummary summarize_samples(std::vector<double> samples);
SpreadSummary summarize_spread(const std::vector<double>& values);

} // namespace moeprobe
