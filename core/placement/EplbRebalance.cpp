#include "placement/EplbRebalance.h"

#include "placement/PlacementTr.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace moewb::placement {
namespace {

// inverse of a permutation per row: inv[row][perm[row][i]] = i.
std::vector<int> inversePerRow(const std::vector<int>& perm, int rows, int n) {
    std::vector<int> inv(perm.size());
    for (int r = 0; r < rows; ++r)
        for (int i = 0; i < n; ++i)
            inv[std::size_t(r) * n + std::size_t(perm[std::size_t(r) * n + i])] = i;
    return inv;
}

struct Hierarchical {
    std::vector<int> phy2log, phyRank, logCount;
};

Hierarchical rebalanceHierarchical(const std::vector<float>& weight, int layers, int experts, int physical,
                                   int groups, int nodes, int gpus) {
    const int groupSize = experts / groups;
    const int groupsPerNode = groups / nodes;
    const int phyPerGpu = physical / gpus;
    const int logPerNode = experts / nodes;
    const int phyPerNode = physical / nodes;

    // Step 1: pack the groups onto nodes by their summed load.
    std::vector<float> groupLoad(std::size_t(layers) * groups, 0.0f);
    for (int l = 0; l < layers; ++l)
        for (int g = 0; g < groups; ++g) {
            float s = 0.0f;
            for (int j = 0; j < groupSize; ++j)
                s += weight[std::size_t(l) * experts + g * groupSize + j];
            groupLoad[std::size_t(l) * groups + g] = s;
        }
    const Packing groupPacking = balancedPacking(groupLoad, layers, groups, nodes);
    std::vector<int> log2mlog(std::size_t(layers) * experts);
    for (int l = 0; l < layers; ++l)
        for (int g = 0; g < groups; ++g) {
            const std::size_t gi = std::size_t(l) * groups + g;
            const int base =
                (groupPacking.packIndex[gi] * groupsPerNode + groupPacking.rankInPack[gi]) * groupSize;
            for (int j = 0; j < groupSize; ++j)
                log2mlog[std::size_t(l) * experts + g * groupSize + j] = base + j;
        }
    const std::vector<int> mlog2log = inversePerRow(log2mlog, layers, experts);

    // Step 2: replicate within each node ([layers · nodes] rows of the node's experts).
    const int rows = layers * nodes;
    std::vector<float> mlogLoad(std::size_t(rows) * logPerNode);
    for (int l = 0; l < layers; ++l)
        for (int m = 0; m < experts; ++m)
            mlogLoad[std::size_t(l) * experts + m] =
                weight[std::size_t(l) * experts + mlog2log[std::size_t(l) * experts + m]];
    const Replication rep = replicateExperts(mlogLoad, rows, logPerNode, phyPerNode);

    // Step 3: pack each node's replicas onto its GPUs by load / replica count.
    std::vector<float> phyLoad(std::size_t(rows) * phyPerNode);
    for (int r = 0; r < rows; ++r)
        for (int p = 0; p < phyPerNode; ++p) {
            const int m = rep.phy2log[std::size_t(r) * phyPerNode + p];
            phyLoad[std::size_t(r) * phyPerNode + p] = mlogLoad[std::size_t(r) * logPerNode + m] /
                                                       float(rep.logCount[std::size_t(r) * logPerNode + m]);
        }
    const Packing gpuPacking = balancedPacking(phyLoad, rows, phyPerNode, gpus / nodes);
    std::vector<int> phy2pphy(std::size_t(rows) * phyPerNode);
    for (std::size_t i = 0; i < phy2pphy.size(); ++i)
        phy2pphy[i] = gpuPacking.packIndex[i] * phyPerGpu + gpuPacking.rankInPack[i];
    const std::vector<int> pphy2phy = inversePerRow(phy2pphy, rows, phyPerNode);

    Hierarchical h;
    h.phy2log.resize(std::size_t(layers) * physical);
    h.phyRank.resize(std::size_t(layers) * physical);
    for (int l = 0; l < layers; ++l)
        for (int n = 0; n < nodes; ++n) {
            const int r = l * nodes + n;
            for (int q = 0; q < phyPerNode; ++q) {
                const int p = pphy2phy[std::size_t(r) * phyPerNode + q];
                const int mlog = rep.phy2log[std::size_t(r) * phyPerNode + p] + n * logPerNode;
                const std::size_t out = std::size_t(l) * physical + std::size_t(n) * phyPerNode + q;
                h.phy2log[out] = mlog2log[std::size_t(l) * experts + mlog];
                h.phyRank[out] = rep.rank[std::size_t(r) * phyPerNode + p];
            }
        }
    h.logCount.resize(std::size_t(layers) * experts);
    for (int l = 0; l < layers; ++l)
        for (int e = 0; e < experts; ++e)
            // mlogcnt viewed as [layers, experts]: row l·nodes + n, column c is n·logPerNode + c.
            h.logCount[std::size_t(l) * experts + e] =
                rep.logCount[std::size_t(l) * experts + log2mlog[std::size_t(l) * experts + e]];
    return h;
}

} // namespace

