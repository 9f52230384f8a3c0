// The measuring harness, written once for every backend: the size sweep, warm-up,
// timed iterations and repeats, the per-iteration max over ranks gathered to rank 0,
// statistics, bandwidths and the optional validation.
#pragma once

#include "alltoall_backend.h"
#include "sample_statistics.h"
#include "traffic_pattern.h"
#include "traffic_plan.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace moeprobe {

class ControlPlane;
struct ProbeOptions;

// Bandwidth figures in GB/s (10^9 bytes per second, as nccl-tests).
struct BandwidthFigures {
    double algbw_gbps = 0;        // bytes sent per rank / time
    double busbw_gbps = 0;        // algbw * (n-1)/n, nccl-tests' alltoall bus bandwidth
    double effective_gbps = 0;    // bytes a rank sends to other ranks (mean) / time
    double busiest_rank_gbps = 0; // busiest rank's off-rank bytes / time
};

struct RepeatResult {
    std::vector<double> samples_us; // per timed iteration, the max over ranks, in order
    SampleSummary time_us;
    BandwidthFigures bandwidth;
};

struct SizeResult {
    std::uint64_t requested_bytes_per_rank = 0; // the sweep size
    double bytes_per_rank = 0;                  // mean bytes a rank sends (own chunk included)
    TrafficPlan plan;
    int iterations = 0;
    SampleSummary time_us;      // every timed iteration of every repeat
    BandwidthFigures bandwidth; // from the median time above
    std::vector<RepeatResult> repeats;
    SpreadSummary median_time_spread; // across repeats, of each repeat's median time (us)
    SpreadSummary algbw_spread;
    SpreadSummary busbw_spread;
    SpreadSummary effective_spread;
    std::int64_t wrong_bytes = -1; // -1: not validated
};

BandwidthFigures bandwidth_for(const TrafficPlan& plan, double seconds);

// Byte k of the chunk src sends to dst in a validation run.
unsigned char check_byte(int src, int dst, std::uint64_t k);

class BenchmarkHarness {
public:
    BenchmarkHarness(const ProbeOptions& options, const TrafficPattern& pattern, AllToAllBackend& backend,
                     ControlPlane& control, int logical_world);

    // Runs the sweep. Results are complete on rank 0 only; on_result is called there
    // after each size, so the table can be printed as the sweep goes.
    std::vector<SizeResult> run(const std::vector<std::uint64_t>& sizes,
                                const std::function<void(const SizeResult&)>& on_result);

private:
    std::vector<double> max_over_ranks(const std::vector<double>& local_seconds);
    std::int64_t validate(const TrafficPlan& plan);

    const ProbeOptions& options_;
    const TrafficPattern& pattern_;
    AllToAllBackend& backend_;
    ControlPlane& control_;
    int logical_world_;
};

} // namespace moeprobe
