// Stage 2: MoE vs dense at equal tokens, warm-up excluded, like for like enforced,
// refusal on incomplete records, splitting by routing settings; the gate both ways.
#include "StageFixtures.h"
#include "stages/StageTwoGate.h"

#include <QtTest>
#include <algorithm>

using namespace moewb;
using namespace moewb::stages;
using namespace moewb::stages::test;

namespace {

// 100 steps; warm-up (steps 1–20, the records' N) at a tenth of the steady speed.
TrainingRunInput trainingRun(const QString& name, const record::ConfigRecord& rec, double steadyTps,
                             double valLoss, double lmLoss = 2.0) {
    TrainingRunInput run{name, rec, {}};
    addSeries(run.metrics, QStringLiteral("tokens_per_s_per_gpu"), 1, 20, steadyTps / 10);
    addSeries(run.metrics, QStringLiteral("tokens_per_s_per_gpu"), 21, 100, steadyTps);
    addSeries(run.metrics, QStringLiteral("lm_loss"), 1, 100, lmLoss);
    addSeries(run.metrics, QStringLiteral("val_loss"), 50, 100, valLoss, 50);
    return run;
}

} // namespace

class TestStageTwoGate : public QObject {
    Q_OBJECT

private slots:
    void throughputExcludesWarmup() {
        const TrainingRunInput run = trainingRun(QStringLiteral("moe"), moeRecord(), 1000.0, 2.5);
        const ThroughputSummary t = steadyThroughput(run);
        QCOMPARE(t.warmupStepsExcluded, 20);
        QCOMPARE(t.stepsCounted, 80);
        QCOMPARE(*t.tokensPerSecondPerGpu, 1000.0);
        QVERIFY(!t.derivedFromElapsed);
    }

    void throughputDerivedFromElapsedTime() {
        TrainingRunInput run{QStringLiteral("moe"), moeRecord(), {}};
        addSeries(run.metrics, QStringLiteral("elapsed_ms_per_iter"), 1, 30, 1000.0);
        const ThroughputSummary t = steadyThroughput(run);
        // 4,194,304 tokens per step / 1 s / 32 GPUs
        QCOMPARE(*t.tokensPerSecondPerGpu, 131072.0);
        QCOMPARE(t.stepsCounted, 10);
        QVERIFY(t.derivedFromElapsed);
    }

    void lossesAtEqualTokens() {
        TrainingRunInput run{QStringLiteral("moe"), moeRecord(), {}};
        for (int s = 1; s <= 100; ++s)
            run.metrics.append({s, QStringLiteral("lm_loss"), double(s)});
        addSeries(run.metrics, QStringLiteral("val_loss"), 25, 100, 3.0, 25);
        const double perStep = 4194304.0;
        QCOMPARE(tokensAtStep(run, 10), 10 * perStep);
        // Window [0.98 T, T] at T = 50 steps: steps 49 and 50.
        const LossAtTokens l = trainingLossAt(run, 50 * perStep);
        QCOMPARE(*l.value, 49.5);
        QCOMPARE(l.tokens, 50 * perStep);
        const LossAtTokens v = validationLossAt(run, 60 * perStep);
        QCOMPARE(v.tokens, 50 * perStep);
        // A logged token count wins over step × batch.
        run.metrics.append({10, QStringLiteral("tokens"), 123.0});
        QCOMPARE(tokensAtStep(run, 10), 123.0);
    }

    void slowerAndNotBetterStops() {
        // Equal validation loss is "not better".
        const StageTwoResult r =
            evaluateStageTwo({trainingRun(QStringLiteral("moe"), moeRecord(), 900.0, 2.5),
                              trainingRun(QStringLiteral("dense"), denseRecord(), 1000.0, 2.5)},
                             ThresholdSet());
        QCOMPARE(r.verdict.status, Verdict::Status::Stop);
        QCOMPARE(r.pairs.size(), 1);
        QVERIFY(r.pairs[0].stops);
        QVERIFY2(r.verdict.reasons[0].contains(QStringLiteral("moe vs dense")),
                 qPrintable(r.verdict.reasons[0]));
        QVERIFY(r.verdict.reasons[0].contains(QStringLiteral("2.500 vs 2.500")));
        QVERIFY(r.verdict.nextStep.contains(QStringLiteral("Do not add experts")));
    }

