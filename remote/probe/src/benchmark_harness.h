// The measuring harness, written once for every backend: the size sweep, warm-up,
// timed iterations and repeats, the per-iteration times gathered to rank 0 (per EP
// group the max over its ranks, then the max over groups), statistics, bandwidths and
// the optional validation.
#pragma once

#include "alltoall_backend.h"
#include "ep_layout.h"
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

// One EP group's figures at one size: its per-iteration time is the max over its ranks.
struct GroupResult {
    SampleSummary time_us;      // every timed iteration of every repeat
    BandwidthFigures bandwidth; // from the median time above, n = the group's size
    std::vector<RepeatResult> repeats;
    SpreadSummary median_time_spread;
};

struct SizeResult {
    std::uint64_t requested_bytes_per_rank = 0; // the sweep size
    double bytes_per_rank = 0;                  // mean bytes a rank sends (own chunk included)
    TrafficPlan plan;       // the world's plan (block-diagonal with EP groups)
    TrafficPlan group_plan; // one group's plan (ep x ep); the world's plan without --ep-size
    int iterations = 0;
    // The figures below are the max over groups: per iteration, the slowest group's time
    // (= the max over all ranks), what gates a training step.
    SampleSummary time_us;      // every timed iteration of every repeat
    BandwidthFigures bandwidth; // from the median time above, n = the group's size
    std::vector<RepeatResult> repeats;
    SpreadSummary median_time_spread; // across repeats, of each repeat's median time (us)
    SpreadSummary algbw_spread;
    SpreadSummary busbw_spread;
    SpreadSummary effective_spread;
    std::int64_t wrong_bytes = -1; // -1: not validated
    std::vector<GroupResult> groups; // per EP group, in the layout's order (one without --ep-size)
    int slowest_group = 0;           // the group with the largest median time
};

// n = plan.world(): pass the group's plan.
BandwidthFigures bandwidth_for(const TrafficPlan& plan, double seconds);

// Byte k of the chunk src sends to dst in a validation run.
unsigned char check_byte(int src, int dst, std::uint64_t k);

class BenchmarkHarness {
public:
    BenchmarkHarness(const ProbeOptions& options, const TrafficPattern& pattern, AllToAllBackend& backend,
                     ControlPlane& control, const EpLayout& layout);

    // Runs the sweep. Results are complete on rank 0 only; on_result is called there
    // after each size, so the table can be printed as the sweep goes.
    std::vector<SizeResult> run(const std::vector<std::uint64_t>& sizes,
                                const std::function<void(const SizeResult&)>& on_result);

private:
    // Gathers every rank's times to rank 0: [logical rank][iteration] there, empty elsewhere.
    std::vector<std::vector<double>> gather_times(const std::vector<std::vector<double>>& local_seconds);
    std::int64_t validate(const TrafficPlan& plan);

    const ProbeOptions& options_;
    const TrafficPattern& pattern_;
    AllToAllBackend& backend_;
    ControlPlane& control_;
    const EpLayout& layout_;
};

} // namespace moeprobe
