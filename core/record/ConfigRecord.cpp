#include "record/ConfigRecord.h"

#include "record/JsonValueText.h"
#include "record/RecordFields.h"

#include <QCoreApplication>
#include <QJsonValue>
#include <cmath>

namespace moewb::record {

namespace {

template <typename E, std::size_t N> struct TokenTable {
    E values[N];
    const char* tokens[N];

    QString token(E v) const {
        for (std::size_t i = 0; i < N; ++i) {
            if (values[i] == v)
                return QString::fromLatin1(tokens[i]);
        }
        return {};
    }
    std::optional<E> parse(const QString& t) const {
        for (std::size_t i = 0; i < N; ++i) {
            if (t == QLatin1String(tokens[i]))
                return values[i];
        }
        return std::nullopt;
    }
};

constexpr TokenTable<ModelKind, 2> kModelKinds{{ModelKind::Moe, ModelKind::Dense}, {"moe", "dense"}};
constexpr TokenTable<OverflowPolicy, 4> kOverflowPolicies{
    {OverflowPolicy::Drop, OverflowPolicy::Reroute, OverflowPolicy::Residual, OverflowPolicy::Dropless},
    {"drop", "reroute", "residual", "dropless"}};
constexpr TokenTable<DropOrder, 2> kDropOrders{{DropOrder::LowestProbability, DropOrder::Position},
                                               {"lowest_probability", "position"}};
constexpr TokenTable<LoadBalancingMethod, 6> kLoadBalancingMethods{
    {LoadBalancingMethod::AuxLoss, LoadBalancingMethod::SeqAuxLoss, LoadBalancingMethod::AuxLossFreeBias,
     LoadBalancingMethod::Sinkhorn, LoadBalancingMethod::ExpertChoice, LoadBalancingMethod::None},
    {"aux_loss", "seq_aux_loss", "aux_loss_free_bias", "sinkhorn", "expert_choice", "none"}};
constexpr TokenTable<RouterScoreFunction, 2> kRouterScoreFunctions{
    {RouterScoreFunction::Softmax, RouterScoreFunction::Sigmoid}, {"softmax", "sigmoid"}};

const QString kNone = QStringLiteral("none");

// Levenshtein distance, for "did you mean" on unknown keys.
int editDistance(const QString& a, const QString& b) {
    QList<int> prev(b.size() + 1), cur(b.size() + 1);
    for (qsizetype j = 0; j <= b.size(); ++j)
        prev[j] = int(j);
    for (qsizetype i = 1; i <= a.size(); ++i) {
        cur[0] = int(i);
        for (qsizetype j = 1; j <= b.size(); ++j) {
            const int subst = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, subst});
        }
        std::swap(prev, cur);
    }
    return prev[b.size()];
}

QString joinPath(const QString& prefix, const QString& key) {
    return prefix.isEmpty() ? key : prefix + QLatin1Char('.') + key;
}

// Immediate children of a section in the field catalogue ("moe" -> experts, ...,
// load_balancing, ...), in catalogue order.
QStringList knownKeys(const QString& prefix) {
    QStringList keys;
    const QString start = prefix + QLatin1Char('.');
    for (const auto& f : recordFields()) {
        if (!f.path.startsWith(start))
            continue;
        const QString key = f.path.mid(start.size()).section(QLatin1Char('.'), 0, 0);
        if (!keys.contains(key))
            keys << key;
    }
    return keys;
}

// Reads JSON into the typed record, collecting structural issues.
class RecordReader {
public:
    explicit RecordReader(QList<FieldIssue>* issues) : m_issues(issues) {}

    void issue(const QString& field, const QString& message) {
        if (m_issues)
            m_issues->append({field, message});
    }

    void typeIssue(const QString& path, const QJsonValue& got) {
        const RecordField* f = findRecordField(path);
        const QString expected =
            f ? expectedValueText(*f) : QCoreApplication::translate("ConfigRecord", "an object");
        issue(path, QCoreApplication::translate("ConfigRecord", "%1 must be %2, got %3")
                        .arg(path, expected, describeJsonValue(got)));
    }

