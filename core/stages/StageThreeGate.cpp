#include "stages/StageThreeGate.h"

#include "stages/ImpossibleValues.h"
#include "stages/OverloadFactorLoad.h"
#include "store/LayerLabel.h"

#include "common/Units.h"
#include "stages/StagesTr.h"
#include "stats/LoadImbalance.h"

#include <QHash>
#include <QSet>
#include <algorithm>
#include <cmath>
#include <limits>
#include <span>
#include <vector>

namespace moewb::stages {

namespace {

bool isDropPolicy(const record::ConfigRecord& r) {
    return r.moe.overflowPolicy == record::OverflowPolicy::Drop ||
           r.moe.overflowPolicy == record::OverflowPolicy::Residual;
}

QString balancingText(const record::LoadBalancingRecord& lb) {
    if (!lb.method)
        return Stages::tr("(not recorded)");
    QString s = record::token(*lb.method);
    if (lb.coefficient)
        s += Stages::tr(" (coefficient %1)").arg(*lb.coefficient);
    if (lb.updateRate)
        s += Stages::tr(" (update rate %1)").arg(*lb.updateRate);
    return s;
}

// What stage 3 says of a run's busiest-device share, naming where it came from.
QString busiestShareNote(const QString& runName, const StageThreeRunSummary& s) {
    if (s.busiestDeviceSource == BusiestShareSource::OverloadFactor)
        return overloadShareNote(runName, s);
    const QString share = units::formatPercent(*s.busiestDeviceShare);
    switch (s.busiestDeviceSource) {
    case BusiestShareSource::ProfilerTraces:
        return Stages::tr("run %1: busiest-device share %2 of step time (measured: profiler traces, mean over %n "
                          "traced step(s): the busiest rank's compute + communication without waiting / its step "
                          "time); the mean device %3.",
                          "", int(s.tracedSteps))
            .arg(runName, share, s.meanDeviceShare ? units::formatPercent(*s.meanDeviceShare) : QStringLiteral("-"));
    case BusiestShareSource::Collector:
        return Stages::tr("run %1: busiest-device share %2 of step time (measured by the collector: the "
                          "busiest rank's expert compute + all-to-all time / its step time).")
            .arg(runName, share);
    case BusiestShareSource::Measured:
        return Stages::tr("run %1: busiest-device share %2 of step time (measured).").arg(runName, share);
    default:
        return Stages::tr("run %1: busiest-device share %2 (estimated from expert placement over EP %3: "
                          "busiest rank's tokens / all tokens of the layer; even load = %4).")
            .arg(runName, share)
            .arg(s.expertParallel)
            .arg(units::formatPercent(1.0 / std::max(1, s.expertParallel)));
    }
}

// Mean of a metric over steps in [first, last]; nullopt when none there.
std::optional<double> windowMean(const QVector<store::StepMetric>& metrics, const QString& name, qint64 first,
                                 qint64 last) {
    double sum = 0.0;
    int n = 0;
    for (const store::StepMetric& m : metrics) {
        if (m.name != name || m.step < first || m.step > last || !std::isfinite(m.value))
            continue;
        sum += m.value;
        ++n;
    }
    return n > 0 ? std::optional<double>(sum / n) : std::nullopt;
}

// The last `window` distinct steps of a metric when there is no expert load.
std::pair<qint64, qint64> metricWindow(const QVector<store::StepMetric>& metrics, const QString& name,
                                       qint64 window) {
    QVector<qint64> steps;
    for (const store::StepMetric& m : metrics)
        if (m.name == name)
            steps.append(m.step);
    if (steps.isEmpty())
        return {0, -1};
    std::sort(steps.begin(), steps.end());
    steps.erase(std::unique(steps.begin(), steps.end()), steps.end());
    const qsizetype from = std::max<qsizetype>(0, steps.size() - qsizetype(window));
    return {steps[from], steps.last()};
}

// A run without expert counts judged on Megatron-Core's per-layer overload factor.
void judgeOnOverloadFactor(StageThreeRunSummary& s, const EpRankLoad& o) {
    if (o.windowSteps == 0)
        return;
    s.loadRatioSource = LoadRatioSource::EpRankOverload;
    s.layers = o.layers;
    s.stepsWithLoad = o.stepsWithLoad;
    s.windowSteps = o.windowSteps;
    s.windowFirstStep = o.windowFirstStep;
    s.windowLastStep = o.windowLastStep;
    s.worstLayer = o.worstLayer;
    s.worstLayerFractionAbove = o.worstLayerFractionAbove;
    s.windowMaxRatio = o.windowMaxRatio;
    s.windowMeanRatio = o.windowMeanRatio;
    s.ratioOverSteps = o.ratioOverSteps;
}

bool blocksOrdered(const QVector<store::ExpertLoadBlock>& blocks) {
    for (qsizetype i = 1; i < blocks.size(); ++i) {
        const auto& a = blocks[i - 1];
        const auto& b = blocks[i];
        if (a.step > b.step || (a.step == b.step && a.layer > b.layer))
            return false;
    }
    return true;
}

} // namespace

QString dropRateSourceText(DropRateSource source) {
    switch (source) {
    case DropRateSource::Metric:
        return Stages::tr("measured: tokens dropped / tokens, drop_rate");
    case DropRateSource::DroppedTokensMetric:
        return Stages::tr("measured: dropped_tokens / global batch tokens × MoE layers");
    case DropRateSource::EstimatedFromLoad:
        return Stages::tr("estimated from expert load and capacity factor: dropped assignments / assignments, an "
                          "upper bound of the tokens dropped / tokens");
    case DropRateSource::NotApplicable:
        return Stages::tr("not applicable: no tokens are dropped under this overflow policy");
    case DropRateSource::Unknown:
        break;
    }
    return Stages::tr("unknown");
}

StageThreeRunSummary summarizeStageThreeRun(const ExpertLoadRunInput& run, const ThresholdSet& thresholds) {
    StageThreeRunSummary s;
    s.runName = run.runName;
    const double ratioMax = thresholds.get(QStringLiteral("stage3.load_ratio_max")).value;
    const qint64 window =
        std::max<qint64>(1, qint64(thresholds.get(QStringLiteral("stage3.window_steps")).value));
    const record::ConfigRecord& rec = run.record;
    s.expertParallel = int(rec.parallelism.ep.value_or(0));

    // Sorting is only needed for input that did not come from the store.
    QVector<store::ExpertLoadBlock> sortedCopy;
    const QVector<store::ExpertLoadBlock>* blocksPtr = &run.blocks;
    if (!blocksOrdered(run.blocks)) {
        sortedCopy = run.blocks;
        std::stable_sort(sortedCopy.begin(), sortedCopy.end(), [](const auto& a, const auto& b) {
            return a.step != b.step ? a.step < b.step : a.layer < b.layer;
        });
        blocksPtr = &sortedCopy;
    }
    const QVector<store::ExpertLoadBlock>& blocks = *blocksPtr;

    const bool estimateDrops =
        isDropPolicy(rec) && rec.moe.capacityFactor && !rec.moe.capacityFactor->isNone();
    const double capacityFactor = estimateDrops ? *rec.moe.capacityFactor->factor : 0.0;

    // One row per (step, layer): from the store's summary when given (no counts read),
    // else from the blocks. `block` is set where counts are needed and present.
    struct Row {
        qint64 step = 0;
        int layer = 0;
        int experts = 0;
        std::uint64_t total = 0;
        std::uint32_t max = 0;
        std::optional<std::uint64_t> busiest; // for s.expertParallel
        const store::ExpertLoadBlock* block = nullptr;
    };
    std::vector<Row> rows;
    if (run.summary.isEmpty()) {
        rows.reserve(std::size_t(blocks.size()));
        for (const store::ExpertLoadBlock& b : blocks) {
            const std::span<const std::uint32_t> counts(b.tokensPerExpert.constData(),
                                                        std::size_t(b.tokensPerExpert.size()));
            const stats::LoadBlockSummary sum = stats::summarizeLoad(counts);
            rows.push_back(Row{b.step, b.layer, int(counts.size()), sum.total, sum.maxCount, std::nullopt, &b});
        }
    } else {
        rows.reserve(std::size_t(run.summary.size()));
        for (const store::ExpertLoadSummaryRow& r : run.summary) {
            Row row{r.step, r.layer, r.experts, r.sum, r.max, std::nullopt, nullptr};
            if (s.expertParallel > 0 && r.expertParallel == s.expertParallel)
                row.busiest = r.busiestRankTokens;
            rows.push_back(row);
        }
        // The store's summary comes ordered (step, then layer); other input is sorted.
        const auto before = [](const Row& a, const Row& b) {
            return a.step != b.step ? a.step < b.step : a.layer < b.layer;
        };
        if (!std::is_sorted(rows.begin(), rows.end(), before))
            std::stable_sort(rows.begin(), rows.end(), before);
        // Counts only where the summary cannot answer (the loader reads the window's).
        const bool needCounts = estimateDrops || std::any_of(rows.begin(), rows.end(), [&](const Row& r) {
                                    return s.expertParallel > 0 && !r.busiest;
                                });
        if (needCounts && !blocks.isEmpty()) {
            QHash<QPair<qint64, int>, const store::ExpertLoadBlock*> byKey;
            byKey.reserve(blocks.size());
            for (const store::ExpertLoadBlock& b : blocks)
                byKey.insert({b.step, b.layer}, &b);
            for (Row& r : rows)
                r.block = byKey.value({r.step, r.layer}, nullptr);
        }
    }

    // Distinct steps, the window's first step and the layer count, without touching counts.
    qint64 distinct = 0;
    int maxLayer = -1;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        if (i == 0 || rows[i].step != rows[i - 1].step)
            ++distinct;
        maxLayer = std::max(maxLayer, rows[i].layer);
    }
    s.stepsWithLoad = distinct;
    s.layers = maxLayer + 1;
    qint64 windowFirst = 0;
    {
        qint64 seen = 0;
        for (qsizetype i = qsizetype(rows.size()) - 1; i >= 0; --i) {
            if (i == qsizetype(rows.size()) - 1 || rows[std::size_t(i)].step != rows[std::size_t(i) + 1].step) {
                if (++seen > window)
                    break;
                windowFirst = rows[std::size_t(i)].step;
            }
        }
    }

