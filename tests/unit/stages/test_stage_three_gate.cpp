// Stage 3: load ratio over a window (per layer), drop rate (metric, dropped tokens,
// estimated; not applicable without drops), busiest-device share (estimated vs
// measured), stale marking of stage 2, refusal and splitting.
#include "StageFixtures.h"
#include "stages/StageThreeGate.h"

#include <QtTest>
#include <cmath>

using namespace moewb;
using namespace moewb::stages;
using namespace moewb::stages::test;

namespace {

const QVector<quint32> kEven{15, 15, 15, 15}; // ratio 1
const QVector<quint32> kHot{10, 10, 10, 30};  // ratio 2, 11 of 60 over capacity ceil(1.25·60/4) = 19
const QVector<quint32> kAtLimit{15, 9, 8, 8}; // ratio exactly 1.5

// 4 experts, top-2, capacity factor 1.25, drop, EP 2.
record::ConfigRecord smallMoe() {
    record::ConfigRecord r = moeRecord();
    r.moe.experts = 4;
    r.moe.topK = 2;
    r.parallelism.ep = 2;
    return r;
}

// Steps 1..20, layers 0 and 1; layer 1 uses `hot` at the steps in hotSteps.
ExpertLoadRunInput loadRun(const QString& name, const QList<int>& hotSteps,
                           const QVector<quint32>& hot = kHot, const record::ConfigRecord& rec = smallMoe()) {
    ExpertLoadRunInput run{name, rec, {}, {}, {}};
    for (int s = 1; s <= 20; ++s) {
        run.blocks.append({s, 0, kEven});
        run.blocks.append({s, 1, hotSteps.contains(s) ? hot : kEven});
    }
    return run;
}

QList<int> range(int from, int to) {
    QList<int> l;
    for (int i = from; i <= to; ++i)
        l << i;
    return l;
}

ThresholdSet windowOf10(double fraction = 0.5) {
    return teamThresholds({{QStringLiteral("stage3.window_steps"), 10},
                           {QStringLiteral("stage3.load_ratio_max"), 1.5},
                           {QStringLiteral("stage3.load_ratio_window_fraction"), fraction},
                           {QStringLiteral("stage3.drop_rate_max"), 0.25}});
}

} // namespace

class TestStageThreeGate : public QObject {
    Q_OBJECT

private slots:
    void windowFractionExactlyAtThresholdPasses() {
        // Steps 1–10 are outside the window; 11–15 hot = 5 of the last 10 steps = 0.5.
        ExpertLoadRunInput run = loadRun(QStringLiteral("moe"), range(1, 15));
        run.metrics.append({15, QStringLiteral("drop_rate"), 0.0});
        const StageThreeResult r = evaluateStageThree({run}, windowOf10());
        const StageThreeRunSummary& s = r.runs[0];
        QCOMPARE(s.windowSteps, qint64(10));
        QCOMPARE(s.windowFirstStep, qint64(11));
        QCOMPARE(s.windowLastStep, qint64(20));
        QCOMPARE(s.worstLayer, 1);
        QCOMPARE(s.worstLayerFractionAbove, 0.5);
        QCOMPARE(s.windowMaxRatio, 2.0);
        QVERIFY(!s.loadRatioStops);
        QCOMPARE(r.verdict.status, Verdict::Status::Pass);
    }

    void windowFractionJustOverStops() {
        ExpertLoadRunInput run = loadRun(QStringLiteral("moe"), range(11, 16));
        run.metrics.append({15, QStringLiteral("drop_rate"), 0.0});
        const StageThreeResult r = evaluateStageThree({run}, windowOf10());
        QCOMPARE(r.runs[0].worstLayerFractionAbove, 0.6);
        QCOMPARE(r.verdict.status, Verdict::Status::Stop);
        QVERIFY2(r.verdict.reasons[0].contains(QStringLiteral("layer 1")), qPrintable(r.verdict.reasons[0]));
        QVERIFY(r.verdict.reasons[0].contains(QStringLiteral("in 60 % of")));
        QVERIFY(r.verdict.reasons[0].contains(QStringLiteral("limit 50 % (team threshold)")));
        QVERIFY(r.verdict.reasons[0].contains(QStringLiteral("the last 10 step")) && r.verdict.reasons[0].contains(QStringLiteral("11–20")));
    }

