#include "record/RecordValidation.h"

#include "record/JsonValueText.h"
#include "record/RecordFields.h"

#include <QCoreApplication>
#include <QSet>
#include <cmath>

namespace moewb::record {

namespace {

QString num(qint64 v) {
    return QString::number(v);
}

QString shown(const QJsonValue& v) {
    return describeJsonValue(v);
}

class RecordValidator {
public:
    explicit RecordValidator(const ConfigRecord& record)
        : m_record(record), m_json(record.toJson()), m_dense(record.isDense()) {}

    QList<FieldIssue> run() {
        bool moeSectionSeen = false;
        for (const RecordField& f : recordFields()) {
            const bool inMoe = f.path.startsWith(QLatin1String("moe."));
            if (m_dense && inMoe) {
                if (!moeSectionSeen && !m_record.moe.isEmpty()) {
                    add(QStringLiteral("moe"),
                        QCoreApplication::translate(
                            "RecordValidation",
                            "moe does not apply to a dense model (model.kind is \"dense\"): "
                            "remove the moe section"));
                }
                moeSectionSeen = true;
                continue;
            }
            const QJsonValue v = recordFieldValue(m_json, f.path);
            if (v.isUndefined())
                checkMissing(f);
            else
                checkValue(f, v);
        }
        checkCrossFieldRules();
        return m_issues;
    }

private:
    void add(const QString& field, const QString& message) {
        m_issues.append({field, message});
        m_bad.insert(field);
    }

    // Set and without an issue so far: safe to use in a cross-field rule.
    bool good(const QString& path) const {
        return !recordFieldValue(m_json, path).isUndefined() && !m_bad.contains(path);
    }
    qint64 integer(const QString& path) const { return recordFieldValue(m_json, path).toInteger(); }

    std::optional<OverflowPolicy> policy() const {
        return m_bad.contains(QStringLiteral("moe.overflow_policy")) ? std::nullopt
                                                                     : m_record.moe.overflowPolicy;
    }
    std::optional<LoadBalancingMethod> method() const { return m_record.moe.loadBalancing.method; }

    void checkMissing(const RecordField& f) {
        const QString& path = f.path;
        const auto missing = [&] {
            add(path, QCoreApplication::translate("RecordValidation", "%1 is missing: %2")
                          .arg(path, fieldHint(path)));
        };
        const auto missingWhen = [&](const QString& other, const QString& value) {
            add(path,
                QCoreApplication::translate("RecordValidation", "%1 is missing: %2 (required when %3 is %4)")
                    .arg(path, fieldHint(path), other, value));
        };
        if (path == QLatin1String("moe.drop_order")) {
            const auto p = policy();
            if (p == OverflowPolicy::Drop || p == OverflowPolicy::Residual)
                missingWhen(QStringLiteral("moe.overflow_policy"), token(*p));
            return;
        }
        if (path == QLatin1String("moe.load_balancing.coefficient")) {
            const auto m = method();
            if (m == LoadBalancingMethod::AuxLoss || m == LoadBalancingMethod::SeqAuxLoss)
                missingWhen(QStringLiteral("moe.load_balancing.method"), token(*m));
            return;
        }
        if (path == QLatin1String("moe.load_balancing.update_rate")) {
            const auto m = method();
            if (m == LoadBalancingMethod::AuxLossFreeBias)
                missingWhen(QStringLiteral("moe.load_balancing.method"), token(*m));
            return;
        }
        if (m_dense && (path == QLatin1String("model.moe_layers") || path == QLatin1String("parallelism.ep")))
            return; // not applicable to a dense model
        if (f.required)
            missing();
    }

