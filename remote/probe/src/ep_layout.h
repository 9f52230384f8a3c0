// Expert-parallel (EP) groups laid out as Megatron-Core lays them out
// (megatron/core/parallel_state.py, RankGenerator; the main tree's twin is
// core/record/RankGrid): a global rank is a mixed-radix number whose digits are the
// parallel coordinates in the order string, the FIRST name varying fastest. The
// expert grid is tp (expert tensor-parallel size), cp = 1, ep, dp = world/(tp·ep·pp),
// pp; the EP group of a rank is every rank that shares its tp, dp and pp coordinates.
#pragma once

#include <string>
#include <vector>

namespace moeprobe {

struct EpLayout {
    int world = 1; // ranks of the layout (processes x -g)
    int tp = 1;
    int ep = 1; // ranks per group
    int dp = 1;
    int pp = 1;
    std::string order = "tp-cp-ep-dp-pp";
    bool whole_world = true;                  // no --ep-size: one group, the world, in rank order
    std::vector<std::vector<int>> groups;     // ranks of each group, ascending; groups by lowest rank
    std::vector<int> group_of;                // rank -> index into groups
    std::vector<int> index_in_group;          // rank -> its position in its group (its ep coordinate)

    int group_count() const { return static_cast<int>(groups.size()); }
    // Compact text all ranks compare at the rendezvous, e.g. "ep=2 tp=1 pp=1 order=tp-cp-ep-dp-pp".
    std::string signature() const;
};

// Empty when order is '-'-joined distinct names out of tp, cp, ep, dp, pp; else why not.
std::string ep_order_problem(const std::string& order);

// One group holding every rank (what the probe measures without --ep-size).
EpLayout whole_world_ep_layout(int world);

// The expert grid's EP groups. Throws UsageError when ep, tp or pp is < 1, tp·ep·pp
// does not divide world, or the order is bad or leaves out a name of size > 1.
EpLayout make_ep_layout(int world, int ep, int tp, int pp, const std::string& order);

} // namespace moeprobe
