#pragma once
// Expert load per layer and step: load ratio max/mean, capacity overflow and the
// busiest expert-parallel rank, computed in one pass over a block of counts
// without allocating (the stage 3 gate runs this over 10^5–10^6 blocks).
#include <cstdint>
#include <span>

namespace moewb::stats {

struct LoadBlockSummary {
    std::uint64_t total = 0; // token-expert assignments in the block (Σ counts)
    std::uint32_t maxCount = 0;
    // max / mean = max · E / total; NaN when total is 0.
    double loadRatio = 0.0;
};
LoadBlockSummary summarizeLoad(std::span<const std::uint32_t> tokensPerExpert);

// Per-expert capacity in token-expert assignments: ceil(factor · total / experts),
// where total = Σ counts = top-k · tokens (each token is counted once per expert
// it is routed to). Equals formats.md's factor × top-k × tokens / experts.
std::uint64_t expertCapacity(double capacityFactor, std::uint64_t totalAssignments, int experts);
// Σ_e max(0, count_e − capacity).
std::uint64_t overflowAssignments(std::span<const std::uint32_t> tokensPerExpert, std::uint64_t capacity);

// Experts placed contiguously over the EP ranks: expert e on rank e / (E / EP).
// Returns the largest rank load (Σ of its experts' counts). EP must divide E;
// otherwise ranks take ceil(E / EP) experts each (the last one fewer).
std::uint64_t busiestRankLoad(std::span<const std::uint32_t> tokensPerExpert, int expertParallel);

} // namespace moewb::stats
