#include "ep_layout.h"

#include "probe_errors.h"

#include <array>
#include <map>

namespace moeprobe {
namespace {

const std::array<const char*, 5> kAxisNames{"tp", "cp", "ep", "dp", "pp"};
enum Axis { Tp = 0, Cp = 1, Ep = 2, Dp = 3, Pp = 4 };

int axis_of(const std::string& name) {
    for (int i = 0; i < 5; ++i)
        if (name == kAxisNames[static_cast<std::size_t>(i)])
            return i;
    return -1;
}

std::vector<std::string> split_order(const std::string& order) {
    std::vector<std::string> names;
    std::size_t start = 0;
    while (true) {
        const auto dash = order.find('-', start);
        names.push_back(order.substr(start, dash == std::string::npos ? std::string::npos : dash - start));
        if (dash == std::string::npos)
            return names;
        start = dash + 1;
    }
}

} // namespace

std::string EpLayout::signature() const {
    if (whole_world)
        return "world";
    return "ep=" + std::to_string(ep) + " tp=" + std::to_string(tp) + " pp=" + std::to_string(pp) +
           " order=" + order;
}

std::string ep_order_problem(const std::string& order) {
    std::array<bool, 5> seen{};
    for (const std::string& n : split_order(order)) {
        const int a = axis_of(n);
        if (a < 0)
            return "must be names out of tp, cp, ep, dp, pp joined by '-' (e.g. tp-cp-ep-dp-pp), not '" + order +
                   "'";
        if (seen[static_cast<std::size_t>(a)])
            return "names " + n + " twice in '" + order + "'";
        seen[static_cast<std::size_t>(a)] = true;
    }
    return {};
}

EpLayout whole_world_ep_layout(int world) {
    EpLayout l;
    l.world = world;
    l.ep = world;
    l.whole_world = true;
    l.groups.assign(1, {});
    for (int r = 0; r < world; ++r) {
        l.groups[0].push_back(r);
        l.group_of.push_back(0);
        l.index_in_group.push_back(r);
    }
    return l;
}

EpLayout make_ep_layout(int world, int ep, int tp, int pp, const std::string& order) {
    if (const std::string problem = ep_order_problem(order); !problem.empty())
        throw UsageError("--ep-order " + problem);
    if (ep < 1 || tp < 1 || pp < 1)
        throw UsageError("--ep-size, --tp and --pp must be at least 1");
    const long long cell = static_cast<long long>(tp) * ep * pp;
    if (world % cell != 0)
        throw UsageError("--ep-size " + std::to_string(ep) + " x --tp " + std::to_string(tp) + " x --pp " +
                         std::to_string(pp) + " = " + std::to_string(cell) + " does not divide the " +
                         std::to_string(world) + " ranks (processes x -g)");
    EpLayout l;
    l.world = world;
    l.tp = tp;
    l.ep = ep;
    l.pp = pp;
    l.dp = static_cast<int>(world / cell);
    l.order = order;
    l.whole_world = false;
    const std::array<int, 5> sizes{tp, 1, ep, l.dp, pp};

    // The digit order: the names given, then those left out (which must have size 1),
    // as RankGenerator appends them.
    std::vector<int> digits;
    std::array<bool, 5> used{};
    for (const std::string& n : split_order(order)) {
        digits.push_back(axis_of(n));
        used[static_cast<std::size_t>(axis_of(n))] = true;
    }
    for (int a = 0; a < 5; ++a) {
        if (used[static_cast<std::size_t>(a)])
            continue;
        if (sizes[static_cast<std::size_t>(a)] != 1)
            throw UsageError("--ep-order '" + order + "' leaves out " + kAxisNames[static_cast<std::size_t>(a)] +
                             ", whose size is " + std::to_string(sizes[static_cast<std::size_t>(a)]) +
                             " (only names of size 1 may be left out)");
        digits.push_back(a);
    }

    // Coordinates of every rank; the group key is every coordinate but ep's.
    std::map<std::array<int, 5>, int> group_by_key;
    l.group_of.assign(static_cast<std::size_t>(world), 0);
    l.index_in_group.assign(static_cast<std::size_t>(world), 0);
    for (int rank = 0; rank < world; ++rank) {
        std::array<int, 5> coord{};
        int rest = rank;
        for (int a : digits) {
            coord[static_cast<std::size_t>(a)] = rest % sizes[static_cast<std::size_t>(a)];
            rest /= sizes[static_cast<std::size_t>(a)];
        }
        std::array<int, 5> key = coord;
        key[Ep] = 0;
        auto it = group_by_key.find(key);
        if (it == group_by_key.end()) { // ranks ascend, so groups come by their lowest rank
            it = group_by_key.emplace(key, static_cast<int>(l.groups.size())).first;
            l.groups.emplace_back();
        }
        l.groups[static_cast<std::size_t>(it->second)].push_back(rank);
        l.group_of[static_cast<std::size_t>(rank)] = it->second;
        // Within a group only the ep digit changes, and a larger digit is a larger rank:
        // the position in the ascending list is the ep coordinate.
        l.index_in_group[static_cast<std::size_t>(rank)] = coord[Ep];
    }
    return l;
}

} // namespace moeprobe