    std::vector<qint64> aboveInWindow(std::size_t(std::max(0, s.layers)), 0);
    std::vector<qint64> stepsInWindow(std::size_t(std::max(0, s.layers)), 0);
    s.ratioOverSteps.reserve(distinct);
    std::uint64_t routed = 0, overflow = 0;
    double shareSum = 0.0;
    qint64 shareCount = 0;
    double windowRatioSum = 0.0;
    qint64 windowRatioCount = 0;
    qint64 windowStepCount = 0;

    // The single pass over every (step, layer).
    LoadRatioPoint point;
    double stepRatioSum = 0.0;
    int stepRatioCount = 0;
    auto flushStep = [&]() {
        if (stepRatioCount > 0) {
            point.meanRatio = stepRatioSum / stepRatioCount;
            s.ratioOverSteps.append(point);
        }
    };
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const Row& b = rows[i];
        if (i == 0 || b.step != rows[i - 1].step) {
            if (i > 0)
                flushStep();
            point = {b.step, 0.0, 0.0};
            stepRatioSum = 0.0;
            stepRatioCount = 0;
            if (b.step >= windowFirst) {
                ++windowStepCount;
                if (windowStepCount == 1)
                    s.windowFirstStep = b.step;
                s.windowLastStep = b.step;
            }
        }
        s.experts = std::max(s.experts, b.experts);
        if (b.total == 0)
            continue;
        // max / mean, as stats::summarizeLoad computes it.
        const double loadRatio = double(b.max) * double(b.experts) / double(b.total);
        point.maxRatio = std::max(point.maxRatio, loadRatio);
        stepRatioSum += loadRatio;
        ++stepRatioCount;
        if (b.step < windowFirst || b.layer < 0)
            continue;
        const auto layer = std::size_t(b.layer);
        ++stepsInWindow[layer];
        if (loadRatio > ratioMax)
            ++aboveInWindow[layer];
        windowRatioSum += loadRatio;
        ++windowRatioCount;
        s.windowMaxRatio = std::max(s.windowMaxRatio, loadRatio);
        const std::span<const std::uint32_t> counts =
            b.block ? std::span<const std::uint32_t>(b.block->tokensPerExpert.constData(),
                                                     std::size_t(b.block->tokensPerExpert.size()))
                    : std::span<const std::uint32_t>();
        if (estimateDrops && b.block) {
            routed += b.total;
            overflow += stats::overflowAssignments(counts,
                                                   stats::expertCapacity(capacityFactor, b.total, int(counts.size())));
        }
        if (s.expertParallel > 0 && (b.busiest || b.block)) {
            const std::uint64_t busiest = b.busiest ? *b.busiest : stats::busiestRankLoad(counts, s.expertParallel);
            shareSum += double(busiest) / double(b.total);
            ++shareCount;
        }
    }
    if (!rows.empty())
        flushStep();
    s.windowSteps = windowStepCount;
    s.windowMeanRatio = windowRatioCount > 0 ? windowRatioSum / double(windowRatioCount) : 0.0;
    std::tie(s.worstLayer, s.worstLayerFractionAbove) = worstLayerAbove(aboveInWindow, stepsInWindow);
    if (s.experts == 0 && rec.moe.experts)
        s.experts = int(*rec.moe.experts);
    if (s.stepsWithLoad == 0)
        judgeOnOverloadFactor(s, epRankLoadFromOverload(run.metrics, window, ratioMax));

    // Steps the drop rate and loss are read over: the load window, else the metric's own.
    qint64 first = s.windowFirstStep, last = s.windowLastStep;
    if (s.windowSteps == 0)
        std::tie(first, last) = metricWindow(run.metrics, QStringLiteral("drop_rate"), window);

    const auto policy = rec.moe.overflowPolicy;
    if (policy == record::OverflowPolicy::Dropless || policy == record::OverflowPolicy::Reroute) {
        s.dropSource = DropRateSource::NotApplicable;
    } else if (auto m = windowMean(run.metrics, QStringLiteral("drop_rate"), first, last)) {
        s.dropSource = DropRateSource::Metric;
        s.dropRate = m;
    } else if (auto d = windowMean(run.metrics, QStringLiteral("dropped_tokens"), first, last);
               d && rec.batch.globalBatchTokens && rec.moe.topK && rec.model.moeLayers &&
               *rec.model.moeLayers > 0) {
        // dropped_tokens: tokens that lost all their assignments in a step, over all MoE
        // layers; a step passes global-batch tokens through each MoE layer.
        s.dropSource = DropRateSource::DroppedTokensMetric;
        s.dropRate = *d / (double(*rec.batch.globalBatchTokens) * double(*rec.model.moeLayers));
    } else if (estimateDrops && routed > 0) {
        s.dropSource = DropRateSource::EstimatedFromLoad;
        s.dropRate = double(overflow) / double(routed);
        s.assignmentDropRate = s.dropRate;
    }
    if (s.dropSource != DropRateSource::NotApplicable) {
        if (auto a = windowMean(run.metrics, QStringLiteral("assignment_drop_rate"), first, last))
            s.assignmentDropRate = a;
        else if (auto da = windowMean(run.metrics, QStringLiteral("dropped_assignments"), first, last);
                 da && rec.batch.globalBatchTokens && rec.moe.topK && rec.model.moeLayers && *rec.model.moeLayers > 0)
            s.assignmentDropRate = *da / (double(*rec.batch.globalBatchTokens) * double(*rec.moe.topK) *
                                          double(*rec.model.moeLayers));
        s.partlyDroppedRate = windowMean(run.metrics, QStringLiteral("partly_dropped_rate"), first, last);
    }

    const qint64 allSteps = std::numeric_limits<qint64>::max();
    if (auto traced = windowMean(run.metrics, QStringLiteral("trace_busiest_share"), 0, allSteps)) {
        s.busiestDeviceShare = traced;
        s.busiestDeviceEstimated = false;
        s.busiestDeviceSource = BusiestShareSource::ProfilerTraces;
        s.meanDeviceShare = windowMean(run.metrics, QStringLiteral("trace_mean_share"), 0, allSteps);
        for (const store::StepMetric& m : run.metrics)
            s.tracedSteps += m.name == QLatin1String("trace_busiest_share") && std::isfinite(m.value) ? 1 : 0;
    } else if (auto measured = windowMean(run.metrics, QStringLiteral("busiest_device_share"), first, last)) {
        s.busiestDeviceShare = measured;
        s.busiestDeviceEstimated = false;
        s.busiestDeviceSource =
            run.environment.value(QLatin1String("busiest_device_share_source")).toString() == QLatin1String("moewb-collect")
                ? BusiestShareSource::Collector
                : BusiestShareSource::Measured;
    } else if (auto overload = meanMaxOverload(run.metrics, s.windowSteps > 0 ? s.windowFirstStep : 1,
                                               s.windowSteps > 0 ? s.windowLastStep : 0, window);
               overload && s.expertParallel > 0) {
        s.maxOverloadFactor = overload;
        s.busiestDeviceShare = *overload / double(s.expertParallel);
        s.busiestDeviceEstimated = false;
        s.busiestDeviceSource = BusiestShareSource::OverloadFactor;
    } else if (shareCount > 0) {
        s.busiestDeviceShare = shareSum / double(shareCount);
        s.busiestDeviceEstimated = true;
        s.busiestDeviceSource = BusiestShareSource::Estimated;
    }
    s.windowLoss = windowMean(run.metrics, QStringLiteral("lm_loss"), first, last);

    const double fraction = thresholds.get(QStringLiteral("stage3.load_ratio_window_fraction")).value;
    s.loadRatioStops = s.worstLayer >= 0 && s.worstLayerFractionAbove > fraction;
    s.dropRateStops =
        s.dropRate && *s.dropRate > thresholds.get(QStringLiteral("stage3.drop_rate_max")).value;
    return s;
}

