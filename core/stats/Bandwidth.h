#pragma once
// Bandwidth arithmetic for all-to-all, as nccl-tests and moe-probe count it
// (docs/probe-json.md). Bandwidths are bytes per second; format them with
// units::formatBandwidth (GB/s = 10^9 bytes/s).
namespace moewb::stats {

// nccl-tests' algbw: bytes each rank sends (own chunk included) / time.
double algorithmBandwidth(double bytesPerRank, double timeUs);
// Effective bandwidth for uniform traffic: the bytes a rank sends to OTHER ranks,
// bytes_per_rank · (n−1)/n, over the time (equals nccl-tests' alltoall busbw).
// NaN when world < 1.
double effectiveBandwidthUniform(double bytesPerRank, int world, double timeUs);

} // namespace moewb::stats