    void slowerButBetterLossPasses() {
        const StageTwoResult r =
            evaluateStageTwo({trainingRun(QStringLiteral("moe"), moeRecord(), 900.0, 2.49),
                              trainingRun(QStringLiteral("dense"), denseRecord(), 1000.0, 2.5)},
                             ThresholdSet());
        QCOMPARE(r.verdict.status, Verdict::Status::Pass);
    }

    void equalThroughputIsNotSlower() {
        const StageTwoResult r =
            evaluateStageTwo({trainingRun(QStringLiteral("moe"), moeRecord(), 1000.0, 2.6),
                              trainingRun(QStringLiteral("dense"), denseRecord(), 1000.0, 2.5)},
                             ThresholdSet());
        QCOMPARE(r.verdict.status, Verdict::Status::Pass);
    }

    void activatedParamsToleranceBothWays() {
        record::ConfigRecord dense = denseRecord();
        // 1.43 B vs 1.3 B: exactly 10 % apart, at the tolerance -> allowed.
        dense.model.activatedParams = 1430000000;
        dense.model.totalParams = 1430000000;
        auto tol = teamThresholds({{QStringLiteral("stage2.activated_params_tolerance"), 0.10}});
        StageTwoResult r = evaluateStageTwo({trainingRun(QStringLiteral("moe"), moeRecord(), 1000.0, 2.4),
                                             trainingRun(QStringLiteral("dense"), dense, 1000.0, 2.5)},
                                            tol);
        QCOMPARE(r.pairs[0].activatedParamsDiff, 0.1);
        QCOMPARE(r.verdict.status, Verdict::Status::Pass);
        dense.model.activatedParams = 1430000001;
        dense.model.totalParams = 1430000001;
        r = evaluateStageTwo({trainingRun(QStringLiteral("moe"), moeRecord(), 1000.0, 2.4),
                              trainingRun(QStringLiteral("dense"), dense, 1000.0, 2.5)},
                             tol);
        QCOMPARE(r.verdict.status, Verdict::Status::NotReady);
        QVERIFY2(r.verdict.reasons[0].contains(QStringLiteral("> 10 % (team threshold)")),
                 qPrintable(r.verdict.reasons[0]));
    }

    void defaultToleranceIsPlaceholder() {
        const StageTwoResult r = evaluateStageTwo({}, ThresholdSet());
        QCOMPARE(r.verdict.status, Verdict::Status::NotReady);
        QCOMPARE(r.verdict.thresholds[0].key, QStringLiteral("stage2.activated_params_tolerance"));
        QCOMPARE(r.verdict.thresholds[0].value, 0.10);
        QVERIFY(r.verdict.thresholds[0].builtInDefault);
        QCOMPARE(r.verdict.thresholds[0].source, store::ThresholdSource::Placeholder);
    }

    void likeForLikeIsEnforced() {
        record::ConfigRecord dense = denseRecord();
        dense.batch.sequenceLength = 2048;
        dense.recipe.validationSet = QStringLiteral("other-val");
        const StageTwoResult r =
            evaluateStageTwo({trainingRun(QStringLiteral("moe"), moeRecord(), 900.0, 2.6),
                              trainingRun(QStringLiteral("dense"), dense, 1000.0, 2.5)},
                             ThresholdSet());
        QCOMPARE(r.verdict.status, Verdict::Status::NotReady); // a stop needs a valid comparison
        QCOMPARE(r.pairs[0].mismatches.size(), 2);
        const QString all = r.verdict.reasons.join(QLatin1Char('\n'));
        QVERIFY2(all.contains(QStringLiteral("batch.sequence_length: 4096 (MoE) vs 2048 (dense)")),
                 qPrintable(all));
        QVERIFY(all.contains(QStringLiteral("recipe.validation_set")));
    }