StageTwoStaleness stageTwoStaleness(const QList<TrainingRunInput>& stageTwoMoeRuns,
                                    const QList<ExpertLoadRunInput>& stageThreeRuns) {
    StageTwoStaleness out;
    if (stageTwoMoeRuns.isEmpty())
        return out;
    QStringList used;
    QStringList usedBy;
    for (const TrainingRunInput& r : stageTwoMoeRuns) {
        if (r.record.isDense())
            continue;
        const QString m = balancingText(r.record.moe.loadBalancing);
        if (!used.contains(m))
            used << m;
        usedBy << r.runName;
    }
    if (used.isEmpty())
        return out;
    QStringList changed;
    for (const ExpertLoadRunInput& r : stageThreeRuns) {
        const QString m = balancingText(r.record.moe.loadBalancing);
        if (!used.contains(m))
            changed << Stages::tr("%1 uses %2").arg(r.runName, m);
    }
    if (changed.isEmpty())
        return out;
    out.stale = true;
    out.reason =
        Stages::tr("Stage 2 is stale: the load-balancing method changed (%1; stage 2 compared %2 with %3). "
                   "Re-run stage 2 with the new method to confirm throughput and loss.")
            .arg(changed.join(QStringLiteral("; ")), usedBy.join(QStringLiteral(", ")),
                 used.join(QStringLiteral(", ")));
    return out;
}