Packing balancedPacking(std::span<const float> weight, int rows, int n, int packs) {
    Packing out;
    out.packIndex.assign(std::size_t(rows) * n, -1);
    out.rankInPack.assign(std::size_t(rows) * n, -1);
    const int perPack = n / packs;
    if (perPack == 1) {
        for (int r = 0; r < rows; ++r)
            for (int i = 0; i < n; ++i) {
                out.packIndex[std::size_t(r) * n + i] = i;
                out.rankInPack[std::size_t(r) * n + i] = 0;
            }
        return out;
    }
    std::vector<int> order(static_cast<std::size_t>(n));
    std::vector<float> packWeight(static_cast<std::size_t>(packs));
    std::vector<int> packItems(static_cast<std::size_t>(packs));
    for (int r = 0; r < rows; ++r) {
        const float* w = weight.data() + std::size_t(r) * n;
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), [w](int a, int b) { return w[a] > w[b]; });
        std::fill(packWeight.begin(), packWeight.end(), 0.0f);
        std::fill(packItems.begin(), packItems.end(), 0);
        for (const int item : order) {
            int pack = -1;
            for (int p = 0; p < packs; ++p)
                if (packItems[std::size_t(p)] < perPack &&
                    (pack < 0 || packWeight[std::size_t(p)] < packWeight[std::size_t(pack)]))
                    pack = p;
            out.packIndex[std::size_t(r) * n + item] = pack;
            out.rankInPack[std::size_t(r) * n + item] = packItems[std::size_t(pack)];
            packWeight[std::size_t(pack)] += w[item];
            ++packItems[std::size_t(pack)];
        }
    }
    return out;
}

Replication replicateExperts(std::span<const float> weight, int rows, int logical, int physical) {
    Replication out;
    out.phy2log.resize(std::size_t(rows) * physical);
    out.rank.assign(std::size_t(rows) * physical, 0);
    out.logCount.assign(std::size_t(rows) * logical, 1);
    for (int r = 0; r < rows; ++r) {
        for (int p = 0; p < physical; ++p)
            out.phy2log[std::size_t(r) * physical + p] = p;
        const float* w = weight.data() + std::size_t(r) * logical;
        int* count = out.logCount.data() + std::size_t(r) * logical;
        for (int p = logical; p < physical; ++p) {
            int best = 0;
            float bestLoad = w[0] / float(count[0]);
            for (int e = 1; e < logical; ++e) {
                const float load = w[e] / float(count[e]);
                if (load > bestLoad) {
                    best = e;
                    bestLoad = load;
                }
            }
            out.phy2log[std::size_t(r) * physical + p] = best;
            out.rank[std::size_t(r) * physical + p] = count[best];
            ++count[best];
        }
    }
    return out;
}

Expected<EplbPlacement, QString> rebalanceExperts(const EplbInput& in) {
    if (in.layers < 1 || in.experts < 1)
        return unexpected(Placement::tr("the load matrix is empty (%1 layers × %2 experts)")
                              .arg(in.layers)
                              .arg(in.experts));
    if (in.weight.size() != std::size_t(in.layers) * std::size_t(in.experts))
        return unexpected(Placement::tr("the load matrix has %1 values, not %2 layers × %3 experts")
                              .arg(in.weight.size())
                              .arg(in.layers)
                              .arg(in.experts));
    for (const double w : in.weight)
        if (!std::isfinite(w) || w < 0)
            return unexpected(
                Placement::tr("the load matrix holds %1; loads must be finite and not negative").arg(w));
    if (in.groups < 1 || in.nodes < 1 || in.gpus < 1 || in.replicas < 1)
        return unexpected(Placement::tr("replicas, groups, nodes and GPUs must be positive"));
    if (in.experts % in.groups != 0)
        return unexpected(
            Placement::tr("the %1 experts do not divide into %2 groups").arg(in.experts).arg(in.groups));
    if (in.gpus % in.nodes != 0)
        return unexpected(Placement::tr("%1 GPUs are not a multiple of %2 nodes").arg(in.gpus).arg(in.nodes));
    if (in.replicas % in.gpus != 0)
        return unexpected(
            Placement::tr("%1 replicas are not a multiple of %2 GPUs").arg(in.replicas).arg(in.gpus));
    if (in.replicas < in.experts)
        return unexpected(
            Placement::tr("%1 replicas are fewer than the %2 experts").arg(in.replicas).arg(in.experts));

    const bool hierarchical = in.groups % in.nodes == 0;
    const int groups = hierarchical ? in.groups : 1;
    const int nodes = hierarchical ? in.nodes : 1;
    // Within a node the replicas must cover its experts (eplb.py asserts num_redundant >= 0).
    if (in.replicas / nodes < in.experts / nodes)
        return unexpected(Placement::tr("%1 replicas over %2 nodes cannot hold %3 experts")
                              .arg(in.replicas)
                              .arg(nodes)
                              .arg(in.experts));
    std::vector<float> weight(in.weight.size());
    std::transform(in.weight.begin(), in.weight.end(), weight.begin(), [](double w) { return float(w); });
    Hierarchical h =
        rebalanceHierarchical(weight, in.layers, in.experts, in.replicas, groups, nodes, in.gpus);

    EplbPlacement out;
    out.layers = in.layers;
    out.experts = in.experts;
    out.replicas = in.replicas;
    out.gpus = in.gpus;
    out.hierarchical = hierarchical;
    out.phy2log = std::move(h.phy2log);
    out.phyRank = std::move(h.phyRank);
    out.logCount = std::move(h.logCount);
    out.maxLogCount = *std::max_element(out.logCount.begin(), out.logCount.end());
    const int m = out.maxLogCount;
    out.log2phy.assign(std::size_t(in.layers) * in.experts * m, -1);
    for (int l = 0; l < in.layers; ++l)
        for (int p = 0; p < in.replicas; ++p) {
            const std::size_t i = std::size_t(l) * in.replicas + p;
            out.log2phy[(std::size_t(l) * in.experts + out.phy2log[i]) * m + out.phyRank[i]] = p;
        }
    return out;
}

} // namespace moewb::placement