    void loadRatioExactlyAtLimitIsNotAbove() {
        ExpertLoadRunInput run = loadRun(QStringLiteral("moe"), range(1, 20), kAtLimit);
        run.metrics.append({20, QStringLiteral("drop_rate"), 0.0});
        const StageThreeResult r = evaluateStageThree({run}, windowOf10(0.0));
        QCOMPARE(r.runs[0].windowMaxRatio, 1.5);
        QCOMPARE(r.runs[0].worstLayerFractionAbove, 0.0);
        QCOMPARE(r.verdict.status, Verdict::Status::Pass);
    }

    void ratioOverStepsIsOnePointPerStep() {
        const StageThreeRunSummary s =
            summarizeStageThreeRun(loadRun(QStringLiteral("moe"), {3}), windowOf10());
        QCOMPARE(s.ratioOverSteps.size(), 20);
        QCOMPARE(s.ratioOverSteps[2].step, qint64(3));
        QCOMPARE(s.ratioOverSteps[2].maxRatio, 2.0);
        QCOMPARE(s.ratioOverSteps[2].meanRatio, 1.5);
        QCOMPARE(s.ratioOverSteps[3].maxRatio, 1.0);
        QCOMPARE(s.layers, 2);
        QCOMPARE(s.experts, 4);
        QCOMPARE(s.stepsWithLoad, qint64(20));
    }

    void unorderedBlocksGiveTheSameAnswer() {
        ExpertLoadRunInput run = loadRun(QStringLiteral("moe"), range(11, 16));
        const StageThreeRunSummary a = summarizeStageThreeRun(run, windowOf10());
        std::reverse(run.blocks.begin(), run.blocks.end());
        const StageThreeRunSummary b = summarizeStageThreeRun(run, windowOf10());
        QCOMPARE(b.worstLayerFractionAbove, a.worstLayerFractionAbove);
        QCOMPARE(b.windowFirstStep, a.windowFirstStep);
        QCOMPARE(b.ratioOverSteps.size(), a.ratioOverSteps.size());
    }

    void dropRateFromMetricBothWays() {
        ExpertLoadRunInput run = loadRun(QStringLiteral("moe"), {});
        addSeries(run.metrics, QStringLiteral("drop_rate"), 1, 10, 0.9);   // outside the window
        addSeries(run.metrics, QStringLiteral("drop_rate"), 11, 20, 0.25); // exactly the limit
        StageThreeResult r = evaluateStageThree({run}, windowOf10());
        QCOMPARE(r.runs[0].dropSource, DropRateSource::Metric);
        QCOMPARE(*r.runs[0].dropRate, 0.25);
        QCOMPARE(r.verdict.status, Verdict::Status::Pass);
        r = evaluateStageThree({run}, teamThresholds({{QStringLiteral("stage3.window_steps"), 10},
                                                      {QStringLiteral("stage3.drop_rate_max"), 0.2499}}));
        QCOMPARE(r.verdict.status, Verdict::Status::Stop);
        QVERIFY2(r.verdict.reasons[0].contains(QStringLiteral("drop rate 25 %")),
                 qPrintable(r.verdict.reasons[0]));
        QVERIFY(r.verdict.reasons[0].contains(QStringLiteral("limit 24.99 % (team threshold)")));
    }