    void checkValue(const RecordField& f, const QJsonValue& v) {
        const QString& path = f.path;
        const auto mustBe = [&] {
            add(path, QCoreApplication::translate("RecordValidation", "%1 must be %2, got %3")
                          .arg(path, expectedValueText(f), shown(v)));
        };
        const auto checkMaximum = [&](double d) {
            if (f.maximum > 0 && d > f.maximum) {
                add(path, QCoreApplication::translate("RecordValidation", "%1 must be at most %2, got %3")
                              .arg(path, QString::number(f.maximum, 'g', 16), shown(v)));
                return false;
            }
            return true;
        };
        switch (f.type) {
        case FieldType::PositiveInteger:
            if (v.toDouble() <= 0)
                return mustBe();
            if (!checkMaximum(v.toDouble()))
                return;
            break;
        case FieldType::NonNegativeInteger:
            if (v.toDouble() < 0)
                return mustBe();
            if (!checkMaximum(v.toDouble()))
                return;
            break;
        case FieldType::PositiveNumber:
        case FieldType::CapacityFactor: {
            if (f.type == FieldType::CapacityFactor && v.isString())
                break; // "none"
            const double d = v.toDouble();
            if (!std::isfinite(d) || d <= 0)
                return mustBe();
            if (!checkMaximum(d))
                return;
            break;
        }
        case FieldType::Text:
            if (v.toString().trimmed().isEmpty()) {
                add(path, QCoreApplication::translate("RecordValidation", "%1 is empty: %2")
                              .arg(path, fieldHint(path)));
                return;
            }
            break;
        case FieldType::Boolean:
        case FieldType::Choice:
            break;
        }
        checkApplicable(path, v);
    }

    // Fields that are set but do not apply, and values the kind of model rules out.
    void checkApplicable(const QString& path, const QJsonValue& v) {
        if (path == QLatin1String("moe.drop_order") && policy() == OverflowPolicy::Dropless) {
            add(path,
                QCoreApplication::translate(
                    "RecordValidation",
                    "%1 does not apply when moe.overflow_policy is dropless (no token overflows): remove it")
                    .arg(path));
        } else if (path == QLatin1String("moe.load_balancing.coefficient") && method() &&
                   *method() != LoadBalancingMethod::AuxLoss &&
                   *method() != LoadBalancingMethod::SeqAuxLoss) {
            add(path, QCoreApplication::translate("RecordValidation",
                                                  "%1 does not apply to load-balancing method %2: remove it")
                          .arg(path, token(*method())));
        } else if (path == QLatin1String("moe.load_balancing.update_rate") && method() &&
                   *method() != LoadBalancingMethod::AuxLossFreeBias) {
            add(path, QCoreApplication::translate("RecordValidation",
                                                  "%1 does not apply to load-balancing method %2: remove it")
                          .arg(path, token(*method())));
        } else if (path == QLatin1String("moe.experts") && !m_dense && v.toInteger() == 1) {
            add(path,
                QCoreApplication::translate(
                    "RecordValidation",
                    "%1 must be at least 2 for an MoE model, got 1: a model with one expert is a dense model "
                    "(set model.kind to \"dense\")")
                    .arg(path));
        } else if (path == QLatin1String("model.moe_layers")) {
            if (m_dense && v.toInteger() != 0) {
                add(path,
                    QCoreApplication::translate("RecordValidation", "%1 must be 0 for a dense model, got %2")
                        .arg(path, shown(v)));
            } else if (!m_dense && v.toInteger() == 0) {
                add(path, QCoreApplication::translate("RecordValidation",
                                                      "%1 must be at least 1 for an MoE model, got 0: a "
                                                      "model without MoE layers is a dense "
                                                      "model (set model.kind to \"dense\")")
                              .arg(path));
            }
        } else if (path == QLatin1String("parallelism.ep") && m_dense && v.toInteger() != 1) {
            add(path, QCoreApplication::translate(
                          "RecordValidation", "%1 must be 1 for a dense model (it has no experts), got %2")
                          .arg(path, shown(v)));
        }
    }