    void checkKeys(const QJsonObject& obj, const QString& prefix, const QStringList& known) {
        for (auto it = obj.begin(); it != obj.end(); ++it) {
            if (known.contains(it.key()))
                continue;
            const QString path = joinPath(prefix, it.key());
            QString best;
            int bestDistance = 3;
            for (const QString& k : known) {
                const int d = editDistance(it.key().toLower(), k);
                if (d < bestDistance) {
                    bestDistance = d;
                    best = k;
                }
            }
            if (best.isEmpty())
                issue(path, QCoreApplication::translate("ConfigRecord", "%1 is not a known field").arg(path));
            else
                issue(path, QCoreApplication::translate("ConfigRecord",
                                                        "%1 is not a known field (did you mean %2?)")
                                .arg(path, joinPath(prefix, best)));
        }
    }

    // A nested section: absent and null read as empty; anything else but an object
    // is an issue. Unknown keys inside are reported.
    QJsonObject section(const QJsonObject& parent, const QString& prefix, const QString& key) {
        const QString path = joinPath(prefix, key);
        const QJsonValue v = parent.value(key);
        if (v.isUndefined() || v.isNull())
            return {};
        if (!v.isObject()) {
            issue(path, QCoreApplication::translate("ConfigRecord", "%1 must be an object, got %2")
                            .arg(path, describeJsonValue(v)));
            return {};
        }
        const QJsonObject obj = v.toObject();
        checkKeys(obj, path, knownKeys(path));
        return obj;
    }

    void readInteger(const QJsonObject& obj, const QString& prefix, const char* key,
                     std::optional<qint64>& out) {
        const QString path = joinPath(prefix, QLatin1String(key));
        const QJsonValue v = obj.value(QLatin1String(key));
        if (v.isUndefined())
            return;
        constexpr double kExactLimit = 9007199254740992.0; // 2^53
        const double d = v.toDouble();
        if (!v.isDouble() || !std::isfinite(d) || d != std::floor(d) || d < -kExactLimit) {
            typeIssue(path, v);
            return;
        }
        const RecordField* f = findRecordField(path);
        const double maximum = (f && f->maximum > 0) ? f->maximum : kExactLimit;
        if (d > maximum) {
            issue(path, QCoreApplication::translate("ConfigRecord", "%1 must be at most %2, got %3")
                            .arg(path, QString::number(maximum, 'g', 16), describeJsonValue(v)));
            return;
        }
        out = qint64(d);
    }

    void readNumber(const QJsonObject& obj, const QString& prefix, const char* key,
                    std::optional<double>& out) {
        const QString path = joinPath(prefix, QLatin1String(key));
        const QJsonValue v = obj.value(QLatin1String(key));
        if (v.isUndefined())
            return;
        if (!v.isDouble() || !std::isfinite(v.toDouble())) {
            typeIssue(path, v);
            return;
        }
        out = v.toDouble();
    }

    void readCapacity(const QJsonObject& obj, const QString& prefix, const char* key,
                      std::optional<CapacityFactor>& out) {
        const QString path = joinPath(prefix, QLatin1String(key));
        const QJsonValue v = obj.value(QLatin1String(key));
        if (v.isUndefined())
            return;
        if (v.isNull() || (v.isString() && v.toString() == kNone)) {
            out = CapacityFactor::none();
            return;
        }
        if (!v.isDouble() || !std::isfinite(v.toDouble())) {
            typeIssue(path, v);
            return;
        }
        out = CapacityFactor::of(v.toDouble());
    }

    void readBool(const QJsonObject& obj, const QString& prefix, const char* key, std::optional<bool>& out) {
        const QString path = joinPath(prefix, QLatin1String(key));
        const QJsonValue v = obj.value(QLatin1String(key));
        if (v.isUndefined())
            return;
        if (!v.isBool()) {
            typeIssue(path, v);
            return;
        }
        out = v.toBool();
    }

    void readText(const QJsonObject& obj, const QString& prefix, const char* key,
                  std::optional<QString>& out) {
        const QString path = joinPath(prefix, QLatin1String(key));
        const QJsonValue v = obj.value(QLatin1String(key));
        if (v.isUndefined())
            return;
        if (!v.isString()) {
            typeIssue(path, v);
            return;
        }
        out = v.toString();
    }

