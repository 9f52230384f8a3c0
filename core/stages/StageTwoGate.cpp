#include "stages/StageTwoGate.h"

#include "stages/ImpossibleValues.h"
#include "common/Units.h"
#include "record/RecordValidation.h"
#include "stages/StagesTr.h"

#include <QHash>
#include <algorithm>
#include <cmath>

namespace moewb::stages {

namespace {

// Tokens consumed per step for one run, built once.
class TokenScale {
public:
    explicit TokenScale(const TrainingRunInput& run)
        : m_batch(double(run.record.batch.globalBatchTokens.value_or(0))) {
        for (const store::StepMetric& m : run.metrics)
            if (m.name == QLatin1String("tokens") && std::isfinite(m.value))
                m_logged.insert(m.step, m.value);
    }
    double at(qint64 step) const {
        const auto it = m_logged.constFind(step);
        return it != m_logged.cend() ? *it : double(step) * m_batch;
    }

private:
    double m_batch;
    QHash<qint64, double> m_logged;
};

QString fmtLoss(const LossAtTokens& l) {
    return l.value ? QString::number(*l.value, 'f', 3) : Stages::tr("not logged");
}

QString fmtTps(const ThroughputSummary& t) {
    return t.tokensPerSecondPerGpu ? units::formatCount(*t.tokensPerSecondPerGpu) : Stages::tr("not logged");
}

template <typename T> QString optText(const std::optional<T>& v) {
    if (!v)
        return Stages::tr("missing");
    if constexpr (std::is_same_v<T, bool>)
        return *v ? QStringLiteral("true") : QStringLiteral("false");
    else if constexpr (std::is_same_v<T, QString>)
        return *v;
    else
        return QString::number(*v);
}

template <typename T>
void compareField(QStringList& out, const QString& path, const std::optional<T>& moe,
                  const std::optional<T>& dense) {
    if (moe != dense)
        out << Stages::tr("%1: %2 (MoE) vs %3 (dense)").arg(path, optText(moe), optText(dense));
}

LossAtTokens lossAt(const TrainingRunInput& run, const QString& name, double tokens, bool windowMean) {
    const TokenScale scale(run);
    const QVector<MetricPoint> series = metricSeries(run.metrics, name);
    LossAtTokens out;
    double sum = 0.0;
    int n = 0;
    const double tol = 1e-9 * std::max(1.0, tokens);
    const MetricPoint* last = nullptr;
    double lastTokens = 0.0;
    for (const MetricPoint& p : series) {
        if (!std::isfinite(p.value))
            continue;
        const double t = scale.at(p.step);
        if (t > tokens + tol)
            continue;
        if (!last || t >= lastTokens) {
            last = &p;
            lastTokens = t;
        }
        if (windowMean && t >= 0.98 * tokens - tol) {
            sum += p.value;
            ++n;
        }
    }
    if (n > 0) {
        out.value = sum / n;
        out.tokens = lastTokens;
    } else if (last) {
        out.value = last->value;
        out.tokens = lastTokens;
    }
    return out;
}

double lastTokensOf(const TrainingRunInput& run, const QString& name) {
    const TokenScale scale(run);
    double best = 0.0;
    for (const store::StepMetric& m : run.metrics)
        if (m.name == name && std::isfinite(m.value))
            best = std::max(best, scale.at(m.step));
    return best;
}

} // namespace

QVector<MetricPoint> metricSeries(const QVector<store::StepMetric>& metrics, const QString& name) {
    QVector<MetricPoint> out;
    for (const store::StepMetric& m : metrics)
        if (m.name == name)
            out.append({m.step, m.value});
    std::stable_sort(out.begin(), out.end(),
                     [](const MetricPoint& a, const MetricPoint& b) { return a.step < b.step; });
    return out;
}

ThroughputSummary steadyThroughput(const TrainingRunInput& run) {
    ThroughputSummary s;
    s.warmupStepsExcluded = int(run.record.throughput.warmupStepsExcluded.value_or(0));
    QVector<MetricPoint> series = metricSeries(run.metrics, QStringLiteral("tokens_per_s_per_gpu"));
    if (series.isEmpty()) {
        // Derived: tokens per step / seconds per step / GPUs.
        const auto world = run.record.worldSize();
        const auto batch = run.record.batch.globalBatchTokens;
        if (world && *world > 0 && batch) {
            for (const MetricPoint& p : metricSeries(run.metrics, QStringLiteral("elapsed_ms_per_iter")))
                if (p.value > 0.0)
                    series.append({p.step, double(*batch) / (p.value / 1000.0) / double(*world)});
            s.derivedFromElapsed = !series.isEmpty();
        }
    }
    if (series.isEmpty())
        return s;
    const qint64 first = series.first().step;
    double sum = 0.0;
    for (const MetricPoint& p : series) {
        if (p.step < first + s.warmupStepsExcluded || !std::isfinite(p.value))
            continue;
        sum += p.value;
        ++s.stepsCounted;
    }
    if (s.stepsCounted > 0)
        s.tokensPerSecondPerGpu = sum / s.stepsCounted;
    return s;
}

double tokensAtStep(const TrainingRunInput& run, qint64 step) {
    return TokenScale(run).at(step);
}

LossAtTokens trainingLossAt(const TrainingRunInput& run, double tokens) {
    return lossAt(run, QStringLiteral("lm_loss"), tokens, true);
}

LossAtTokens validationLossAt(const TrainingRunInput& run, double tokens) {
    return lossAt(run, QStringLiteral("val_loss"), tokens, false);
}

QStringList likeForLikeMismatches(const record::ConfigRecord& moe, const record::ConfigRecord& dense) {
    QStringList out;
    compareField(out, QStringLiteral("batch.global_batch_tokens"), moe.batch.globalBatchTokens,
                 dense.batch.globalBatchTokens);
    compareField(out, QStringLiteral("batch.sequence_length"), moe.batch.sequenceLength,
                 dense.batch.sequenceLength);
    compareField(out, QStringLiteral("recipe.optimizer"), moe.recipe.optimizer, dense.recipe.optimizer);
    compareField(out, QStringLiteral("recipe.lr_schedule"), moe.recipe.lrSchedule, dense.recipe.lrSchedule);
    compareField(out, QStringLiteral("recipe.tokens_trained"), moe.recipe.tokensTrained,
                 dense.recipe.tokensTrained);
    compareField(out, QStringLiteral("recipe.validation_set"), moe.recipe.validationSet,
                 dense.recipe.validationSet);
    compareField(out, QStringLiteral("throughput.data_loading_included"), moe.throughput.dataLoadingIncluded,
                 dense.throughput.dataLoadingIncluded);
    compareField(out, QStringLiteral("throughput.warmup_steps_excluded"), moe.throughput.warmupStepsExcluded,
                 dense.throughput.warmupStepsExcluded);
    return out;
}

StageTwoResult evaluateStageTwo(const QList<TrainingRunInput>& runs, const ThresholdSet& thresholds) {
    StageTwoResult result;
    Verdict& v = result.verdict;
    const ThresholdUse tolerance = thresholds.get(QStringLiteral("stage2.activated_params_tolerance"));
    v.thresholds = {tolerance};

    QList<record::ComparisonRun> comparison;
    QHash<QString, const TrainingRunInput*> byName;
    for (const TrainingRunInput& r : runs) {
        comparison.append({r.runName, r.record});
        byName.insert(r.runName, &r);
    }
    result.plan = record::planComparison(comparison);
    if (runs.isEmpty()) {
        v.status = Verdict::Status::NotReady;
        v.reasons << Stages::tr(
            "No training runs: stage 2 needs an MoE run and a dense control run with metrics.");
        v.nextStep = Stages::tr("Import the MoE and the dense training logs (moewb import … --record NAME).");
        return result;
    }
    QStringList impossible;
    for (const TrainingRunInput& r : runs)
        impossible << impossibleStepMetrics(r.runName, r.metrics);
    if (!impossible.isEmpty()) {
        refuseImpossibleValues(v, impossible);
        return result;
    }
    if (result.plan.refused) {
        v.status = Verdict::Status::NotReady;
        v.reasons = refusalReasons(result.plan);
        v.nextStep = Stages::tr(
            "Complete the config records named above (moewb record validate), then re-run stage 2.");
        return result;
    }

    QStringList stops;
    QStringList missing;
    QStringList passes;
    for (const record::ComparisonGroup& g : std::as_const(result.plan.groups)) {
        QList<const TrainingRunInput*> moeRuns, denseRuns;
        for (const QString& name : g.runNames) {
            const TrainingRunInput* r = byName.value(name);
            (r->record.isDense() ? denseRuns : moeRuns).append(r);
        }
        if (g.denseOnly)
            continue;
        if (denseRuns.isEmpty()) {
            missing << Stages::tr("%1: no dense control run to compare with.").arg(g.title);
            continue;
        }
        for (const TrainingRunInput* moe : std::as_const(moeRuns)) {
            for (const TrainingRunInput* dense : std::as_const(denseRuns)) {
                StageTwoPair p;
                p.groupTitle = g.title;
                p.moeRun = moe->runName;
                p.denseRun = dense->runName;
                const QString label = Stages::tr("%1 vs %2").arg(p.moeRun, p.denseRun);
                p.moeThroughput = steadyThroughput(*moe);
                p.denseThroughput = steadyThroughput(*dense);
                p.moeActivatedParams = moe->record.model.activatedParams.value_or(0);
                p.denseActivatedParams = dense->record.model.activatedParams.value_or(0);
                p.activatedParamsDiff =
                    p.moeActivatedParams > 0
                        ? std::fabs(double(p.denseActivatedParams - p.moeActivatedParams)) /
                              double(p.moeActivatedParams)
                        : 0.0;
                p.mismatches = likeForLikeMismatches(moe->record, dense->record);
                p.comparedAtTokens = std::min(lastTokensOf(*moe, QStringLiteral("lm_loss")),
                                              lastTokensOf(*dense, QStringLiteral("lm_loss")));
                p.moeTrainLoss = trainingLossAt(*moe, p.comparedAtTokens);
                p.denseTrainLoss = trainingLossAt(*dense, p.comparedAtTokens);
                const double valTokens = std::min(lastTokensOf(*moe, QStringLiteral("val_loss")),
                                                  lastTokensOf(*dense, QStringLiteral("val_loss")));
                p.moeValLoss = validationLossAt(*moe, valTokens);
                p.denseValLoss = validationLossAt(*dense, valTokens);

                bool ready = true;
                for (const QString& m : std::as_const(p.mismatches)) {
                    missing << Stages::tr("%1: not like for like — %2.").arg(label, m);
                    ready = false;
                }
                if (p.activatedParamsDiff > tolerance.value) {
                    missing << Stages::tr(
                                   "%1: dense activated parameters %2 differ from the MoE's %3 by %4 > %5.")
                                   .arg(label, units::formatCount(double(p.denseActivatedParams)),
                                        units::formatCount(double(p.moeActivatedParams)),
                                        units::formatPercentAgainst(p.activatedParamsDiff, tolerance.value),
                                        thresholdText(tolerance));
                    ready = false;
                }
                if (!p.moeThroughput.tokensPerSecondPerGpu || !p.denseThroughput.tokensPerSecondPerGpu) {
                    missing << Stages::tr("%1: tokens/s/GPU after warm-up is missing for %2.")
                                   .arg(label,
                                        !p.moeThroughput.tokensPerSecondPerGpu ? p.moeRun : p.denseRun);
                    ready = false;
                }
                if (!p.moeValLoss.value || !p.denseValLoss.value) {
                    missing << Stages::tr("%1: validation loss (val_loss) at equal tokens is missing for %2.")
                                   .arg(label, !p.moeValLoss.value ? p.moeRun : p.denseRun);
                    ready = false;
                }
                if (ready) {
                    const double moeTps = *p.moeThroughput.tokensPerSecondPerGpu;
                    const double denseTps = *p.denseThroughput.tokensPerSecondPerGpu;
                    const bool slower = moeTps < denseTps;
                    const bool lossBetter = *p.moeValLoss.value < *p.denseValLoss.value;
                    p.stops = slower && !lossBetter;
                    const QString numbers =
                        Stages::tr("MoE %1 tokens/s/GPU vs dense %2 (warm-up excluded); validation loss %3 "
                                   "vs %4 at %5 tokens")
                            .arg(fmtTps(p.moeThroughput), fmtTps(p.denseThroughput), fmtLoss(p.moeValLoss),
                                 fmtLoss(p.denseValLoss), units::formatCount(p.moeValLoss.tokens));
                    if (p.stops)
                        stops << Stages::tr(
                                     "%1: %2 — the MoE is slower and its validation loss is not better.")
                                     .arg(label, numbers);
                    else
                        passes << Stages::tr("%1: %2 — the MoE %3.")
                                      .arg(label, numbers,
                                           lossBetter ? Stages::tr("reaches a better validation loss")
                                                      : Stages::tr("is at least as fast"));
                    if (std::fabs(p.moeValLoss.tokens - p.denseValLoss.tokens) >
                        0.01 * std::max(1.0, p.moeValLoss.tokens))
                        v.notes
                            << Stages::tr(
                                   "%1: the validation points are at %2 and %3 tokens, not exactly equal.")
                                   .arg(label, units::formatCount(p.moeValLoss.tokens),
                                        units::formatCount(p.denseValLoss.tokens));
                }
                for (const ThroughputSummary* t : {&p.moeThroughput, &p.denseThroughput})
                    if (t->derivedFromElapsed)
                        v.notes
                            << Stages::tr(
                                   "%1: tokens/s/GPU derived from elapsed time per iteration, global batch "
                                   "tokens and world size.")
                                   .arg(t == &p.moeThroughput ? p.moeRun : p.denseRun);
                result.pairs.append(p);
            }
        }
    }
    if (result.pairs.isEmpty() && missing.isEmpty())
        missing << Stages::tr("No MoE run: stage 2 compares an MoE run with a dense control run.");

    if (!stops.isEmpty()) {
        v.status = Verdict::Status::Stop;
        v.reasons = stops + missing;
        v.nextStep =
            Stages::tr("The configuration does not pay: adjust it (top-k, capacity factor, parallel layout, "
                       "balancing) and re-run stage 2. Do not add experts.");
    } else if (!missing.isEmpty()) {
        v.status = Verdict::Status::NotReady;
        v.reasons = missing;
        v.nextStep = Stages::tr(
            "Make the comparison like for like (same batch, sequence, recipe, validation set, "
            "throughput accounting; a dense model of similar activated size), then re-run stage 2.");
    } else {
        v.status = Verdict::Status::Pass;
        v.reasons = passes;
        v.nextStep = Stages::tr("Go on to stage 3: log tokens per expert per layer and step.");
    }
    return result;
}

} // namespace moewb::stages