    void checkCrossFieldRules() {
        const QString topK = QStringLiteral("moe.top_k"), experts = QStringLiteral("moe.experts");
        const QString capacity = QStringLiteral("moe.capacity_factor"),
                      policyPath = QStringLiteral("moe.overflow_policy");
        const QString layers = QStringLiteral("model.layers"), moeLayers = QStringLiteral("model.moe_layers");
        const QString total = QStringLiteral("model.total_params"),
                      activated = QStringLiteral("model.activated_params");
        const QString dp = QStringLiteral("parallelism.dp"), tp = QStringLiteral("parallelism.tp"),
                      pp = QStringLiteral("parallelism.pp"), ep = QStringLiteral("parallelism.ep"),
                      cp = QStringLiteral("parallelism.cp");
        const QString nodes = QStringLiteral("cluster.nodes"),
                      perNode = QStringLiteral("cluster.accelerators_per_node");
        const QString gbt = QStringLiteral("batch.global_batch_tokens"),
                      seq = QStringLiteral("batch.sequence_length");
        const bool cpUsable = !m_bad.contains(cp);
        const qint64 cpSize = m_record.parallelism.cpOrDefault();

        if (!m_dense) {
            if (good(topK) && good(experts) && integer(topK) > integer(experts)) {
                add(topK,
                    QCoreApplication::translate(
                        "RecordValidation",
                        "%1 (%2) must not exceed moe.experts (%3): a token cannot be routed to more experts "
                        "than there are")
                        .arg(topK, num(integer(topK)), num(integer(experts))));
            }
            const auto p = policy();
            if (p && good(capacity)) {
                const CapacityFactor cf = *m_record.moe.capacityFactor;
                if (*p == OverflowPolicy::Dropless && !cf.isNone()) {
                    add(capacity,
                        QCoreApplication::translate(
                            "RecordValidation",
                            "%1 must be \"none\" when moe.overflow_policy is dropless (dropless experts "
                            "have no capacity limit), got %2")
                            .arg(capacity, QString::number(*cf.factor)));
                } else if (*p != OverflowPolicy::Dropless && cf.isNone()) {
                    add(capacity,
                        QCoreApplication::translate(
                            "RecordValidation",
                            "%1 must be a positive number when moe.overflow_policy is %2 (tokens overflow "
                            "only past a capacity), got \"none\"")
                            .arg(capacity, token(*p)));
                }
            }
            if (p == OverflowPolicy::Dropless && method() == LoadBalancingMethod::ExpertChoice) {
                add(policyPath,
                    QCoreApplication::translate(
                        "RecordValidation",
                        "%1 cannot be dropless with load-balancing method expert_choice: each expert "
                        "takes a fixed number of tokens (capacity factor × top-k × tokens / experts)")
                        .arg(policyPath));
            }
        }
        if (good(moeLayers) && good(layers) && integer(moeLayers) > integer(layers)) {
            add(moeLayers,
                QCoreApplication::translate("RecordValidation", "%1 (%2) must not exceed model.layers (%3)")
                    .arg(moeLayers, num(integer(moeLayers)), num(integer(layers))));
        }
        if (good(activated) && good(total) && integer(activated) > integer(total)) {
            add(activated, QCoreApplication::translate("RecordValidation",
                                                       "%1 (%2) must not exceed model.total_params (%3)")
                               .arg(activated, num(integer(activated)), num(integer(total))));
        }
        if (good(pp) && good(layers) && integer(pp) > integer(layers)) {
            add(pp, QCoreApplication::translate("RecordValidation",
                                                "%1 (%2) must not exceed model.layers (%3): every pipeline "
                                                "stage holds at least one layer")
                        .arg(pp, num(integer(pp)), num(integer(layers))));
        }
        if (good(dp) && good(tp) && good(pp) && cpUsable && good(nodes) && good(perNode)) {
            // Doubles are exact here: every factor is below 2^21 and a product past 2^53
            // cannot equal the world size anyway.
            const double product =
                double(integer(dp)) * double(integer(tp)) * double(integer(pp)) * double(cpSize);
            const qint64 world = integer(nodes) * integer(perNode);
            if (product != double(world)) {
                add(dp,
                    QCoreApplication::translate(
                        "RecordValidation",
                        "parallelism.dp × parallelism.tp × parallelism.pp × parallelism.cp = %1 × %2 × %3 "
                        "× %4 = %5 "
                        "must equal the world size cluster.nodes × cluster.accelerators_per_node = %6 × "
                        "%7 = %8")
                        .arg(num(integer(dp)), num(integer(tp)), num(integer(pp)), num(cpSize),
                             QString::number(product, 'g', 16), num(integer(nodes)), num(integer(perNode)),
                             num(world)));
            }
        }
        if (!m_dense && good(ep)) {
            if (good(experts) && integer(experts) % integer(ep) != 0) {
                add(ep, QCoreApplication::translate(
                            "RecordValidation",
                            "%1 (%2) must divide moe.experts (%3): every expert-parallel rank holds the same "
                            "number "
                            "of experts")
                            .arg(ep, num(integer(ep)), num(integer(experts))));
            } else if (good(dp) && cpUsable && (integer(dp) * cpSize) % integer(ep) != 0 &&
                       m_record.parallelism.etpOrDefault() == m_record.parallelism.tp.value_or(1)) {
                // With an expert tensor-parallel size other than tp (MoE parallel folding),
                // the expert grid is its own: only etp × ep × pp must divide the world (below).
                add(ep,
                    QCoreApplication::translate(
                        "RecordValidation",
                        "%1 (%2) must divide dp × cp (%3 × %4 = %5): expert-parallel groups are formed from "
                        "the "
                        "data- and context-parallel ranks (Megatron-Core convention)")
                        .arg(ep, num(integer(ep)), num(integer(dp)), num(cpSize), num(integer(dp) * cpSize)));
            }
        }
        const QString order = QStringLiteral("parallelism.order"), etp = QStringLiteral("parallelism.etp");
        if (good(order)) {
            const QString why = parallelismOrderProblem(m_record.parallelism.orderOrDefault());
            if (!why.isEmpty())
                add(order, QCoreApplication::translate("RecordValidation", "%1 %2").arg(order, why));
        }
        // With etp = tp (the default) "ep divides dp × cp" above already implies this.
        if (!m_dense && good(etp) && good(ep) && good(pp) && good(dp) && good(tp) && cpUsable) {
            const qint64 expertSlice = m_record.parallelism.etpOrDefault() * integer(ep) * integer(pp);
            const qint64 world = integer(dp) * integer(tp) * integer(pp) * cpSize;
            if (expertSlice > 0 && world % expertSlice != 0)
                add(etp,
                    QCoreApplication::translate(
                        "RecordValidation",
                        "expert tensor-parallel × expert-parallel × pipeline-parallel = %1 × %2 × %3 must divide "
                        "the world size dp × tp × pp × cp = %4 (Megatron-Core forms expert-data-parallel groups "
                        "from the rest)")
                        .arg(num(m_record.parallelism.etpOrDefault()), num(integer(ep)), num(integer(pp)),
                             num(world)));
        }
        if (good(gbt) && good(seq)) {
            if (integer(gbt) % integer(seq) != 0) {
                add(gbt, QCoreApplication::translate(
                             "RecordValidation",
                             "%1 (%2) must be a multiple of batch.sequence_length (%3): a step holds whole "
                             "sequences")
                             .arg(gbt, num(integer(gbt)), num(integer(seq))));
            } else if (good(dp) && (integer(gbt) / integer(seq)) % integer(dp) != 0) {
                add(gbt,
                    QCoreApplication::translate(
                        "RecordValidation",
                        "%1 (%2 tokens = %3 sequences) must split evenly over parallelism.dp (%4): every "
                        "data-parallel rank takes whole sequences")
                        .arg(gbt, num(integer(gbt)), num(integer(gbt) / integer(seq)), num(integer(dp))));
            }
        }
    }