    void dropRateFromDroppedTokens() {
        record::ConfigRecord rec = smallMoe();
        ExpertLoadRunInput run = loadRun(QStringLiteral("moe"), {}, kHot, rec);
        // Seed 000: tokens dropped / tokens. 4,194,304 tokens pass 16 MoE layers per step:
        // 67,108,864 token-layer passes; 1/8 of them dropped. The assignments beside it:
        // 4,194,304 × top-2 × 16 = 134,217,728 per step, 1/16 of them dropped.
        addSeries(run.metrics, QStringLiteral("dropped_tokens"), 11, 20, 67108864.0 / 8);
        addSeries(run.metrics, QStringLiteral("dropped_assignments"), 11, 20, 134217728.0 / 16);
        const StageThreeRunSummary s = summarizeStageThreeRun(run, windowOf10());
        QCOMPARE(s.dropSource, DropRateSource::DroppedTokensMetric);
        QCOMPARE(*s.dropRate, 0.125);
        QVERIFY(s.assignmentDropRate.has_value());
        QCOMPARE(*s.assignmentDropRate, 0.0625);
        // The seed's figure is the gated one: 0.125 > 0.1 stops though assignments are at 0.0625.
        const StageThreeResult r = evaluateStageThree({run}, teamThresholds({{QStringLiteral("stage3.window_steps"), 10},
                                                                             {QStringLiteral("stage3.load_ratio_max"), 100},
                                                                             {QStringLiteral("stage3.drop_rate_max"), 0.1}}));
        QCOMPARE(r.verdict.status, Verdict::Status::Stop);
        QVERIFY2(r.verdict.reasons.join(QLatin1Char(' ')).contains(QStringLiteral("drop rate 12.5 %")),
                 qPrintable(r.verdict.reasons.join(QLatin1Char('\n'))));
        QVERIFY(r.verdict.reasons.join(QLatin1Char(' ')).contains(QStringLiteral("assignments dropped 6.25 %")));
    }

    void dropRateEstimatedFromLoad() {
        // Window steps 11–20: layer 1 hot at 11–15 (11 of 60 over capacity), everything else even.
        const StageThreeRunSummary s =
            summarizeStageThreeRun(loadRun(QStringLiteral("moe"), range(11, 15)), windowOf10());
        QCOMPARE(s.dropSource, DropRateSource::EstimatedFromLoad);
        QCOMPARE(*s.dropRate, 55.0 / 1200.0);
        const StageThreeResult r =
            evaluateStageThree({loadRun(QStringLiteral("moe"), range(11, 15))}, windowOf10());
        QVERIFY(r.verdict.reasons.join(QLatin1Char(' ')).contains(QStringLiteral("estimated")));
    }

    void dropRateNotApplicableWithoutDrops() {
        record::ConfigRecord dropless = smallMoe();
        dropless.moe.overflowPolicy = record::OverflowPolicy::Dropless;
        dropless.moe.capacityFactor = record::CapacityFactor::none();
        dropless.moe.dropOrder.reset();
        ExpertLoadRunInput run = loadRun(QStringLiteral("dropless"), {}, kHot, dropless);
        addSeries(run.metrics, QStringLiteral("drop_rate"), 1, 20, 0.5);
        StageThreeResult r = evaluateStageThree({run}, windowOf10());
        QCOMPARE(r.runs[0].dropSource, DropRateSource::NotApplicable);
        QVERIFY(!r.runs[0].dropRate);
        QCOMPARE(r.verdict.status, Verdict::Status::Pass);
        QVERIFY(r.verdict.notes.join(QLatin1Char(' ')).contains(QStringLiteral("not applicable")));

        record::ConfigRecord reroute = smallMoe();
        reroute.moe.overflowPolicy = record::OverflowPolicy::Reroute;
        QCOMPARE(
            summarizeStageThreeRun(loadRun(QStringLiteral("r"), {}, kHot, reroute), windowOf10()).dropSource,
            DropRateSource::NotApplicable);
    }