    template <typename E, typename Parse>
    void readChoice(const QJsonObject& obj, const QString& prefix, const char* key, std::optional<E>& out,
                    Parse parse) {
        const QString path = joinPath(prefix, QLatin1String(key));
        const QJsonValue v = obj.value(QLatin1String(key));
        if (v.isUndefined())
            return;
        const std::optional<E> parsed = v.isString() ? parse(v.toString()) : std::nullopt;
        if (!parsed) {
            typeIssue(path, v);
            return;
        }
        out = parsed;
    }

private:
    QList<FieldIssue>* m_issues;
};

template <typename T> void put(QJsonObject& obj, const char* key, const std::optional<T>& v) {
    if (v)
        obj.insert(QLatin1String(key), QJsonValue(*v));
}

template <typename E> void putToken(QJsonObject& obj, const char* key, const std::optional<E>& v) {
    if (v)
        obj.insert(QLatin1String(key), token(*v));
}

void putSection(QJsonObject& obj, const char* key, const QJsonObject& section) {
    if (!section.isEmpty())
        obj.insert(QLatin1String(key), section);
}

} // namespace

QString token(ModelKind v) {
    return kModelKinds.token(v);
}
QString token(OverflowPolicy v) {
    return kOverflowPolicies.token(v);
}
QString token(DropOrder v) {
    return kDropOrders.token(v);
}
QString token(LoadBalancingMethod v) {
    return kLoadBalancingMethods.token(v);
}
QString token(RouterScoreFunction v) {
    return kRouterScoreFunctions.token(v);
}
std::optional<ModelKind> modelKindFromToken(const QString& t) {
    return kModelKinds.parse(t);
}
std::optional<OverflowPolicy> overflowPolicyFromToken(const QString& t) {
    return kOverflowPolicies.parse(t);
}
std::optional<DropOrder> dropOrderFromToken(const QString& t) {
    return kDropOrders.parse(t);
}
std::optional<LoadBalancingMethod> loadBalancingMethodFromToken(const QString& t) {
    return kLoadBalancingMethods.parse(t);
}
std::optional<RouterScoreFunction> routerScoreFunctionFromToken(const QString& t) {
    return kRouterScoreFunctions.parse(t);
}

bool MoeRecord::isEmpty() const {
    return *this == MoeRecord{};
}

bool ConfigRecord::isDense() const {
    return model.kind == ModelKind::Dense;
}

std::optional<qint64> ConfigRecord::worldSize() const {
    if (!cluster.nodes || !cluster.acceleratorsPerNode)
        return std::nullopt;
    return *cluster.nodes * *cluster.acceleratorsPerNode;
}

