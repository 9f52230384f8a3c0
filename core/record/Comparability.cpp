#include "record/Comparability.h"

#include "record/RecordFields.h"
#include "record/RecordValidation.h"

#include <QCoreApplication>

namespace moewb::record {

namespace {

// Capacity factors are grouped by the text shown in the title, so two groups never
// carry the same title (1.25 and 1.2500000000001 are one setting).
QString capacityText(std::optional<double> capacityFactor) {
    return capacityFactor ? QString::number(*capacityFactor, 'g', 12) : QStringLiteral("none");
}

// The value a field has in effect: documented defaults filled in.
QJsonValue effectiveValue(const ConfigRecord& record, const QJsonObject& json, const QString& path) {
    const QJsonValue v = recordFieldValue(json, path);
    if (!v.isUndefined())
        return v;
    if (path == QLatin1String("parallelism.cp"))
        return QJsonValue(qint64(1));
    if (path == QLatin1String("moe.shared_experts") && !record.isDense())
        return QJsonValue(qint64(0));
    if (record.isDense()) {
        if (path == QLatin1String("parallelism.ep"))
            return QJsonValue(qint64(1));
        if (path == QLatin1String("model.moe_layers"))
            return QJsonValue(qint64(0));
    }
    return v;
}

} // namespace

bool ComparisonPlan::singleTable() const {
    return !refused && groups.size() == 1;
}

QString ComparisonPlan::refusalText() const {
    if (!refused)
        return {};
    QStringList lines;
    lines << QCoreApplication::translate(
        "Comparability", "Comparison refused: %n run(s) have missing or invalid config-record fields.",
        nullptr, int(blocking.size()));
    for (const RunIssues& run : blocking) {
        lines << QCoreApplication::translate("Comparability", "Run \"%1\":").arg(run.runName);
        for (const FieldIssue& issue : run.issues)
            lines << QStringLiteral("  - ") + issue.message;
    }
    return lines.join(QLatin1Char('\n'));
}

QString comparisonGroupTitle(int topK, std::optional<double> capacityFactor, const QString& overflowPolicy) {
    return QCoreApplication::translate("Comparability", "top-k %1 · capacity factor %2 · overflow %3")
        .arg(QString::number(topK), capacityText(capacityFactor), overflowPolicy);
}

ComparisonPlan planComparison(const QList<ComparisonRun>& runs) {
    ComparisonPlan plan;
    for (const ComparisonRun& run : runs) {
        const QList<FieldIssue> issues = validate(run.record);
        if (!issues.isEmpty())
            plan.blocking.append({run.runName, issues});
    }
    if (!plan.blocking.isEmpty()) {
        plan.refused = true;
        return plan;
    }

    // MoE groups in order of first appearance; dense controls join every group.
    QStringList keys;
    QList<qsizetype> denseIndexes;
    for (qsizetype i = 0; i < runs.size(); ++i) {
        const ConfigRecord& r = runs[i].record;
        if (r.isDense()) {
            denseIndexes << i;
            continue;
        }
        const std::optional<double> cf = r.moe.capacityFactor->factor;
        const QString policy = token(*r.moe.overflowPolicy);
        const int topK = int(*r.moe.topK);
        const QString key = QStringLiteral("%1|%2|%3").arg(topK).arg(capacityText(cf), policy);
        const qsizetype g = keys.indexOf(key);
        if (g < 0) {
            keys << key;
            ComparisonGroup group;
            group.title = comparisonGroupTitle(topK, cf, policy);
            group.capacityFactor = cf;
            group.overflowPolicy = policy;
            group.topK = topK;
            plan.groups << group;
        }
    }
    if (plan.groups.isEmpty() && !denseIndexes.isEmpty()) {
        ComparisonGroup group;
        group.title = QCoreApplication::translate("Comparability", "dense");
        group.denseOnly = true;
        plan.groups << group;
    }
    // Second pass keeps every group's runs in input order, dense runs included.
    for (qsizetype i = 0; i < runs.size(); ++i) {
        const ConfigRecord& r = runs[i].record;
        for (qsizetype g = 0; g < plan.groups.size(); ++g) {
            ComparisonGroup& group = plan.groups[g];
            const bool member =
                r.isDense()
                    ? true
                    : (!group.denseOnly && group.topK == int(*r.moe.topK) &&
                       capacityText(group.capacityFactor) == capacityText(r.moe.capacityFactor->factor) &&
                       group.overflowPolicy == token(*r.moe.overflowPolicy));
            if (member)
                group.runNames << runs[i].runName;
        }
    }
    return plan;
}

QStringList differingFields(const QList<ConfigRecord>& records) {
    QStringList differing;
    if (records.size() < 2)
        return differing;
    QList<QJsonObject> jsons;
    for (const ConfigRecord& r : records)
        jsons << r.toJson();
    for (const RecordField& f : recordFields()) {
        const QJsonValue first = effectiveValue(records[0], jsons[0], f.path);
        for (qsizetype i = 1; i < records.size(); ++i) {
            if (effectiveValue(records[i], jsons[i], f.path) != first) {
                differing << f.path;
                break;
            }
        }
    }
    return differing;
}

} // namespace moewb::record
