#pragma once
// The configuration record every run belongs to (SPEC §1, seed 000 §3): what was
// run, on what, and how throughput was counted. Every field is optional in memory so
// that a half-filled record can be held, shown and validated; validate() says what
// is missing. The JSON form is documented in docs/formats.md, "Config record (JSON)".
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QtGlobal>
#include <optional>

namespace moewb::record {

// One problem with one field. field is the JSON path ("moe.top_k",
// "cluster.topology.rail_optimized"), or empty for the whole document (syntax).
struct FieldIssue {
    QString field;
    QString message; // translated sentence that names the field
    bool operator==(const FieldIssue&) const = default;
};

// The JSON format version written by toJson() ("format_version").
inline constexpr int kRecordFormatVersion = 1;

enum class ModelKind { Moe, Dense };
enum class OverflowPolicy { Drop, Reroute, Residual, Dropless };
enum class DropOrder { LowestProbability, Position };
enum class LoadBalancingMethod { AuxLoss, SeqAuxLoss, AuxLossFreeBias, Sinkhorn, ExpertChoice, None };
enum class RouterScoreFunction { Softmax, Sigmoid };

// JSON tokens ("moe", "dense", "drop", "lowest_probability", "aux_loss_free_bias", ...).
QString token(ModelKind v);
QString token(OverflowPolicy v);
QString token(DropOrder v);
QString token(LoadBalancingMethod v);
QString token(RouterScoreFunction v);
std::optional<ModelKind> modelKindFromToken(const QString& t);
std::optional<OverflowPolicy> overflowPolicyFromToken(const QString& t);
std::optional<DropOrder> dropOrderFromToken(const QString& t);
std::optional<LoadBalancingMethod> loadBalancingMethodFromToken(const QString& t);
std::optional<RouterScoreFunction> routerScoreFunctionFromToken(const QString& t);

// A capacity factor that was recorded: either a number or explicitly "none" (no
// per-expert capacity, as in dropless training). A missing capacity factor is a
// std::nullopt of this type, which is not the same thing as "none".
struct CapacityFactor {
    std::optional<double> factor; // std::nullopt = "none"
    bool isNone() const { return !factor.has_value(); }
    static CapacityFactor none() { return {}; }
    static CapacityFactor of(double f) { return {f}; }
    bool operator==(const CapacityFactor&) const = default;
};

// cluster.topology
struct TopologyRecord {
    std::optional<QString> description;     // free text
    std::optional<QString> intraNodeLink;   // e.g. "NVLink 4 via NVSwitch", "PCIe 5"
    std::optional<QString> interNodeFabric; // e.g. "InfiniBand NDR 400G x8", "none" (one node)
    std::optional<bool> railOptimized;
    bool operator==(const TopologyRecord&) const = default;
};

// cluster
struct ClusterRecord {
    std::optional<qint64> nodes;
    std::optional<qint64> acceleratorsPerNode;
    std::optional<QString> acceleratorModel; // e.g. "H100 SXM5 80GB"
    std::optional<QString> networkType;      // e.g. "NVLink+IB NDR", "RoCE", "Ethernet"
    TopologyRecord topology;
    bool operator==(const ClusterRecord&) const = default;
};

// moe.load_balancing
struct LoadBalancingRecord {
    std::optional<LoadBalancingMethod> method;
    std::optional<double> coefficient; // aux_loss, seq_aux_loss
    std::optional<double> updateRate;  // aux_loss_free_bias
    bool operator==(const LoadBalancingRecord&) const = default;
};

// moe (not applicable to a dense model: all fields stay empty)
struct MoeRecord {
    std::optional<qint64> experts;       // routed experts per MoE layer
    std::optional<qint64> sharedExperts; // optional, default 0
    std::optional<qint64> topK;
    std::optional<CapacityFactor> capacityFactor;
    std::optional<OverflowPolicy> overflowPolicy;
    std::optional<DropOrder> dropOrder; // required for drop and residual
    LoadBalancingRecord loadBalancing;
    std::optional<RouterScoreFunction> routerScoreFunction;
    bool isEmpty() const;
    bool operator==(const MoeRecord&) const = default;
};

// model
struct ModelRecord {
    std::optional<ModelKind> kind;
    std::optional<qint64> totalParams;     // all parameters incl. every expert and embeddings
    std::optional<qint64> activatedParams; // parameters one token passes through
    std::optional<qint64> layers;
    std::optional<qint64> moeLayers; // 0 or absent for a dense model
    std::optional<qint64> hiddenSize;
    std::optional<qint64> ffnHiddenSize; // one expert's FFN hidden size (dense: the FFN's)
    bool operator==(const ModelRecord&) const = default;
};

// parallelism
struct ParallelismRecord {
    std::optional<qint64> dp;
    std::optional<qint64> tp;
    std::optional<qint64> pp;
    std::optional<qint64> ep; // optional for a dense model (then 1)
    std::optional<qint64> cp; // optional, default 1
    // Expert tensor-parallel size (Megatron-Core --expert-tensor-parallel-size);
    // optional, default tp.
    std::optional<qint64> etp;
    // The rank order of Megatron-Core's RankGenerator ("tp-cp-ep-dp-pp" by default,
    // the first name varies fastest); optional.
    std::optional<QString> order;
    qint64 cpOrDefault() const { return cp.value_or(1); }
    qint64 etpOrDefault() const { return etp.value_or(tp.value_or(1)); }
    QString orderOrDefault() const { return order.value_or(QStringLiteral("tp-cp-ep-dp-pp")); }
    qint64 epOrDefault() const { return ep.value_or(1); }
    bool operator==(const ParallelismRecord&) const = default;
};

// batch
struct BatchRecord {
    std::optional<qint64> globalBatchTokens;
    std::optional<qint64> sequenceLength;
    bool operator==(const BatchRecord&) const = default;
};

// throughput (how tokens/s were counted)
struct ThroughputRecord {
    std::optional<bool> dataLoadingIncluded;
    std::optional<qint64> warmupStepsExcluded;
    bool operator==(const ThroughputRecord&) const = default;
};

// recipe (what loss comparisons need to be equal)
struct RecipeRecord {
    std::optional<QString> optimizer;  // e.g. "AdamW beta1=0.9 beta2=0.95 wd=0.1"
    std::optional<QString> lrSchedule; // e.g. "cosine, peak 3e-4, 2000 warm-up steps"
    std::optional<qint64> tokensTrained;
    std::optional<QString> validationSet; // identifier of the validation set
    bool operator==(const RecipeRecord&) const = default;
};

class ConfigRecord {
public:
    QString name;  // may be empty (the CLI can supply --name)
    QString notes; // free text, may be empty

    ClusterRecord cluster;
    MoeRecord moe;
    ModelRecord model;
    ParallelismRecord parallelism;
    BatchRecord batch;
    ThroughputRecord throughput;
    RecipeRecord recipe;

    // snake_case keys, nested sections; only the fields that are set are written,
    // plus "format_version". Capacity factor "none" is written as the string "none".
    QJsonObject toJson() const;
    // Reads what it can. Wrong JSON types, unknown keys, unknown enum tokens and a
    // wrong format_version are appended to *issues (may be null); such fields stay
    // empty. Ranges and cross-field rules are validate()'s job (RecordValidation.h).
    static ConfigRecord fromJson(const QJsonObject& json, QList<FieldIssue>* issues);
    // model.kind == "dense": the moe section does not apply.
    bool isDense() const;
    // nodes × accelerators per node, when both are set.
    std::optional<qint64> worldSize() const;

    bool operator==(const ConfigRecord&) const = default;
};

} // namespace moewb::record