QJsonObject ConfigRecord::toJson() const {
    QJsonObject root;
    root.insert(QStringLiteral("format_version"), kRecordFormatVersion);
    if (!name.isEmpty())
        root.insert(QStringLiteral("name"), name);
    if (!notes.isEmpty())
        root.insert(QStringLiteral("notes"), notes);

    QJsonObject topo;
    put(topo, "description", cluster.topology.description);
    put(topo, "intra_node_link", cluster.topology.intraNodeLink);
    put(topo, "inter_node_fabric", cluster.topology.interNodeFabric);
    put(topo, "rail_optimized", cluster.topology.railOptimized);
    QJsonObject c;
    put(c, "nodes", cluster.nodes);
    put(c, "accelerators_per_node", cluster.acceleratorsPerNode);
    put(c, "accelerator_model", cluster.acceleratorModel);
    put(c, "network_type", cluster.networkType);
    putSection(c, "topology", topo);
    putSection(root, "cluster", c);

    QJsonObject lb;
    putToken(lb, "method", moe.loadBalancing.method);
    put(lb, "coefficient", moe.loadBalancing.coefficient);
    put(lb, "update_rate", moe.loadBalancing.updateRate);
    QJsonObject m;
    put(m, "experts", moe.experts);
    put(m, "shared_experts", moe.sharedExperts);
    put(m, "top_k", moe.topK);
    if (moe.capacityFactor) {
        m.insert(QStringLiteral("capacity_factor"),
                 moe.capacityFactor->isNone() ? QJsonValue(kNone) : QJsonValue(*moe.capacityFactor->factor));
    }
    putToken(m, "overflow_policy", moe.overflowPolicy);
    putToken(m, "drop_order", moe.dropOrder);
    putSection(m, "load_balancing", lb);
    putToken(m, "router_score_function", moe.routerScoreFunction);
    putSection(root, "moe", m);

    QJsonObject md;
    putToken(md, "kind", model.kind);
    put(md, "total_params", model.totalParams);
    put(md, "activated_params", model.activatedParams);
    put(md, "layers", model.layers);
    put(md, "moe_layers", model.moeLayers);
    put(md, "hidden_size", model.hiddenSize);
    put(md, "ffn_hidden_size", model.ffnHiddenSize);
    putSection(root, "model", md);

    QJsonObject p;
    put(p, "dp", parallelism.dp);
    put(p, "tp", parallelism.tp);
    put(p, "pp", parallelism.pp);
    put(p, "ep", parallelism.ep);
    put(p, "cp", parallelism.cp);
    put(p, "etp", parallelism.etp);
    put(p, "order", parallelism.order);
    putSection(root, "parallelism", p);

    QJsonObject b;
    put(b, "global_batch_tokens", batch.globalBatchTokens);
    put(b, "sequence_length", batch.sequenceLength);
    putSection(root, "batch", b);

    QJsonObject t;
    put(t, "data_loading_included", throughput.dataLoadingIncluded);
    put(t, "warmup_steps_excluded", throughput.warmupStepsExcluded);
    putSection(root, "throughput", t);

    QJsonObject r;
    put(r, "optimizer", recipe.optimizer);
    put(r, "lr_schedule", recipe.lrSchedule);
    put(r, "tokens_trained", recipe.tokensTrained);
    put(r, "validation_set", recipe.validationSet);
    putSection(root, "recipe", r);
    return root;
}