    void refusedWhileARecordIsIncomplete() {
        record::ConfigRecord moe = moeRecord();
        moe.recipe.validationSet.reset();
        moe.moe.capacityFactor.reset();
        const StageTwoResult r =
            evaluateStageTwo({trainingRun(QStringLiteral("moe"), moe, 900.0, 2.6),
                              trainingRun(QStringLiteral("dense"), denseRecord(), 1000.0, 2.5)},
                             ThresholdSet());
        QVERIFY(r.plan.refused);
        QCOMPARE(r.verdict.status, Verdict::Status::NotReady);
        QVERIFY(r.pairs.isEmpty());
        const QString all = r.verdict.reasons.join(QLatin1Char('\n'));
        QVERIFY2(all.contains(QStringLiteral("recipe.validation_set")), qPrintable(all));
        QVERIFY(all.contains(QStringLiteral("moe.capacity_factor")));
    }

    void splitByRoutingSettings() {
        record::ConfigRecord other = moeRecord();
        other.moe.capacityFactor = record::CapacityFactor::of(1.5);
        const StageTwoResult r =
            evaluateStageTwo({trainingRun(QStringLiteral("moe-cf125"), moeRecord(), 1100.0, 2.4),
                              trainingRun(QStringLiteral("moe-cf150"), other, 900.0, 2.6),
                              trainingRun(QStringLiteral("dense"), denseRecord(), 1000.0, 2.5)},
                             ThresholdSet());
        QCOMPARE(r.plan.groups.size(), 2);
        QCOMPARE(r.pairs.size(), 2);
        QVERIFY(r.pairs[0].groupTitle.contains(QStringLiteral("1.25")));
        QVERIFY(r.pairs[1].groupTitle.contains(QStringLiteral("1.5")));
        QVERIFY(!r.pairs[0].stops);
        QVERIFY(r.pairs[1].stops);
        QCOMPARE(r.verdict.status, Verdict::Status::Stop);
        QCOMPARE(r.verdict.reasons.size(), 1);
        QVERIFY(r.verdict.reasons[0].startsWith(QStringLiteral("moe-cf150 vs dense")));
    }

    void missingDenseOrMetricsIsNotReady() {
        StageTwoResult r =
            evaluateStageTwo({trainingRun(QStringLiteral("moe"), moeRecord(), 900.0, 2.6)}, ThresholdSet());
        QCOMPARE(r.verdict.status, Verdict::Status::NotReady);
        QVERIFY(r.verdict.reasons[0].contains(QStringLiteral("no dense control")));
        TrainingRunInput noVal = trainingRun(QStringLiteral("dense"), denseRecord(), 1000.0, 2.5);
        noVal.metrics.erase(
            std::remove_if(noVal.metrics.begin(), noVal.metrics.end(),
                           [](const store::StepMetric& m) { return m.name == QLatin1String("val_loss"); }),
            noVal.metrics.end());
        r = evaluateStageTwo({trainingRun(QStringLiteral("moe"), moeRecord(), 900.0, 2.6), noVal},
                             ThresholdSet());
        QCOMPARE(r.verdict.status, Verdict::Status::NotReady);
        QVERIFY(r.verdict.reasons.join(QLatin1Char(' ')).contains(QStringLiteral("val_loss")));
    }

    void likeForLikeFieldList() {
        QCOMPARE(likeForLikeMismatches(moeRecord(), denseRecord()), QStringList());
        record::ConfigRecord d = denseRecord();
        d.throughput.warmupStepsExcluded = 0;
        d.throughput.dataLoadingIncluded = true;
        d.recipe.tokensTrained = 1;
        d.recipe.optimizer = QStringLiteral("SGD");
        d.recipe.lrSchedule = QStringLiteral("constant");
        d.batch.globalBatchTokens = 2097152;
        QCOMPARE(likeForLikeMismatches(moeRecord(), d).size(), 6);
    }
};

QTEST_APPLESS_MAIN(TestStageTwoGate)
#include "test_stage_two_gate.moc"
