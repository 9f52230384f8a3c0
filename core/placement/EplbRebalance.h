#pragma once
// DeepSeek's expert-parallelism load balancer (EPLB, github.com/deepseek-ai/EPLB, eplb.py
// `rebalance_experts`), reimplemented: for a [layers × experts] load matrix it replicates
// the heaviest experts and packs the replicas onto GPUs. Hierarchical when the nodes
// divide the expert groups (groups packed to nodes, replicas made within each node, then
// packed to that node's GPUs), otherwise global (one group, one node).
//
// Results equal eplb.py's for the same inputs: loads are float32 as there (integers up
// to 2^24 exactly), sorting is descending and stable (equal loads keep index order, as
// PyTorch's CPU sort does), the replica chosen on a tie is the lowest index (torch.max),
// and a pack chosen on a tie is the lowest index (Python's min).
#include "common/Expected.h"

#include <QString>
#include <span>
#include <vector>

namespace moewb::placement {

struct EplbInput {
    int layers = 0;
    int experts = 0;            // logical experts per layer
    std::vector<double> weight; // layers × experts, row-major; loads ≥ 0
    int replicas = 0;           // physical experts per layer (a multiple of gpus, ≥ experts)
    int groups = 1;             // expert groups (experts % groups == 0)
    int nodes = 1;
    int gpus = 1; // a multiple of nodes
};

struct EplbPlacement {
    int layers = 0;
    int experts = 0;
    int replicas = 0;
    int gpus = 0;
    bool hierarchical = true;  // false: the global policy (groups not divisible by nodes)
    std::vector<int> phy2log;  // layers × replicas: the logical expert of each physical slot
    std::vector<int> phyRank;  // layers × replicas: which replica of its expert the slot is
    std::vector<int> logCount; // layers × experts: replicas of each logical expert
    int maxLogCount = 0;       // the third dimension of log2phy
    std::vector<int> log2phy;  // layers × experts × maxLogCount, −1 padded
    // Physical slot p lives on GPU p / (replicas / gpus).
    int slotsPerGpu() const { return gpus > 0 ? replicas / gpus : 0; }
};

// Checks the shapes as eplb.py asserts them; the error names the argument.
Expected<EplbPlacement, QString> rebalanceExperts(const EplbInput& input);

// The two building blocks, exposed for tests (rows × n, row-major, float32 as eplb.py).
struct Packing {
    std::vector<int> packIndex; // rows × n
    std::vector<int> rankInPack;
};
Packing balancedPacking(std::span<const float> weight, int rows, int n, int packs);

struct Replication {
    std::vector<int> phy2log;  // rows × physical
    std::vector<int> rank;     // rows × physical
    std::vector<int> logCount; // rows × logical
};
Replication replicateExperts(std::span<const float> weight, int rows, int logical, int physical);

} // namespace moewb::placement
