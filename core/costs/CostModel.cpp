#include "costs/CostModel.h"

#include <QCoreApplication>
#include <algorithm>

namespace moewb::costs {

namespace {
// Translation context of this module's messages: CostsTr::tr("...").
class CostsTr {
    Q_DECLARE_TR_FUNCTIONS(Costs)
};
} // namespace

std::optional<CostInputs> costInputsFromRecord(const record::ConfigRecord& r, QStringList* missing) {
    QStringList absent;
    CostInputs in;
    in.dense = r.isDense();
    auto need = [&](const std::optional<qint64>& v, const char* field) -> std::int64_t {
        if (!v)
            absent << QString::fromLatin1(field);
        return v.value_or(0);
    };
    in.layers = need(r.model.layers, "model.layers");
    in.hidden = need(r.model.hiddenSize, "model.hidden_size");
    in.ffn = need(r.model.ffnHiddenSize, "model.ffn_hidden_size");
    if (!in.dense) {
        in.moeLayers = r.model.moeLayers.value_or(in.layers);
        in.experts = need(r.moe.experts, "moe.experts");
        in.topK = need(r.moe.topK, "moe.top_k");
        in.sharedExperts = r.moe.sharedExperts.value_or(0);
    }
    in.dp = need(r.parallelism.dp, "parallelism.dp");
    in.tp = need(r.parallelism.tp, "parallelism.tp");
    in.pp = need(r.parallelism.pp, "parallelism.pp");
    in.ep = r.parallelism.epOrDefault();
    in.cp = r.parallelism.cpOrDefault();
    in.recordTotalParams = r.model.totalParams;
    in.recordActivatedParams = r.model.activatedParams;
    in.globalBatchTokens = r.batch.globalBatchTokens;
    in.sequenceLength = r.batch.sequenceLength;
    if (missing)
        for (const QString& f : absent)
            *missing << CostsTr::tr("the record has no %1").arg(f);
    const bool positive = in.dp > 0 && in.tp > 0 && in.pp > 0 && in.ep > 0 && in.cp > 0;
    if (!positive && absent.isEmpty() && missing)
        *missing << CostsTr::tr("the parallel sizes must be positive");
    if (!absent.isEmpty() || !positive)
        return std::nullopt;
    return in;
}

ParameterCounts countParameters(const CostInputs& in, const CostOptions& o) {
    ParameterCounts p;
    const double h = double(in.hidden), f = double(in.ffn), m = double(o.ffnMatrices);
    const double moeLayers = double(in.moeLayers), denseLayers = double(in.layers - in.moeLayers);
    p.attentionPerLayer = 4.0 * h * h;
    p.oneExpert = m * h * f;
    p.routerPerMoeLayer = h * double(in.experts);
    p.routedExperts = moeLayers * double(in.experts) * p.oneExpert;
    const double common = double(in.layers) * p.attentionPerLayer + denseLayers * p.oneExpert +
                          moeLayers * (p.routerPerMoeLayer + double(in.sharedExperts) * p.oneExpert);
    p.total = common + p.routedExperts;
    p.activated = common + moeLayers * double(in.topK) * p.oneExpert;
    if (in.recordTotalParams)
        p.otherFromRecord = double(*in.recordTotalParams) - p.total;
    p.totalUsed = in.recordTotalParams ? double(*in.recordTotalParams) : p.total;
    p.activatedUsed = in.recordActivatedParams ? double(*in.recordActivatedParams) : p.activated;
    return p;
}

MemoryPerDevice memoryPerDevice(const CostInputs& in, const ParameterCounts& p, const CostOptions& o) {
    MemoryPerDevice m;
    const double nonExpert = std::max(0.0, p.totalUsed - p.routedExperts);
    m.denseParams = nonExpert / double(in.tp * in.pp);
    m.expertParams = p.routedExperts / double(in.ep * in.tp * in.pp);
    m.expertDataParallel = std::max(1.0, double(in.dp * in.cp) / double(in.ep));
    const double held = m.denseParams + m.expertParams;
    m.parameterBytes = held * o.bytes.parameter;
    m.gradientBytes = held * o.bytes.gradient;
    // The distributed optimizer shards master weights and optimizer state across the
    // replicas of each parameter: DP·CP for dense parameters, DP·CP/EP for experts.
    const double sharded = o.distributedOptimizer
                               ? m.denseParams / double(in.dp * in.cp) + m.expertParams / m.expertDataParallel
                               : held;
    m.masterWeightBytes = sharded * o.bytes.masterWeight;
    m.optimizerStateBytes = sharded * o.bytes.optimizerState;
    m.totalBytes = m.parameterBytes + m.gradientBytes + m.masterWeightBytes + m.optimizerStateBytes;
    return m;
}

AllToAllVolume allToAllVolume(const CostInputs& in, const CostOptions& o) {
    AllToAllVolume v;
    if (in.dense || in.ep <= 1) {
        v.remoteFraction = 0.0;
    } else {
        v.remoteFraction = double(in.ep - 1) / double(in.ep);
    }
    const double perTokenOneWay = double(in.topK) * double(in.hidden) * o.bytes.activation;
    v.bytesPerTokenPerLayerOneWay = perTokenOneWay * v.remoteFraction;
    v.bytesPerTokenPerLayer = 4.0 * v.bytesPerTokenPerLayerOneWay;
    v.moeLayersPerStage = double(in.moeLayers) / double(in.pp);
    if (in.globalBatchTokens) {
        v.tokensPerDevicePerStep = double(*in.globalBatchTokens) / double(in.dp * in.cp * in.tp);
        v.bytesPerDevicePerStep = *v.tokensPerDevicePerStep * v.moeLayersPerStage * v.bytesPerTokenPerLayer;
    }
    if (in.globalBatchTokens && in.sequenceLength && *in.sequenceLength > 0 && !in.dense && in.ep > 1) {
        const double tokensPerMicroBatch = double(o.microBatchSequences) * double(*in.sequenceLength);
        v.bytesPerRankPerCall = tokensPerMicroBatch / double(in.cp * in.tp) * perTokenOneWay;
        const double microBatches = double(*in.globalBatchTokens) / double(in.dp) / tokensPerMicroBatch;
        v.callsPerStep = microBatches * v.moeLayersPerStage * 4.0;
    }
    return v;
}

} // namespace moewb::costs