    const ConfigRecord& m_record;
    const QJsonObject m_json;
    const bool m_dense;
    QList<FieldIssue> m_issues;
    QSet<QString> m_bad;
};

bool covers(const QString& structural, const QString& field) {
    return field == structural || field.startsWith(structural + QLatin1Char('.'));
}

} // namespace

QList<FieldIssue> validate(const ConfigRecord& record) {
    return RecordValidator(record).run();
}

QList<FieldIssue> mergeIssues(const QList<FieldIssue>& structural, const QList<FieldIssue>& validation) {
    QList<FieldIssue> merged = structural;
    for (const FieldIssue& s : structural) {
        if (s.field.isEmpty())
            return merged; // a syntax error: nothing else is meaningful
    }
    for (const FieldIssue& v : validation) {
        const bool shadowed = std::any_of(structural.begin(), structural.end(),
                                          [&](const FieldIssue& s) { return covers(s.field, v.field); });
        if (!shadowed && !merged.contains(v))
            merged.append(v);
    }
    return merged;
}

QList<FieldIssue> validateJson(const QJsonObject& json) {
    QList<FieldIssue> structural;
    const ConfigRecord record = ConfigRecord::fromJson(json, &structural);
    return mergeIssues(structural, validate(record));
}

QList<FieldIssue> validateParsed(const ParsedRecord& parsed) {
    return mergeIssues(parsed.issues, validate(parsed.record));
}

} // namespace moewb::record
