// Traffic patterns: how a rank's bytes are split across destinations. MoE dispatch is
// an uneven all-to-all, so besides the uniform split there are hot destinations
// (popular experts), a Zipf law and a per-pair matrix taken from real expert loads.
#pragma once

#include "traffic_plan.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace moeprobe {

class TrafficPattern {
public:
    virtual ~TrafficPattern() = default;
    virtual std::string spec() const = 0;
    // The plan for one sweep size: each rank sends bytes_per_rank in total (the matrix
    // pattern scales its rows so that the mean row sum is bytes_per_rank).
    virtual TrafficPlan plan(int world, std::uint64_t bytes_per_rank) const = 0;
    // The size to run when the command line gives none (-b/-e absent); 0: use the defaults.
    virtual std::uint64_t natural_bytes_per_rank() const { return 0; }
};

// Every destination gets bytes_per_rank / world (rounded down, as nccl-tests does).
class UniformPattern : public TrafficPattern {
public:
    std::string spec() const override { return "uniform"; }
    TrafficPlan plan(int world, std::uint64_t bytes_per_rank) const override;
};

// Destinations 0..K-1 each get F times the bytes of any other destination.
class HotDestinationsPattern : public TrafficPattern {
public:
    HotDestinationsPattern(int hot_count, double factor) : hot_count_(hot_count), factor_(factor) {}
    std::string spec() const override;
    TrafficPlan plan(int world, std::uint64_t bytes_per_rank) const override;

private:
    int hot_count_;
    double factor_;
};

// Destination d gets a share proportional to 1 / (d + 1)^S.
class ZipfPattern : public TrafficPattern {
public:
    explicit ZipfPattern(double exponent) : exponent_(exponent) {}
    std::string spec() const override;
    TrafficPlan plan(int world, std::uint64_t bytes_per_rank) const override;

private:
    double exponent_;
};

// Per-pair bytes read from a text file: one row per source rank, whitespace or comma
// separated, '#' starts a comment; K/M/G suffixes allowed.
class MatrixPattern : public TrafficPattern {
public:
    MatrixPattern(std::string path, int rows, std::vector<std::uint64_t> bytes);
    static std::unique_ptr<MatrixPattern> load(const std::string& path);
    std::string spec() const override { return "matrix:" + path_; }
    TrafficPlan plan(int world, std::uint64_t bytes_per_rank) const override;
    std::uint64_t natural_bytes_per_rank() const override;

private:
    std::string path_;
    int rows_;
    std::vector<std::uint64_t> bytes_;
};

// "uniform", "hot:K:F", "zipf:S", "matrix:FILE". Throws UsageError.
std::unique_ptr<TrafficPattern> make_traffic_pattern(const std::string& spec);

// Splits total bytes by weights, rounding so the parts add up exactly (largest remainder).
std::vector<std::uint64_t> split_by_weights(std::uint64_t total, const std::vector<double>& weights);

} // namespace moeprobe