    void busiestDeviceShareEstimatedOrMeasured() {
        // All hot: rank 1 holds experts 2,3 -> 40 of 60 tokens; layer 0 even: 30 of 60.
        ExpertLoadRunInput run = loadRun(QStringLiteral("moe"), range(1, 20));
        StageThreeRunSummary s = summarizeStageThreeRun(run, windowOf10());
        QVERIFY(s.busiestDeviceEstimated);
        QCOMPARE(s.expertParallel, 2);
        QVERIFY(std::fabs(*s.busiestDeviceShare - (40.0 / 60.0 + 0.5) / 2.0) < 1e-12);
        addSeries(run.metrics, QStringLiteral("busiest_device_share"), 11, 20, 0.75);
        s = summarizeStageThreeRun(run, windowOf10());
        QVERIFY(!s.busiestDeviceEstimated);
        QCOMPARE(*s.busiestDeviceShare, 0.75);
    }

    void staleMarkingOfStageTwo() {
        record::ConfigRecord biasRecord = smallMoe();
        biasRecord.moe.loadBalancing = {record::LoadBalancingMethod::AuxLossFreeBias, std::nullopt, 0.001};
        const QList<TrainingRunInput> stageTwo{{QStringLiteral("moe-aux"), smallMoe(), {}},
                                               {QStringLiteral("dense"), denseRecord(), {}}};
        StageTwoStaleness st =
            stageTwoStaleness(stageTwo, {loadRun(QStringLiteral("moe-bias"), {}, kHot, biasRecord)});
        QVERIFY(st.stale);
        QVERIFY2(st.reason.contains(QStringLiteral("aux_loss_free_bias")), qPrintable(st.reason));
        QVERIFY(st.reason.contains(QStringLiteral("moe-aux")));
        // Same method: not stale; no stage 2 runs: nothing to be stale.
        QVERIFY(!stageTwoStaleness(stageTwo, {loadRun(QStringLiteral("moe"), {})}).stale);
        QVERIFY(!stageTwoStaleness({}, {loadRun(QStringLiteral("moe-bias"), {}, kHot, biasRecord)}).stale);
        // A different coefficient is a different method setting.
        record::ConfigRecord coef = smallMoe();
        coef.moe.loadBalancing.coefficient = 0.001;
        QVERIFY(stageTwoStaleness(stageTwo, {loadRun(QStringLiteral("moe-coef"), {}, kHot, coef)}).stale);

        ExpertLoadRunInput bias = loadRun(QStringLiteral("moe-bias"), {}, kHot, biasRecord);
        bias.metrics.append({20, QStringLiteral("drop_rate"), 0.0});
        const StageThreeResult r = evaluateStageThree({bias}, windowOf10(), stageTwo);
        QVERIFY(r.staleness.stale);
        QVERIFY(r.verdict.notes.join(QLatin1Char(' ')).contains(QStringLiteral("Stage 2 is stale")));
        QVERIFY(r.verdict.nextStep.contains(QStringLiteral("stage 2")));
    }

    void refusedWhileARecordIsIncomplete() {
        record::ConfigRecord rec = smallMoe();
        rec.parallelism.ep.reset();
        const StageThreeResult r =
            evaluateStageThree({loadRun(QStringLiteral("moe"), {}, kHot, rec)}, windowOf10());
        QVERIFY(r.plan.refused);
        QCOMPARE(r.verdict.status, Verdict::Status::NotReady);
        QVERIFY2(r.verdict.reasons.join(QLatin1Char(' ')).contains(QStringLiteral("parallelism.ep")),
                 qPrintable(r.verdict.reasons.join(QLatin1Char('\n'))));
    }

    void splitByTopK() {
        record::ConfigRecord top1 = smallMoe();
        top1.moe.topK = 1;
        ExpertLoadRunInput a = loadRun(QStringLiteral("top2"), {});
        ExpertLoadRunInput b = loadRun(QStringLiteral("top1"), {}, kHot, top1);
        const StageThreeResult r = evaluateStageThree({a, b}, windowOf10());
        QCOMPARE(r.plan.groups.size(), 2);
        QCOMPARE(r.runs.size(), 2);
    }

