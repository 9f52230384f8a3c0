#include "record/RecordFields.h"

#include <QCoreApplication>

namespace moewb::record {

namespace {

// Upper bounds that catch unit mistakes and typos ("absurd values"); generous on
// purpose. Integers stay below 2^53 so that JSON numbers hold them exactly.
constexpr double kMaxCount = 1e15;

QList<RecordField> buildCatalogue() {
    using T = FieldType;
    const QStringList kinds{QStringLiteral("moe"), QStringLiteral("dense")};
    const QStringList policies{QStringLiteral("drop"), QStringLiteral("reroute"), QStringLiteral("residual"),
                               QStringLiteral("dropless")};
    const QStringList orders{QStringLiteral("lowest_probability"), QStringLiteral("position")};
    const QStringList methods{QStringLiteral("aux_loss"),           QStringLiteral("seq_aux_loss"),
                              QStringLiteral("aux_loss_free_bias"), QStringLiteral("sinkhorn"),
                              QStringLiteral("expert_choice"),      QStringLiteral("none")};
    const QStringList scores{QStringLiteral("softmax"), QStringLiteral("sigmoid")};
    auto f = [](const char* path, T type, bool required, double maximum, const char* hint,
                QStringList choices = {}) {
        return RecordField{QString::fromLatin1(path), type, std::move(choices), required, maximum, hint};
    };
    return {
        f("cluster.nodes", T::PositiveInteger, true, 100000,
          QT_TRANSLATE_NOOP("RecordFields", "how many nodes the run used (e.g. 8)")),
        f("cluster.accelerators_per_node", T::PositiveInteger, true, 1024,
          QT_TRANSLATE_NOOP("RecordFields", "how many accelerators (GPUs) each node has (e.g. 8)")),
        f("cluster.accelerator_model", T::Text, true, 0,
          QT_TRANSLATE_NOOP("RecordFields", "the accelerator model (e.g. \"H100 SXM5 80GB\")")),
        f("cluster.network_type", T::Text, true, 0,
          QT_TRANSLATE_NOOP("RecordFields",
                            "the network type (e.g. \"NVLink+IB NDR\", \"RoCE\", \"Ethernet\")")),
        f("cluster.topology.description", T::Text, true, 0,
          QT_TRANSLATE_NOOP("RecordFields", "the topology in words (e.g. \"two-level fat tree, 8 rails\")")),
        f("cluster.topology.intra_node_link", T::Text, true, 0,
          QT_TRANSLATE_NOOP("RecordFields",
                            "the link between accelerators inside a node (e.g. \"NVLink 4 via NVSwitch\")")),
        f("cluster.topology.inter_node_fabric", T::Text, true, 0,
          QT_TRANSLATE_NOOP(
              "RecordFields",
              "the fabric between nodes (e.g. \"InfiniBand NDR 400G x8\"; \"none\" for one node)")),
        f("cluster.topology.rail_optimized", T::Boolean, true, 0,
          QT_TRANSLATE_NOOP("RecordFields",
                            "whether the inter-node network is rail-optimized (true or false)")),

        f("moe.experts", T::PositiveInteger, true, 1 << 20,
          QT_TRANSLATE_NOOP("RecordFields", "how many routed experts each MoE layer has (e.g. 64)")),
        f("moe.shared_experts", T::NonNegativeInteger, false, 1024,
          QT_TRANSLATE_NOOP("RecordFields", "shared experts every token passes through (default 0)")),
        f("moe.top_k", T::PositiveInteger, true, 1024,
          QT_TRANSLATE_NOOP("RecordFields", "how many experts each token is routed to (e.g. 2)")),
        f("moe.capacity_factor", T::CapacityFactor, true, 1024,
          QT_TRANSLATE_NOOP(
              "RecordFields",
              "the capacity factor (e.g. 1.25), or \"none\" when experts have no capacity limit")),
        f("moe.overflow_policy", T::Choice, true, 0,
          QT_TRANSLATE_NOOP(
              "RecordFields",
              "what happens to tokens over an expert's capacity: drop, reroute, residual or dropless"),
          policies),
        f("moe.drop_order", T::Choice, false, 0,
          QT_TRANSLATE_NOOP("RecordFields", "which tokens overflow first: lowest_probability or position"),
          orders),
        f("moe.load_balancing.method", T::Choice, true, 0,
          QT_TRANSLATE_NOOP("RecordFields", "the load-balancing method: aux_loss, seq_aux_loss, "
                                            "aux_loss_free_bias, sinkhorn, expert_choice or none"),
          methods),
        f("moe.load_balancing.coefficient", T::PositiveNumber, false, 10,
          QT_TRANSLATE_NOOP("RecordFields", "the auxiliary-loss coefficient (e.g. 0.01)")),
        f("moe.load_balancing.update_rate", T::PositiveNumber, false, 1,
          QT_TRANSLATE_NOOP("RecordFields", "the bias update rate of aux-loss-free balancing (e.g. 0.001)")),
        f("moe.router_score_function", T::Choice, true, 0,
          QT_TRANSLATE_NOOP("RecordFields", "the router's score function: softmax or sigmoid"), scores),

        f("model.kind", T::Choice, true, 0,
          QT_TRANSLATE_NOOP("RecordFields", "\"moe\", or \"dense\" for a dense control model"), kinds),
        f("model.total_params", T::PositiveInteger, true, kMaxCount,
          QT_TRANSLATE_NOOP("RecordFields",
                            "all parameters, every expert and the embeddings included (e.g. 16000000000)")),
        f("model.activated_params", T::PositiveInteger, true, kMaxCount,
          QT_TRANSLATE_NOOP("RecordFields", "the parameters one token passes through (e.g. 2800000000)")),
        f("model.layers", T::PositiveInteger, true, 10000,
          QT_TRANSLATE_NOOP("RecordFields", "how many transformer layers the model has (e.g. 28)")),
        f("model.moe_layers", T::NonNegativeInteger, true, 10000,
          QT_TRANSLATE_NOOP("RecordFields",
                            "how many layers have an MoE FFN (e.g. 27; 0 for a dense model)")),
        f("model.hidden_size", T::PositiveInteger, true, 1 << 20,
          QT_TRANSLATE_NOOP("RecordFields", "the model's hidden size (e.g. 2048)")),
        f("model.ffn_hidden_size", T::PositiveInteger, true, 1 << 24,
          QT_TRANSLATE_NOOP(
              "RecordFields",
              "the FFN hidden size of one expert, or of the FFN for a dense model (e.g. 1408)")),

        f("parallelism.dp", T::PositiveInteger, true, 1 << 20,
          QT_TRANSLATE_NOOP("RecordFields", "the data-parallel size (e.g. 16)")),
        f("parallelism.tp", T::PositiveInteger, true, 1 << 20,
          QT_TRANSLATE_NOOP("RecordFields", "the tensor-parallel size (e.g. 2)")),
        f("parallelism.pp", T::PositiveInteger, true, 1 << 20,
          QT_TRANSLATE_NOOP("RecordFields", "the pipeline-parallel size (e.g. 2)")),
        f("parallelism.ep", T::PositiveInteger, true, 1 << 20,
          QT_TRANSLATE_NOOP("RecordFields", "the expert-parallel size (e.g. 8)")),
        f("parallelism.cp", T::PositiveInteger, false, 1 << 20,
          QT_TRANSLATE_NOOP("RecordFields", "the context-parallel size (default 1)")),
        f("parallelism.etp", T::PositiveInteger, false, 1 << 20,
          QT_TRANSLATE_NOOP("RecordFields", "the expert tensor-parallel size (default: parallelism.tp)")),
        f("parallelism.order", T::Text, false, 0,
          QT_TRANSLATE_NOOP("RecordFields", "Megatron-Core's rank order, first varies fastest (default "
                                            "\"tp-cp-ep-dp-pp\")")),

        f("batch.global_batch_tokens", T::PositiveInteger, true, 1099511627776.0,
          QT_TRANSLATE_NOOP("RecordFields", "the tokens in one optimizer step across all data-parallel ranks "
                                            "(e.g. 4194304)")),
        f("batch.sequence_length", T::PositiveInteger, true, 1 << 27,
          QT_TRANSLATE_NOOP("RecordFields", "the sequence length in tokens (e.g. 4096)")),

        f("throughput.data_loading_included", T::Boolean, true, 0,
          QT_TRANSLATE_NOOP("RecordFields",
                            "whether the throughput timing includes data loading (true or false)")),
        f("throughput.warmup_steps_excluded", T::NonNegativeInteger, true, 1e9,
          QT_TRANSLATE_NOOP(
              "RecordFields",
              "how many warm-up steps are left out of the throughput statistics (e.g. 10; 0 for none)")),

        f("recipe.optimizer", T::Text, true, 0,
          QT_TRANSLATE_NOOP("RecordFields",
                            "the optimizer and its settings (e.g. \"AdamW beta1=0.9 beta2=0.95 wd=0.1\")")),
        f("recipe.lr_schedule", T::Text, true, 0,
          QT_TRANSLATE_NOOP("RecordFields",
                            "the learning-rate schedule (e.g. \"cosine, peak 3e-4, 2000 warm-up steps\")")),
        f("recipe.tokens_trained", T::PositiveInteger, true, kMaxCount,
          QT_TRANSLATE_NOOP("RecordFields", "how many tokens were trained in total (e.g. 100000000000)")),
        f("recipe.validation_set", T::Text, true, 0,
          QT_TRANSLATE_NOOP("RecordFields", "the identifier of the validation set (e.g. \"pile-val-v1\")")),
    };
}

} // namespace

const QList<RecordField>& recordFields() {
    static const QList<RecordField> catalogue = buildCatalogue();
    return catalogue;
}

const RecordField* findRecordField(const QString& path) {
    for (const auto& f : recordFields()) {
        if (f.path == path)
            return &f;
    }
    return nullptr;
}

QJsonValue recordFieldValue(const QJsonObject& recordJson, const QString& path) {
    const QStringList parts = path.split(QLatin1Char('.'));
    QJsonObject obj = recordJson;
    for (qsizetype i = 0; i + 1 < parts.size(); ++i)
        obj = obj.value(parts[i]).toObject();
    return obj.value(parts.last());
}

QString fieldHint(const QString& path) {
    const RecordField* f = findRecordField(path);
    return f ? QCoreApplication::translate("RecordFields", f->hint) : QString();
}

QString expectedValueText(const RecordField& field) {
    switch (field.type) {
    case FieldType::PositiveInteger:
        return QCoreApplication::translate("RecordFields", "a positive integer");
    case FieldType::NonNegativeInteger:
        return QCoreApplication::translate("RecordFields", "an integer of 0 or more");
    case FieldType::PositiveNumber:
        return QCoreApplication::translate("RecordFields", "a positive number");
    case FieldType::CapacityFactor:
        return QCoreApplication::translate("RecordFields", "a positive number or \"none\"");
    case FieldType::Boolean:
        return QCoreApplication::translate("RecordFields", "true or false");
    case FieldType::Text:
        return QCoreApplication::translate("RecordFields", "a non-empty string");
    case FieldType::Choice:
        return QCoreApplication::translate("RecordFields", "one of %1")
            .arg(field.choices.join(QStringLiteral(", ")));
    }
    return {};
}

} // namespace moewb::record
