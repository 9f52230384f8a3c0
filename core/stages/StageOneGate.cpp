#include "stages/StageOneGate.h"

#include "common/Units.h"
#include "stages/ImpossibleValues.h"
#include "stages/StagesTr.h"
#include "stats/Bandwidth.h"
#include "stats/Statistics.h"

#include <QSet>
#include <algorithm>
#include <cmath>

namespace moewb::stages {

namespace {

// Rounds up to two significant digits: 0.0312 -> 0.032, 1.234 -> 1.3.
double roundUpTwoDigits(double v) {
    if (!(v > 0.0) || !std::isfinite(v))
        return v;
    const double scale = std::pow(10.0, std::floor(std::log10(v)) - 1.0);
    return std::ceil(v / scale - 1e-9) * scale;
}

QString runLabel(const StageOneTable& t) {
    return t.nodes ? Stages::tr("run %1 (%n node(s))", "", *t.nodes).arg(t.runName)
                   : Stages::tr("run %1").arg(t.runName);
}

// A 0-byte all-to-all moves nothing: its time is launch overhead, its CV noise on a
// few µs. Shown in the table, never gated nor used for suggestions.
bool gated(const StageOneSizeRow& r) {
    return r.bytesPerRank > 0;
}

// "1 MiB (0.230), 2 MiB (0.180), … 3 more": the sizes a grouped reason names.
QString sizeList(const QList<QPair<quint64, QString>>& sizes) {
    constexpr int kNamed = 4;
    QStringList parts;
    for (qsizetype i = 0; i < sizes.size() && i < kNamed; ++i)
        parts << Stages::tr("%1 (%2)").arg(units::formatBytes(double(sizes[i].first)), sizes[i].second);
    QString text = parts.join(QStringLiteral(", "));
    if (sizes.size() > kNamed)
        text += Stages::tr(" and %1 more").arg(sizes.size() - kNamed);
    return text;
}

} // namespace

StageOneTable stageOneTable(const StageOneRunInput& run) {
    StageOneTable table;
    table.runName = run.runName;
    table.clusterName = run.clusterName;
    table.world = run.world;
    table.nodes = run.nodes;

    QVector<store::CommSample> samples = run.samples;
    std::sort(samples.begin(), samples.end(), [](const store::CommSample& a, const store::CommSample& b) {
        if (a.bytesPerRank != b.bytesPerRank)
            return a.bytesPerRank < b.bytesPerRank;
        if (a.repeat != b.repeat)
            return a.repeat < b.repeat;
        return a.iteration < b.iteration;
    });
    std::vector<double> all;
    std::vector<double> repeatTimes;
    std::vector<double> repeatMedians;
    for (qsizetype i = 0; i < samples.size();) {
        const quint64 bytes = samples[i].bytesPerRank;
        all.clear();
        repeatMedians.clear();
        qsizetype j = i;
        while (j < samples.size() && samples[j].bytesPerRank == bytes) {
            const int repeat = samples[j].repeat;
            repeatTimes.clear();
            while (j < samples.size() && samples[j].bytesPerRank == bytes && samples[j].repeat == repeat) {
                all.push_back(samples[j].timeUs);
                repeatTimes.push_back(samples[j].timeUs);
                ++j;
            }
            repeatMedians.push_back(stats::median(repeatTimes));
        }
        StageOneSizeRow row;
        row.bytesPerRank = bytes;
        row.samples = int(all.size());
        row.repeats = int(repeatMedians.size());
        const stats::Summary s = stats::summarize(all);
        row.medianUs = s.median;
        row.p99Us = s.p99;
        row.algBandwidth = stats::algorithmBandwidth(double(bytes), s.median);
        if (run.world && *run.world >= 1)
            row.effectiveBandwidth = stats::effectiveBandwidthUniform(double(bytes), *run.world, s.median);
        row.repeatMeanUs = stats::mean(repeatMedians);
        row.repeatVarianceUs2 = stats::sampleVariance(repeatMedians);
        if (repeatMedians.size() >= 2)
            row.cv = stats::coefficientOfVariation(repeatMedians);
        row.p99OverMedian = s.median > 0.0 ? s.p99 / s.median : 0.0;
        table.rows.append(row);
        i = j;
    }
    return table;
}

QList<SuggestedThreshold> suggestStageOneThresholds(const QList<StageOneTable>& firstRound) {
    std::vector<double> cvs;
    std::vector<double> ratios;
    QStringList names;
    for (const StageOneTable& t : firstRound) {
        names << t.runName;
        for (const StageOneSizeRow& r : t.rows) {
            if (!gated(r))
                continue;
            if (r.cv && std::isfinite(*r.cv))
                cvs.push_back(*r.cv);
            if (r.p99OverMedian > 0.0)
                ratios.push_back(r.p99OverMedian);
        }
    }
    QList<SuggestedThreshold> out;
    const QString runs = names.join(QStringLiteral(", "));
    if (!cvs.empty()) {
        const double m = stats::median(cvs);
        out.append({QStringLiteral("stage1.cv_max"), roundUpTwoDigits(std::max(1.5 * m, 0.02)),
                    Stages::tr("1.5 × the median run-to-run CV (%1) over %n size(s) of %2; at least %3", "",
                               int(cvs.size()))
                        .arg(units::formatPercent(m), runs, units::formatPercent(0.02))});
    }
    if (!ratios.empty()) {
        const double m = stats::median(ratios);
        out.append({QStringLiteral("stage1.p99_over_median_max"), roundUpTwoDigits(1.5 * m),
                    Stages::tr("1.5 × the median P99/median (%1) over %n size(s) of %2", "", int(ratios.size()))
                        .arg(units::formatRatio(m), runs)});
    }
    return out;
}

QString concurrencyText(const StageOneRunInput& run) {
    if (run.epSize && run.world && *run.epSize > 0 && *run.world > *run.epSize)
        return Stages::tr("%1 concurrent all-to-alls of EP %2").arg(*run.world / *run.epSize).arg(*run.epSize);
    if (run.world)
        return Stages::tr("one %1-rank all-to-all").arg(run.epSize.value_or(*run.world));
    return Stages::tr("an all-to-all over an unknown number of ranks");
}

namespace {

// What the training runs: world / EP concurrent all-to-alls of EP ranks each.
QString trainingConcurrencyText(const StageOneTarget& t) {
    const int ep = t.expertParallel.value_or(1);
    if (t.world && *t.world > ep)
        return Stages::tr("%1 concurrent all-to-alls of EP %2").arg(*t.world / ep).arg(ep);
    return Stages::tr("one %1-rank all-to-all").arg(ep);
}

// Whether `run` measured the training's concurrency: EP groups of the record's EP size
// over the record's world, or one all-to-all when the training has one EP group.
bool sameConcurrency(const StageOneRunInput& run, const StageOneTarget& t) {
    if (!t.expertParallel || !run.world)
        return false;
    const int ep = *t.expertParallel;
    if (run.epSize && *run.epSize != *run.world)
        return *run.epSize == ep && (!t.world || *run.world == *t.world);
    return *run.world == ep && (!t.world || *t.world == ep);
}

StageOneCoverage coverageOf(const StageOneTarget& t, const QList<StageOneRunInput>& runs) {
    StageOneCoverage c;
    c.recordName = t.recordName;
    QList<const StageOneRunInput*> sameCluster;
    for (const StageOneRunInput& r : runs)
        if (r.clusterKey == t.clusterKey || t.clusterKey.isEmpty() || r.clusterKey.isEmpty())
            sameCluster << &r;
    QList<const StageOneRunInput*> atNodes;
    QStringList measuredNodes, unknownNodes;
    for (const StageOneRunInput* r : sameCluster) {
        if (!r->nodesMeasured) {
            unknownNodes << r->runName;
            continue;
        }
        if (!measuredNodes.contains(QString::number(*r->nodesMeasured)))
            measuredNodes << QString::number(*r->nodesMeasured);
        if (t.nodes && *r->nodesMeasured == *t.nodes)
            atNodes << r;
    }
    if (atNodes.isEmpty() && !unknownNodes.isEmpty()) {
        c.missing = Stages::tr("record %1 trains on %n node(s), but these baselines do not say on how many nodes "
                               "they ran: %2. A moe-probe report or a whole nccl-tests rank list does",
                               "", *t.nodes)
                        .arg(t.recordName, unknownNodes.join(QStringLiteral(", ")));
        return c;
    }
    if (atNodes.isEmpty()) {
        c.missing = measuredNodes.isEmpty()
                        ? Stages::tr("record %1 trains on %n node(s): no baseline at that node count on its "
                                     "cluster", "", *t.nodes)
                              .arg(t.recordName)
                        : Stages::tr("record %1 trains on %n node(s): no baseline at that node count; the "
                                     "baselines were measured at %2", "", *t.nodes)
                              .arg(t.recordName,
                                   [&] {
                                       QList<int> counts;
                                       for (const QString& n : measuredNodes)
                                           counts << n.toInt();
                                       std::sort(counts.begin(), counts.end());
                                       return nodeCountsText(counts);
                                   }());
        return c;
    }
    for (const StageOneRunInput* r : atNodes)
        if (sameConcurrency(*r, t)) {
            c.covered = true;
            c.baselineRun = r->runName;
            return c;
        }
    c.missing = Stages::tr("record %1: %2 was measured as %3; the training runs %4")
                    .arg(t.recordName, atNodes.first()->runName, concurrencyText(*atNodes.first()),
                         trainingConcurrencyText(t));
    return c;
}

} // namespace

StageOneResult evaluateStageOne(const QList<StageOneRunInput>& runs, const ThresholdSet& thresholds,
                                const QList<StageOneTarget>& targets) {
    StageOneResult result;
    Verdict& v = result.verdict;
    const ThresholdUse cvMax = thresholds.get(QStringLiteral("stage1.cv_max"));
    const ThresholdUse ratioMax = thresholds.get(QStringLiteral("stage1.p99_over_median_max"));
    v.thresholds = {cvMax, ratioMax};

    if (runs.isEmpty()) {
        v.status = Verdict::Status::NotReady;
        v.reasons << Stages::tr("No stage 1 run: the project has no all-to-all measurements.");
        v.nextStep = Stages::tr("Run the probe at the target node count (moewb run stage1) or import "
                                "nccl-tests alltoall_perf output (moewb import).");
        return result;
    }
    QStringList impossible;
    for (const StageOneRunInput& run : runs)
        impossible << impossibleCommSamples(run.runName, run.samples);
    if (!impossible.isEmpty()) {
        refuseImpossibleValues(v, impossible);
        return result;
    }

    QStringList missing;
    QStringList stops;
    QSet<int> nodeCounts;
    for (const StageOneRunInput& run : runs) {
        StageOneTable table = stageOneTable(run);
        if (run.nodes)
            nodeCounts.insert(*run.nodes);
        if (table.rows.isEmpty())
            missing << Stages::tr("%1 has no all-to-all samples.").arg(runLabel(table));
        if (!run.world)
            v.notes << Stages::tr(
                           "%1: the world size is unknown, so the effective bandwidth cannot be computed; "
                           "the table shows algbw (bytes per rank / median time) instead.")
                           .arg(runLabel(table));
        v.notes << Stages::tr("%1: measured as %2.").arg(runLabel(table), concurrencyText(run));
        // One sentence per kind and run, however many sizes share it.
        QList<quint64> oneRepeat;
        QStringList cvStops, tailStops;
        QList<QPair<quint64, QString>> cvOver, tailOver;
        int zeroRows = 0;
        for (const StageOneSizeRow& r : table.rows) {
            if (!gated(r)) {
                ++zeroRows;
                continue;
            }
            const QString size = units::formatBytes(double(r.bytesPerRank));
            if (!r.cv) {
                oneRepeat << r.bytesPerRank;
            } else if (*r.cv > cvMax.value) {
                cvOver.append({r.bytesPerRank, units::formatPercentAgainst(*r.cv, cvMax.value)});
                cvStops << Stages::tr("%1, %2: run-to-run CV %3 > %4.")
                               .arg(runLabel(table), size, units::formatPercentAgainst(*r.cv, cvMax.value), thresholdText(cvMax));
            }
            if (r.p99OverMedian > ratioMax.value) {
                tailOver.append({r.bytesPerRank, units::formatRatioAgainst(r.p99OverMedian, ratioMax.value)});
                tailStops << Stages::tr("%1, %2: P99 %3 is %4 the median %5 > %6.")
                                 .arg(runLabel(table), size, units::formatDuration(r.p99Us),
                                      units::formatRatioAgainst(r.p99OverMedian, ratioMax.value), units::formatDuration(r.medianUs),
                                      thresholdText(ratioMax));
            }
        }
        if (zeroRows > 0)
            v.notes << Stages::tr("%1: the 0-byte rows are shown but not gated and not used for suggested "
                                  "thresholds (an empty all-to-all times only the launch).")
                           .arg(runLabel(table));
        if (!oneRepeat.isEmpty()) {
            const QString how = run.tool == BaselineTool::NcclTests
                                    ? Stages::tr("run alltoall_perf -N 5 or import several files")
                                    : Stages::tr("run the probe with -R 5 or more");
            missing << (oneRepeat.size() == 1
                            ? Stages::tr("%1, %2: one repeat; run-to-run variation needs at least 2 — %3.")
                                  .arg(runLabel(table), units::formatBytes(double(oneRepeat.first())), how)
                            : Stages::tr("%1: %2 sizes have one repeat each; run-to-run variation needs at least "
                                         "2 — %3.")
                                  .arg(runLabel(table))
                                  .arg(oneRepeat.size())
                                  .arg(how));
        }
        stops << (cvOver.size() <= 1 ? cvStops
                                     : QStringList{Stages::tr("%1: run-to-run CV > %2 at %n size(s): %3.", "",
                                                                  int(cvOver.size()))
                                                       .arg(runLabel(table), thresholdText(cvMax), sizeList(cvOver))});
        stops << (tailOver.size() <= 1 ? tailStops
                                       : QStringList{Stages::tr("%1: P99/median > %2 at %n size(s): %3.", "",
                                                                    int(tailOver.size()))
                                                         .arg(runLabel(table), thresholdText(ratioMax),
                                                              sizeList(tailOver))});
        result.tables.append(table);
    }

    if (nodeCounts.size() >= 2) {
        for (const StageOneTable& t : std::as_const(result.tables)) {
            if (!t.nodes)
                continue;
            for (const StageOneSizeRow& r : t.rows)
                result.nodeComparison.append({*t.nodes, t.runName, r.bytesPerRank, r.medianUs,
                                              r.effectiveBandwidth.value_or(r.algBandwidth),
                                              r.effectiveBandwidth.has_value()});
        }
        std::sort(result.nodeComparison.begin(), result.nodeComparison.end(),
                  [](const NodeCountPoint& a, const NodeCountPoint& b) {
                      return a.bytesPerRank != b.bytesPerRank ? a.bytesPerRank < b.bytesPerRank
                                                              : a.nodes < b.nodes;
                  });
    }
    result.suggestions = suggestStageOneThresholds(result.tables);

    // Measured the way each training communicates (seed 000 §4 step 1).
    QStringList uncovered;
    QStringList recordGaps;
    for (const StageOneTarget& t : targets) {
        if (!t.nodes || !t.expertParallel) {
            // Without them no baseline can be shown to match the training: not a pass.
            QStringList fields;
            if (!t.nodes)
                fields << QStringLiteral("cluster.nodes");
            if (!t.expertParallel)
                fields << QStringLiteral("parallelism.ep");
            recordGaps << Stages::tr("record %1 does not give %2, so no baseline can be matched to the node count "
                                     "and EP concurrency it trains at")
                              .arg(t.recordName, fields.join(Stages::tr(" and ")));
            continue;
        }
        StageOneCoverage c = coverageOf(t, runs);
        if (c.covered)
            v.notes << Stages::tr("record %1: baseline %2 matches its %n node(s) and its concurrency.", "", *t.nodes)
                           .arg(t.recordName, c.baselineRun);
        else
            uncovered << c.missing;
        result.coverage << c;
    }
    // Advice names the tool the baselines came from; the probe when none says.
    bool fromNccl = false, fromProbe = false;
    for (const StageOneRunInput& run : runs) {
        fromNccl = fromNccl || run.tool == BaselineTool::NcclTests;
        fromProbe = fromProbe || run.tool != BaselineTool::NcclTests;
    }
    const QString probeMeasure =
        Stages::tr("Measure it the way the training communicates: moewb run stage1 --cluster NAME --record RECORD "
                   "--nodes N (EP groups of the record's EP size, all at once).");
    const QString ncclMeasure =
        Stages::tr("Measure it the way the training communicates: run nccl-tests on N nodes, one rank per GPU "
                   "(mpirun -np RANKS or srun), e.g. alltoall_perf -b 1M -e 256M -f 2 -n 20 -w 5 -g 1 -N 5, with "
                   "NCCL_TESTS_SPLIT_MASK set so that the ranks form EP groups of the record's EP size; then "
                   "import its output (moewb import).");
    const QString probeRepeats =
        Stages::tr("Re-run stage 1 with repeats (-R 5 or more) so run-to-run variation can be measured.");
    const QString ncclRepeats =
        Stages::tr("Re-run alltoall_perf with -N 5 or more (each cycle printed as one repeat) so run-to-run "
                   "variation can be measured.");
    const auto byTool = [&](const QString& probe, const QString& nccl) {
        if (fromNccl && fromProbe)
            return Stages::tr("moe-probe runs: %1 nccl-tests runs: %2").arg(probe, nccl);
        return fromNccl ? nccl : probe;
    };
    const QString measureIt = byTool(probeMeasure, ncclMeasure);
    for (const QString& u : uncovered)
        missing << u + QLatin1Char('.');
    for (const QString& g : recordGaps)
        missing << g + QLatin1Char('.');

    if (!stops.isEmpty()) {
        v.status = Verdict::Status::Stop;
        v.reasons = stops + missing;
        v.nextStep = Stages::tr("Investigate the network and topology (link and NIC errors, rail placement, "
                                "congestion from other jobs), then re-run stage 1. Do not start stage 2.");
    } else if (!missing.isEmpty()) {
        v.status = Verdict::Status::NotReady;
        v.reasons = missing;
        v.nextStep =
            !uncovered.isEmpty() ? measureIt
            : !recordGaps.isEmpty()
                ? Stages::tr("Complete the record: give its node count (cluster.nodes) and its EP size "
                             "(parallelism.ep), then evaluate stage 1 again.")
                : byTool(probeRepeats, ncclRepeats);
    } else {
        v.status = Verdict::Status::Pass;
        int sizes = 0;
        double worstCv = 0.0;
        double worstRatio = 0.0;
        for (const StageOneTable& t : std::as_const(result.tables))
            for (const StageOneSizeRow& r : t.rows) {
                if (!gated(r))
                    continue;
                ++sizes;
                worstCv = std::max(worstCv, r.cv.value_or(0.0));
                worstRatio = std::max(worstRatio, r.p99OverMedian);
            }
        v.reasons
            << Stages::tr(
                   "All %1 sizes in %n run(s): run-to-run CV at most %2 ≤ %3; P99/median at most %4 ≤ %5.", "",
                   int(result.tables.size()))
                   .arg(sizes)
                   .arg(units::formatPercent(worstCv), thresholdText(cvMax), units::formatRatio(worstRatio),
                        thresholdText(ratioMax));
        v.nextStep =
            Stages::tr("Go on to stage 2: compare the MoE with a dense control of similar activated size.");
    }
    return result;
}

} // namespace moewb::stages