ConfigRecord ConfigRecord::fromJson(const QJsonObject& json, QList<FieldIssue>* issues) {
    ConfigRecord rec;
    RecordReader in(issues);
    const QString root;
    QStringList topKeys{QStringLiteral("format_version"), QStringLiteral("name"), QStringLiteral("notes")};
    topKeys << QStringLiteral("cluster") << QStringLiteral("moe") << QStringLiteral("model")
            << QStringLiteral("parallelism") << QStringLiteral("batch") << QStringLiteral("throughput")
            << QStringLiteral("recipe");
    in.checkKeys(json, root, topKeys);

    const QJsonValue version = json.value(QStringLiteral("format_version"));
    if (!version.isUndefined() && !(version.isDouble() && version.toDouble() == kRecordFormatVersion)) {
        in.issue(QStringLiteral("format_version"),
                 QCoreApplication::translate(
                     "ConfigRecord",
                     "format_version must be %1, got %2: this version of MoE Workbench reads config records "
                     "of format %1")
                     .arg(QString::number(kRecordFormatVersion), describeJsonValue(version)));
    }
    for (const auto& [key, target] : {std::pair{"name", &rec.name}, std::pair{"notes", &rec.notes}}) {
        const QJsonValue v = json.value(QLatin1String(key));
        if (v.isUndefined() || v.isNull())
            continue;
        if (v.isString())
            *target = v.toString();
        else
            in.issue(QLatin1String(key),
                     QCoreApplication::translate("ConfigRecord", "%1 must be a string, got %2")
                         .arg(QLatin1String(key), describeJsonValue(v)));
    }

    const QString cp = QStringLiteral("cluster");
    const QJsonObject c = in.section(json, root, cp);
    in.readInteger(c, cp, "nodes", rec.cluster.nodes);
    in.readInteger(c, cp, "accelerators_per_node", rec.cluster.acceleratorsPerNode);
    in.readText(c, cp, "accelerator_model", rec.cluster.acceleratorModel);
    in.readText(c, cp, "network_type", rec.cluster.networkType);
    const QString tp = QStringLiteral("cluster.topology");
    const QJsonObject topo = in.section(c, cp, QStringLiteral("topology"));
    in.readText(topo, tp, "description", rec.cluster.topology.description);
    in.readText(topo, tp, "intra_node_link", rec.cluster.topology.intraNodeLink);
    in.readText(topo, tp, "inter_node_fabric", rec.cluster.topology.interNodeFabric);
    in.readBool(topo, tp, "rail_optimized", rec.cluster.topology.railOptimized);

    const QString mp = QStringLiteral("moe");
    const QJsonObject m = in.section(json, root, mp);
    in.readInteger(m, mp, "experts", rec.moe.experts);
    in.readInteger(m, mp, "shared_experts", rec.moe.sharedExperts);
    in.readInteger(m, mp, "top_k", rec.moe.topK);
    in.readCapacity(m, mp, "capacity_factor", rec.moe.capacityFactor);
    in.readChoice(m, mp, "overflow_policy", rec.moe.overflowPolicy, overflowPolicyFromToken);
    in.readChoice(m, mp, "drop_order", rec.moe.dropOrder, dropOrderFromToken);
    const QString lp = QStringLiteral("moe.load_balancing");
    const QJsonObject lb = in.section(m, mp, QStringLiteral("load_balancing"));
    in.readChoice(lb, lp, "method", rec.moe.loadBalancing.method, loadBalancingMethodFromToken);
    in.readNumber(lb, lp, "coefficient", rec.moe.loadBalancing.coefficient);
    in.readNumber(lb, lp, "update_rate", rec.moe.loadBalancing.updateRate);
    in.readChoice(m, mp, "router_score_function", rec.moe.routerScoreFunction, routerScoreFunctionFromToken);

    const QString dp = QStringLiteral("model");
    const QJsonObject md = in.section(json, root, dp);
    in.readChoice(md, dp, "kind", rec.model.kind, modelKindFromToken);
    in.readInteger(md, dp, "total_params", rec.model.totalParams);
    in.readInteger(md, dp, "activated_params", rec.model.activatedParams);
    in.readInteger(md, dp, "layers", rec.model.layers);
    in.readInteger(md, dp, "moe_layers", rec.model.moeLayers);
    in.readInteger(md, dp, "hidden_size", rec.model.hiddenSize);
    in.readInteger(md, dp, "ffn_hidden_size", rec.model.ffnHiddenSize);

    const QString pp = QStringLiteral("parallelism");
    const QJsonObject p = in.section(json, root, pp);
    in.readInteger(p, pp, "dp", rec.parallelism.dp);
    in.readInteger(p, pp, "tp", rec.parallelism.tp);
    in.readInteger(p, pp, "pp", rec.parallelism.pp);
    in.readInteger(p, pp, "ep", rec.parallelism.ep);
    in.readInteger(p, pp, "cp", rec.parallelism.cp);
    in.readInteger(p, pp, "etp", rec.parallelism.etp);
    in.readText(p, pp, "order", rec.parallelism.order);

    const QString bp = QStringLiteral("batch");
    const QJsonObject b = in.section(json, root, bp);
    in.readInteger(b, bp, "global_batch_tokens", rec.batch.globalBatchTokens);
    in.readInteger(b, bp, "sequence_length", rec.batch.sequenceLength);

    const QString thp = QStringLiteral("throughput");
    const QJsonObject t = in.section(json, root, thp);
    in.readBool(t, thp, "data_loading_included", rec.throughput.dataLoadingIncluded);
    in.readInteger(t, thp, "warmup_steps_excluded", rec.throughput.warmupStepsExcluded);

    const QString rp = QStringLiteral("recipe");
    const QJsonObject r = in.section(json, root, rp);
    in.readText(r, rp, "optimizer", rec.recipe.optimizer);
    in.readText(r, rp, "lr_schedule", rec.recipe.lrSchedule);
    in.readInteger(r, rp, "tokens_trained", rec.recipe.tokensTrained);
    in.readText(r, rp, "validation_set", rec.recipe.validationSet);
    return rec;
}

} // namespace moewb::record
