#include "traffic_plan.h"

#include <algorithm>
#include <utility>

namespace moeprobe {

TrafficPlan::TrafficPlan(int world, std::vector<std::uint64_t> bytes, bool uniform)
    : world_(world), uniform_(uniform), bytes_(std::move(bytes)) {}

TrafficPlan TrafficPlan::for_groups(const TrafficPlan& group_plan, const EpLayout& layout) {
    if (layout.whole_world || layout.group_count() <= 1)
        return group_plan; // one group in rank order: the plan itself
    const auto n = static_cast<std::size_t>(layout.world);
    std::vector<std::uint64_t> bytes(n * n, 0);
    for (const std::vector<int>& g : layout.groups)
        for (std::size_t i = 0; i < g.size(); ++i)
            for (std::size_t j = 0; j < g.size(); ++j)
                bytes[static_cast<std::size_t>(g[i]) * n + static_cast<std::size_t>(g[j])] =
                    group_plan.bytes(static_cast<int>(i), static_cast<int>(j));
    return TrafficPlan(layout.world, std::move(bytes), group_plan.uniform());
}

std::uint64_t TrafficPlan::sent_by(int rank) const {
    std::uint64_t sum = 0;
    for (int d = 0; d < world_; ++d)
        sum += bytes(rank, d);
    return sum;
}

std::uint64_t TrafficPlan::received_by(int rank) const {
    std::uint64_t sum = 0;
    for (int s = 0; s < world_; ++s)
        sum += bytes(s, rank);
    return sum;
}

std::uint64_t TrafficPlan::max_sent() const {
    std::uint64_t m = 0;
    for (int r = 0; r < world_; ++r)
        m = std::max(m, sent_by(r));
    return m;
}

double TrafficPlan::mean_sent() const {
    if (world_ == 0)
        return 0.0;
    double sum = 0;
    for (int r = 0; r < world_; ++r)
        sum += static_cast<double>(sent_by(r));
    return sum / world_;
}

double TrafficPlan::mean_sent_off_rank() const {
    if (world_ == 0)
        return 0.0;
    double sum = 0;
    for (int r = 0; r < world_; ++r)
        sum += static_cast<double>(sent_off_rank(r));
    return sum / world_;
}

int TrafficPlan::busiest_rank() const {
    int best = 0;
    std::uint64_t best_bytes = 0;
    for (int r = 0; r < world_; ++r) {
        const std::uint64_t b = std::max(sent_off_rank(r), received_off_rank(r));
        if (b > best_bytes) {
            best = r;
            best_bytes = b;
        }
    }
    return best;
}

std::uint64_t TrafficPlan::busiest_rank_bytes() const {
    if (world_ == 0)
        return 0;
    const int r = busiest_rank();
    return std::max(sent_off_rank(r), received_off_rank(r));
}

std::uint64_t TrafficPlan::send_offset(int src, int dst) const {
    std::uint64_t off = 0;
    for (int d = 0; d < dst; ++d)
        off += bytes(src, d);
    return off;
}

std::uint64_t TrafficPlan::recv_offset(int dst, int src) const {
    std::uint64_t off = 0;
    for (int s = 0; s < src; ++s)
        off += bytes(s, dst);
    return off;
}

} // namespace moeprobe