StageThreeResult evaluateStageThree(const QList<ExpertLoadRunInput>& runs, const ThresholdSet& thresholds,
                                    const QList<TrainingRunInput>& stageTwoMoeRuns) {
    StageThreeResult result;
    Verdict& v = result.verdict;
    const ThresholdUse ratioMax = thresholds.get(QStringLiteral("stage3.load_ratio_max"));
    const ThresholdUse fraction = thresholds.get(QStringLiteral("stage3.load_ratio_window_fraction"));
    const ThresholdUse dropMax = thresholds.get(QStringLiteral("stage3.drop_rate_max"));
    const ThresholdUse window = thresholds.get(QStringLiteral("stage3.window_steps"));
    const ThresholdUse a2aMin = thresholds.get(QStringLiteral("stage3.a2a_vs_baseline_min"));
    v.thresholds = {ratioMax, fraction, dropMax, window};
    if (std::any_of(runs.cbegin(), runs.cend(), [](const ExpertLoadRunInput& r) { return r.a2aAgainstBaseline.has_value(); }))
        v.thresholds << a2aMin;

    if (runs.isEmpty()) {
        v.status = Verdict::Status::NotReady;
        v.reasons << Stages::tr(
            "No run with expert load: stage 3 needs tokens per expert per layer and step.");
        v.nextStep =
            Stages::tr("Log tokens per expert (e.g. Megatron's tokens-per-expert JSONL) and import it.");
        return result;
    }
    QStringList impossible;
    for (const ExpertLoadRunInput& r : runs)
        impossible << impossibleStepMetrics(r.runName, r.metrics);
    if (!impossible.isEmpty()) {
        refuseImpossibleValues(v, impossible);
        return result;
    }
    QList<record::ComparisonRun> comparison;
    for (const ExpertLoadRunInput& r : runs)
        comparison.append({r.runName, r.record});
    result.plan = record::planComparison(comparison);
    if (result.plan.refused) {
        v.status = Verdict::Status::NotReady;
        v.reasons = refusalReasons(result.plan);
        v.nextStep = Stages::tr(
            "Complete the config records named above (moewb record validate), then re-run stage 3.");
        return result;
    }
    result.staleness = stageTwoStaleness(stageTwoMoeRuns, runs);

    QStringList stops, missing, passes;
    for (const ExpertLoadRunInput& r : runs) {
        // A run whose expert load cannot all be read is not judged on the rest: the
        // verdict names what could not be read and cannot pass (a stop of another run
        // still stops).
        if (!r.unreadable.isEmpty()) {
            missing << Stages::tr("run %1: %2%3; it is not judged. Re-import it, or remove it: the project file is "
                                  "damaged or was altered.")
                           .arg(r.runName, r.unreadable.first(),
                                r.unreadable.size() > 1
                                    ? Stages::tr(" (and %n more part(s) of its expert load)", "",
                                                 int(r.unreadable.size() - 1))
                                    : QString());
            continue;
        }
        if (r.record.isDense()) {
            missing << Stages::tr("run %1 is a dense model: it has no experts.").arg(r.runName);
            continue;
        }
        StageThreeRunSummary s = summarizeStageThreeRun(r, thresholds);
        // Figures over some other number of experts than the record's (one EP rank's
        // local slice, a wrong record) would look sound and mean nothing.
        if (r.record.moe.experts && s.stepsWithLoad > 0 && s.experts != *r.record.moe.experts) {
            missing << Stages::tr("run %1 counts %2 experts per layer, but its record says moe.experts = %3: "
                                  "refused (a tokens-per-expert file of one rank holds only that EP rank's local "
                                  "experts; import every rank file as one run, or fix the record).")
                           .arg(r.runName)
                           .arg(s.experts)
                           .arg(*r.record.moe.experts);
            continue;
        }
        if (s.windowSteps == 0) {
            missing << (s.maxOverloadFactor ? overloadWithoutLayersText(r.runName)
                                            : Stages::tr("run %1 has no expert load.").arg(r.runName));
            result.runs.append(s);
            continue;
        }
        // "the last 500 steps, 1–500": the window is stage3.window_steps, listed with
        // the thresholds; one level of parentheses at most in every sentence.
        const QString windowText = Stages::tr("the last %n step(s), %1–%2", "", int(s.windowSteps))
                                       .arg(s.windowFirstStep)
                                       .arg(s.windowLastStep);
        const QString shareAbove = units::formatPercent(s.worstLayerFractionAbove);
        const QString ratioText = Stages::tr("run %1, %2: max/mean above %3 in %4 of %5, more than the limit %6")
                                      .arg(r.runName, store::layerLabel(r.environment, s.worstLayer))
                                      .arg(thresholdText(ratioMax), shareAbove, windowText,
                                           thresholdText(fraction));
        const bool epRanks = s.loadRatioSource == LoadRatioSource::EpRankOverload;
        if (s.loadRatioStops)
            stops << (epRanks ? epRankRatioStopText(r.runName, store::layerLabel(r.environment, s.worstLayer),
                                                    thresholdText(ratioMax), shareAbove, windowText,
                                                    thresholdText(fraction))
                              : ratioText + QLatin1Char('.'));
        if (s.dropRate) {
            QString dropText = Stages::tr("run %1: drop rate %2 over %3 — %4")
                                   .arg(r.runName, units::formatPercentAgainst(*s.dropRate, dropMax.value), windowText,
                                        dropRateSourceText(s.dropSource));
            if (s.dropSource != DropRateSource::EstimatedFromLoad && s.assignmentDropRate)
                dropText += Stages::tr("; beside it: assignments dropped %1")
                                .arg(units::formatPercent(*s.assignmentDropRate));
            if (s.partlyDroppedRate)
                dropText += Stages::tr("; tokens partly dropped %1").arg(units::formatPercent(*s.partlyDroppedRate));
            if (s.dropRateStops)
                stops << Stages::tr("%1; above the limit %2.").arg(dropText, thresholdText(dropMax));
            else
                passes << Stages::tr("%1; within the limit %2.").arg(dropText, thresholdText(dropMax));
        } else if (s.dropSource == DropRateSource::NotApplicable) {
            v.notes << Stages::tr("run %1: drop rate %2.").arg(r.runName, dropRateSourceText(s.dropSource));
        } else {
            missing << Stages::tr(
                           "run %1: the drop rate is not logged: no drop_rate or dropped_tokens metric, and no "
                           "capacity factor to estimate it from.")
                           .arg(r.runName);
        }
        if (!s.loadRatioStops && epRanks)
            passes << epRankRatioPassText(r.runName, store::layerLabel(r.environment, s.worstLayer),
                                          thresholdText(ratioMax), shareAbove, windowText,
                                          thresholdText(fraction), s.windowMaxRatio, s.windowMeanRatio);
        else if (!s.loadRatioStops)
            passes << Stages::tr("run %1, worst %2: max/mean above %3 in %4 of %5, within the limit %6; "
                                 "max/mean at most %7, mean %8.")
                          .arg(r.runName, store::layerLabel(r.environment, s.worstLayer))
                          .arg(thresholdText(ratioMax), units::formatPercent(s.worstLayerFractionAbove),
                               windowText, thresholdText(fraction), units::formatRatio(s.windowMaxRatio),
                               units::formatRatio(s.windowMeanRatio));
        if (s.busiestDeviceShare)
            v.notes << busiestShareNote(r.runName, s);
        if (const auto& a = r.a2aAgainstBaseline) {
            // "Nccl-tests looks fine but the training is slow": a finding, not a stop.
            const QString line =
                Stages::tr("run %1: its %2 all-to-all at %3 per rank reached %4 in the training against %5 "
                           "measured by stage 1 (run %6): %7 of the baseline")
                    .arg(r.runName, a->kind, units::formatBytes(double(a->bytesPerRank)),
                         units::formatBandwidth(a->trainingGBps * 1e9, 1), units::formatBandwidth(a->baselineGBps * 1e9, 1),
                         a->baselineRun, units::formatPercent(a->ratio));
            v.notes << (a->ratio < a2aMin.value
                            ? Stages::tr("Finding — %1, below the %2 limit: the training's all-to-all runs well below "
                                         "what the cluster delivers, so the cause is in the training (message sizes, "
                                         "overlap with compute, imbalance); see the step anatomy (moewb anatomy %3).")
                                  .arg(line, thresholdText(a2aMin), r.runName)
                            : line + QLatin1Char('.'));
        }
        result.runs.append(s);
    }
    if (result.staleness.stale)
        v.notes << result.staleness.reason;

    if (!stops.isEmpty()) {
        v.status = Verdict::Status::Stop;
        v.reasons = stops + missing;
        v.nextStep =
            Stages::tr("Adjust the routing or the load-balancing method (or the capacity factor), then "
                       "re-run stage 3. A changed balancing method also means re-running stage 2.");
    } else if (!missing.isEmpty()) {
        v.status = Verdict::Status::NotReady;
        v.reasons = missing;
        v.nextStep = Stages::tr("Provide what is missing above, then re-run stage 3.");
    } else {
        v.status = Verdict::Status::Pass;
        v.reasons = passes;
        v.nextStep = result.staleness.stale
                         ? Stages::tr("Re-run stage 2 with the new load-balancing method before going on.")
                         : Stages::tr("To carry the conclusions to another cluster, go on to stage 4.");
    }
    return result;
}

QString busiestShareSourceName(BusiestShareSource source) {
    switch (source) {
    case BusiestShareSource::ProfilerTraces: return QStringLiteral("profiler-traces");
    case BusiestShareSource::Collector: return QStringLiteral("collector");
    case BusiestShareSource::Measured: return QStringLiteral("measured");
    case BusiestShareSource::Estimated: return QStringLiteral("estimated");
    case BusiestShareSource::OverloadFactor: return QStringLiteral("overload-factor");
    default: return {};
    }
}

} // namespace moewb::stages
