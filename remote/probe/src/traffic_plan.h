// Who sends how many bytes to whom in one all-to-all: a world x world byte matrix.
#pragma once

#include "ep_layout.h"

#include <cstdint>
#include <vector>

namespace moeprobe {

class TrafficPlan {
public:
    TrafficPlan() = default;
    TrafficPlan(int world, std::vector<std::uint64_t> bytes, bool uniform);
    // The world's plan when every EP group runs group_plan (ep x ep, indexed by the
    // position in the group) at once: block-diagonal in the layout's ranks, 0 bytes
    // between groups. uniform() then means uniform within each group.
    static TrafficPlan for_groups(const TrafficPlan& group_plan, const EpLayout& layout);

    int world() const { return world_; }
    bool uniform() const { return uniform_; } // every pair (of a group) carries the same bytes
    std::uint64_t bytes(int src, int dst) const { return bytes_[index(src, dst)]; }

    std::uint64_t sent_by(int rank) const;     // row sum, the rank's own chunk included
    std::uint64_t received_by(int rank) const; // column sum
    std::uint64_t sent_off_rank(int rank) const { return sent_by(rank) - bytes(rank, rank); }
    std::uint64_t received_off_rank(int rank) const { return received_by(rank) - bytes(rank, rank); }
    std::uint64_t max_sent() const;
    double mean_sent() const;
    double mean_sent_off_rank() const;

    // The rank moving the most bytes over the network (max of off-rank sent and received);
    // ties go to the lowest rank.
    int busiest_rank() const;
    std::uint64_t busiest_rank_bytes() const;

    // Offsets of a pair's chunk inside the sender's and the receiver's contiguous buffers.
    std::uint64_t send_offset(int src, int dst) const;
    std::uint64_t recv_offset(int dst, int src) const;

private:
    std::size_t index(int src, int dst) const {
        return static_cast<std::size_t>(src) * static_cast<std::size_t>(world_) +
               static_cast<std::size_t>(dst);
    }
    int world_ = 0;
    bool uniform_ = true;
    std::vector<std::uint64_t> bytes_;
};

} // namespace moeprobe
