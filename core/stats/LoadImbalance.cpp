#include "stats/LoadImbalance.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace moewb::stats {

LoadBlockSummary summarizeLoad(std::span<const std::uint32_t> counts) {
    LoadBlockSummary s;
    std::uint32_t mx = 0;
    std::uint64_t total = 0;
    for (std::uint32_t c : counts) {
        total += c;
        mx = std::max(mx, c);
    }
    s.total = total;
    s.maxCount = mx;
    s.loadRatio = total == 0 ? std::numeric_limits<double>::quiet_NaN()
                             : double(mx) * double(counts.size()) / double(total);
    return s;
}

std::uint64_t expertCapacity(double capacityFactor, std::uint64_t totalAssignments, int experts) {
    if (experts <= 0 || !(capacityFactor > 0.0))
        return 0;
    // A tiny tolerance keeps exact products (1.25 × 64 / 8 = 10) from rounding up.
    const double c = capacityFactor * double(totalAssignments) / double(experts);
    return static_cast<std::uint64_t>(std::ceil(c - 1e-9 * std::max(1.0, c)));
}

std::uint64_t overflowAssignments(std::span<const std::uint32_t> counts, std::uint64_t capacity) {
    std::uint64_t over = 0;
    for (std::uint32_t c : counts)
        over += c > capacity ? c - capacity : 0;
    return over;
}

std::uint64_t busiestRankLoad(std::span<const std::uint32_t> counts, int expertParallel) {
    const std::size_t e = counts.size();
    if (e == 0)
        return 0;
    const std::size_t ep = std::clamp<std::size_t>(std::size_t(std::max(expertParallel, 1)), 1, e);
    const std::size_t perRank = (e + ep - 1) / ep;
    std::uint64_t best = 0;
    for (std::size_t start = 0; start < e; start += perRank) {
        const std::size_t end = std::min(e, start + perRank);
        std::uint64_t load = 0;
        for (std::size_t i = start; i < end; ++i)
            load += counts[i];
        best = std::max(best, load);
    }
    return best;
}

} // namespace moewb::stats
