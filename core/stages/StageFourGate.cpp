#include "stages/StageFourGate.h"

#include "stages/ImpossibleValues.h"
#include "common/Units.h"
#include "stages/StagesTr.h"

#include <QHash>
#include <cmath>

namespace moewb::stages {

namespace {

template <typename T> QString orUnknown(const std::optional<T>& v) {
    if (!v)
        return Stages::tr("unknown");
    if constexpr (std::is_same_v<T, QString>)
        return *v;
    else
        return QString::number(*v);
}

QString capacityText(const record::MoeRecord& moe) {
    if (!moe.capacityFactor)
        return Stages::tr("unknown");
    return moe.capacityFactor->isNone() ? Stages::tr("none") : QString::number(*moe.capacityFactor->factor);
}

} // namespace

QStringList applicabilityStatement(const record::ConfigRecord& source, const record::ConfigRecord& target) {
    QStringList lines;
    const auto& c = source.cluster;
    lines << Stages::tr("Nodes: %1 × %2 %3 (target cluster: %4 × %5 %6).")
                 .arg(orUnknown(c.nodes), orUnknown(c.acceleratorsPerNode), orUnknown(c.acceleratorModel),
                      orUnknown(target.cluster.nodes), orUnknown(target.cluster.acceleratorsPerNode),
                      orUnknown(target.cluster.acceleratorModel));
    lines << Stages::tr("Network and topology: %1; %2; intra-node %3; inter-node %4; rail-optimized %5.")
                 .arg(orUnknown(c.networkType), orUnknown(c.topology.description),
                      orUnknown(c.topology.intraNodeLink), orUnknown(c.topology.interNodeFabric),
                      c.topology.railOptimized
                          ? (*c.topology.railOptimized ? Stages::tr("yes") : Stages::tr("no"))
                          : Stages::tr("unknown"));
    if (!source.isDense())
        lines << Stages::tr("Experts: %1 per layer, top-%2, capacity factor %3, overflow %4.")
                     .arg(orUnknown(source.moe.experts), orUnknown(source.moe.topK), capacityText(source.moe),
                          source.moe.overflowPolicy ? record::token(*source.moe.overflowPolicy)
                                                    : Stages::tr("unknown"));
    const auto& p = source.parallelism;
    lines << Stages::tr("Parallelism: DP %1, TP %2, PP %3, EP %4, CP %5.")
                 .arg(orUnknown(p.dp), orUnknown(p.tp), orUnknown(p.pp), QString::number(p.epOrDefault()),
                      QString::number(p.cpOrDefault()));
    lines << Stages::tr("Outside these conditions, re-run stages 1–3 on the cluster in question.");
    return lines;
}

StageFourResult evaluateStageFour(const ClusterBaselineInput& source, const ClusterBaselineInput& target,
                                  const ThresholdSet& thresholds) {
    StageFourResult result;
    Verdict& v = result.verdict;
    const ThresholdUse diffMax = thresholds.get(QStringLiteral("stage4.baseline_diff_max"));
    v.thresholds = {diffMax};
    result.sourceRun = source.run.runName;
    result.targetRun = target.run.runName;
    result.plan =
        record::planComparison({{source.run.runName, source.record}, {target.run.runName, target.record}});
    if (result.plan.refused) {
        v.status = Verdict::Status::NotReady;
        v.reasons = refusalReasons(result.plan);
        v.nextStep = Stages::tr(
            "Complete the config records named above (moewb record validate), then re-run stage 4.");
        return result;
    }
    result.applicability = applicabilityStatement(source.record, target.record);
    const QStringList impossible = impossibleCommSamples(source.run.runName, source.run.samples) +
                                   impossibleCommSamples(target.run.runName, target.run.samples);
    if (!impossible.isEmpty()) {
        refuseImpossibleValues(v, impossible);
        return result;
    }

    const StageOneTable s = stageOneTable(source.run);
    const StageOneTable t = stageOneTable(target.run);
    QHash<quint64, const StageOneSizeRow*> targetRows;
    for (const StageOneSizeRow& r : t.rows)
        targetRows.insert(r.bytesPerRank, &r);
    QStringList stops;
    double worst = 0.0;
    for (const StageOneSizeRow& sr : s.rows) {
        const StageOneSizeRow* tr = targetRows.value(sr.bytesPerRank);
        if (!tr) {
            result.unmatchedSizes << sr.bytesPerRank;
            continue;
        }
        targetRows.remove(sr.bytesPerRank);
        StageFourSizeRow row;
        row.bytesPerRank = sr.bytesPerRank;
        row.effective = sr.effectiveBandwidth && tr->effectiveBandwidth;
        row.sourceBandwidth = row.effective ? *sr.effectiveBandwidth : sr.algBandwidth;
        row.targetBandwidth = row.effective ? *tr->effectiveBandwidth : tr->algBandwidth;
        row.relativeDiff = row.sourceBandwidth > 0.0
                               ? std::fabs(row.targetBandwidth - row.sourceBandwidth) / row.sourceBandwidth
                               : 0.0;
        row.stops = row.relativeDiff > diffMax.value;
        worst = std::max(worst, row.relativeDiff);
        if (row.stops)
            stops << Stages::tr("%1: %2 bandwidth %3 on %4 vs %5 on %6 differs by %7 > %8.")
                         .arg(units::formatBytes(double(row.bytesPerRank)),
                              row.effective ? Stages::tr("effective") : Stages::tr("algorithm"),
                              units::formatBandwidth(row.targetBandwidth), result.targetRun,
                              units::formatBandwidth(row.sourceBandwidth), result.sourceRun,
                              units::formatPercentAgainst(row.relativeDiff, diffMax.value), thresholdText(diffMax));
        result.rows.append(row);
    }
    for (auto it = targetRows.cbegin(); it != targetRows.cend(); ++it)
        result.unmatchedSizes << it.key();
    std::sort(result.unmatchedSizes.begin(), result.unmatchedSizes.end());
    if (!result.unmatchedSizes.isEmpty()) {
        QStringList sizes;
        for (quint64 b : std::as_const(result.unmatchedSizes))
            sizes << units::formatBytes(double(b));
        v.notes << Stages::tr("Measured on one cluster only, not compared: %1.")
                       .arg(sizes.join(QStringLiteral(", ")));
    }
    if (result.rows.isEmpty()) {
        v.status = Verdict::Status::NotReady;
        v.reasons << Stages::tr("No message size was measured on both clusters (%1 and %2).")
                         .arg(result.sourceRun, result.targetRun);
        v.nextStep =
            Stages::tr("Run stage 1 on the target cluster with the same sizes (-b -e -f) as the source.");
        return result;
    }
    if (!stops.isEmpty()) {
        v.status = Verdict::Status::Stop;
        v.reasons = stops;
        v.reasons << Stages::tr(
            "The conclusions are reference only, not for budget decisions, on the target cluster.");
        v.nextStep =
            Stages::tr("Find where the baselines differ (network, topology, NCCL version), or re-run "
                       "stages 1–3 on the target cluster and draw conclusions there.");
    } else {
        v.status = Verdict::Status::Pass;
        v.reasons << Stages::tr(
                         "All %1 common sizes: the target baseline (%2) differs from the source (%3) by at "
                         "most %4 ≤ %5.")
                         .arg(result.rows.size())
                         .arg(result.targetRun, result.sourceRun, units::formatPercent(worst),
                              thresholdText(diffMax));
        v.nextStep =
            Stages::tr("Re-run stages 2–3 on the target cluster to confirm; the conclusions hold under the "
                       "conditions stated.");
    }
    return result;
}

} // namespace moewb::stages
