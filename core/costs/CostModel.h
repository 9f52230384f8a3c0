#pragma once
// The cost structure of an MoE configuration (seed 000 §2, SPEC §6): total vs activated
// parameters, memory per device, all-to-all bytes. Every formula and assumption is in
// docs/costs.md; the byte sizes are options.
#include "record/ConfigRecord.h"

#include <QStringList>
#include <cstdint>
#include <optional>

namespace moewb::costs {

// Bytes per element. Defaults: bf16 parameters and gradients, fp32 master weights and two
// fp32 Adam moments (mixed-precision Adam: 2 + 2 + 4 + 8 = 16 bytes per parameter).
struct ByteSizes {
    double parameter = 2.0;
    double gradient = 2.0;
    double masterWeight = 4.0;
    double optimizerState = 8.0; // Adam m and v, fp32 each
    double activation = 2.0;     // one hidden-vector element sent by the all-to-all (bf16)
};

struct CostOptions {
    ByteSizes bytes;
    int ffnMatrices = 3;              // 3: SwiGLU (gate, up, down); 2: plain FFN (up, down)
    bool distributedOptimizer = false; // master weights + optimizer state sharded over data parallel
    int microBatchSequences = 1;       // sequences per micro-batch (all-to-all message size)
};

// What the formulas need, read from a config record.
struct CostInputs {
    bool dense = false;
    std::int64_t layers = 0, moeLayers = 0, hidden = 0, ffn = 0;
    std::int64_t experts = 0, sharedExperts = 0, topK = 0;
    std::int64_t dp = 1, tp = 1, pp = 1, ep = 1, cp = 1;
    std::optional<std::int64_t> recordTotalParams, recordActivatedParams;
    std::optional<std::int64_t> globalBatchTokens, sequenceLength;
};

// The inputs of a record; *missing lists the JSON fields that are absent (translated).
std::optional<CostInputs> costInputsFromRecord(const record::ConfigRecord& record, QStringList* missing);

struct ParameterCounts {
    double attentionPerLayer = 0; // 4·h²
    double oneExpert = 0;         // m·h·f
    double routerPerMoeLayer = 0; // h·E
    double routedExperts = 0;     // L_moe·E·m·h·f: all routed experts of all layers
    double total = 0;             // the formula's total (transformer layers only)
    double activated = 0;         // the formula's activated
    // Record total − formula total: embeddings, output head, norms (when the record has totals).
    std::optional<double> otherFromRecord;
    double totalUsed = 0;     // the record's total when given, else the formula's
    double activatedUsed = 0; // likewise
};
ParameterCounts countParameters(const CostInputs& in, const CostOptions& options);

struct MemoryPerDevice {
    double denseParams = 0;  // non-expert parameters held by one device
    double expertParams = 0; // routed-expert parameters held by one device
    double parameterBytes = 0;
    double gradientBytes = 0;
    double masterWeightBytes = 0;
    double optimizerStateBytes = 0;
    double totalBytes = 0;
    double expertDataParallel = 1; // replicas of each expert: DP·CP / EP
};
MemoryPerDevice memoryPerDevice(const CostInputs& in, const ParameterCounts& params, const CostOptions& options);

struct AllToAllVolume {
    double remoteFraction = 0;          // (EP−1)/EP: assignments that leave the device
    double bytesPerTokenPerLayerOneWay = 0; // K·h·a·(EP−1)/EP: one dispatch (or one combine)
    double bytesPerTokenPerLayer = 0;   // ×4: dispatch + combine, forward + backward
    std::optional<double> tokensPerDevicePerStep; // B / (DP·CP·TP)
    double moeLayersPerStage = 0;       // L_moe / PP
    std::optional<double> bytesPerDevicePerStep;
    // One all-to-all call as stage 1 measures it: bytes per rank, and calls per step.
    std::optional<double> bytesPerRankPerCall; // mbs·S/(CP·TP) · K · h · a
    std::optional<double> callsPerStep;        // micro-batches · L_moe/PP · 4
};
AllToAllVolume allToAllVolume(const CostInputs& in, const CostOptions& options);

} // namespace moewb::costs