    void notReadyWithoutLoad() {
        QCOMPARE(evaluateStageThree({}, windowOf10()).verdict.status, Verdict::Status::NotReady);
        // Drop policy with no metric and no capacity to estimate from is impossible for a valid
        // record, so an empty run stands in: no load at all.
        ExpertLoadRunInput empty{QStringLiteral("empty"), smallMoe(), {}, {}, {}};
        const StageThreeResult r = evaluateStageThree({empty}, windowOf10());
        QCOMPARE(r.verdict.status, Verdict::Status::NotReady);
        QVERIFY(r.verdict.reasons[0].contains(QStringLiteral("no expert load")));
    }

    void aRunThatCannotBeReadIsNotJudgedAndCannotPass() {
        // What the store could not read of a run (a damaged chunk, docs/store.md): the
        // run is named and not judged on the rest; the verdict cannot pass, and a stop of
        // another run still stops.
        ExpertLoadRunInput good = loadRun(QStringLiteral("good"), {});
        good.metrics.append({20, QStringLiteral("drop_rate"), 0.0});
        ExpertLoadRunInput damaged = loadRun(QStringLiteral("damaged"), range(1, 20));
        damaged.unreadable = {QStringLiteral("the expert load of layer 1, steps 0–255 cannot be read: it claims "
                                             "2147483647 steps (1 to 256)"),
                              QStringLiteral("the load summary of layer 1, steps 0–255 cannot be read: x")};
        const StageThreeResult r = evaluateStageThree({good, damaged}, windowOf10());
        QCOMPARE(r.verdict.status, Verdict::Status::NotReady);
        QCOMPARE(r.runs.size(), 1); // the good run's table only
        QCOMPARE(r.runs[0].runName, QStringLiteral("good"));
        QCOMPARE(r.verdict.reasons.size(), 1);
        const QString& reason = r.verdict.reasons[0];
        QVERIFY2(reason.startsWith(QStringLiteral("run damaged: the expert load of layer 1, steps 0–255 cannot be read: "
                                                  "it claims 2147483647 steps (1 to 256) (and 1 more part")),
                 qPrintable(reason));
        QVERIFY2(reason.endsWith(QStringLiteral(" of its expert load); it is not judged. Re-import it, or remove it: the "
                                                "project file is damaged or was altered.")),
                 qPrintable(reason));
        ExpertLoadRunInput stops = loadRun(QStringLiteral("stops"), range(11, 16));
        stops.metrics.append({15, QStringLiteral("drop_rate"), 0.0});
        const StageThreeResult withStop = evaluateStageThree({stops, damaged}, windowOf10());
        QCOMPARE(withStop.verdict.status, Verdict::Status::Stop);
        QVERIFY(withStop.verdict.reasons.last().startsWith(QStringLiteral("run damaged: ")));
        // Alone, a damaged run leaves nothing to judge.
        const StageThreeResult alone = evaluateStageThree({damaged}, windowOf10());
        QCOMPARE(alone.verdict.status, Verdict::Status::NotReady);
        QVERIFY(alone.runs.isEmpty());
    }

    void defaultWindowIsPlaceholder() {
        const StageThreeResult r = evaluateStageThree({}, ThresholdSet());
        QCOMPARE(r.verdict.thresholds.size(), 4);
        QCOMPARE(r.verdict.thresholds[3].key, QStringLiteral("stage3.window_steps"));
        QCOMPARE(r.verdict.thresholds[3].value, 1000.0);
        QCOMPARE(r.verdict.thresholds[3].source, store::ThresholdSource::Placeholder);
    }
};

QTEST_APPLESS_MAIN(TestStageThreeGate)
#include "test_stage_three_gate.moc"
