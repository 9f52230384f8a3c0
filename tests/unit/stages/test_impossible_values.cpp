// Impossible values in every gate's input (issue: a probe run whose samples are all
// 0 µs passed stage 1 with algbw "nan"): each gate is not ready and names where the
// value is; the same data with a possible value decides as before.
#include "StageFixtures.h"
#include "stages/ImpossibleValues.h"
#include "stages/StageFourGate.h"
#include "stages/StageOneGate.h"
#include "stages/StageThreeGate.h"
#include "stages/StageTwoGate.h"

#include <QtTest>
#include <limits>

using namespace moewb;
using namespace moewb::stages;
using namespace moewb::stages::test;

namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

StageOneRunInput commRun(const QString& name, double time) {
    StageOneRunInput run;
    run.runName = name;
    run.clusterName = name;
    run.world = 8;
    run.nodes = 1;
    addSize(run.samples, 1048576, {repeated(time, 4), repeated(time, 4)});
    return run;
}

TrainingRunInput trainingRun(const QString& name, const record::ConfigRecord& rec, double tps, double loss) {
    TrainingRunInput run{name, rec, {}};
    addSeries(run.metrics, QStringLiteral("tokens_per_s_per_gpu"), 1, 100, 1000.0);
    addSeries(run.metrics, QStringLiteral("lm_loss"), 1, 100, 2.0);
    addSeries(run.metrics, QStringLiteral("val_loss"), 50, 100, 2.5, 50);
    run.metrics[60].value = tps;  // step 61's throughput
    run.metrics[170].value = loss; // step 71's loss
    return run;
}

void verifyImpossible(const Verdict& v, const QString& where) {
    const QString all = v.reasons.join(QLatin1Char('\n'));
    QCOMPARE(v.status, Verdict::Status::NotReady);
    QVERIFY2(v.reasons.value(0) == QStringLiteral("Not ready: the data holds impossible values."), qPrintable(all));
    QVERIFY2(all.contains(where), qPrintable(all));
}

} // namespace

class TestImpossibleValues : public QObject {
    Q_OBJECT

private slots:
    void stageOneRefusesZeroTimes() {
        // Before: median 0, CV 0/0 = nan (never above the limit) -> PASS.
        const StageOneResult bad = evaluateStageOne({commRun(QStringLiteral("zero"), 0.0)}, ThresholdSet());
        verifyImpossible(bad.verdict, QStringLiteral("run zero, 1 MiB, repeat 0, iteration 0: time 0 µs for a "
                                                     "non-empty message."));
        QCOMPARE(evaluateStageOne({commRun(QStringLiteral("ok"), 10.0)}, ThresholdSet()).verdict.status,
                 Verdict::Status::Pass);
    }

    void stageOneRefusesNonFiniteAndNegativeTimes() {
        StageOneRunInput run = commRun(QStringLiteral("r"), 10.0);
        run.samples[3].timeUs = kNan;
        run.samples[5].timeUs = -kInf;
        run.samples[6].timeUs = -2.0;
        const Verdict v = evaluateStageOne({run}, ThresholdSet()).verdict;
        verifyImpossible(v, QStringLiteral("repeat 0, iteration 3: time nan µs is not a number"));
        verifyImpossible(v, QStringLiteral("repeat 1, iteration 1: time -inf µs is not a number"));
        verifyImpossible(v, QStringLiteral("repeat 1, iteration 2: time -2 µs is negative"));
    }

    void zeroBytesTakeZeroTime() {
        StageOneRunInput run;
        run.runName = QStringLiteral("r");
        addSize(run.samples, 0, {repeated(0.0, 3), repeated(0.0, 3)});
        QVERIFY(impossibleCommSamples(run.runName, run.samples).isEmpty());
    }

    void listIsBounded() {
        const StageOneRunInput run = commRun(QStringLiteral("zero"), 0.0); // 8 impossible samples
        const QStringList found = impossibleCommSamples(run.runName, run.samples, 5);
        QCOMPARE(found.size(), 6);
        QCOMPARE(found.last(), QStringLiteral("… and 3 more impossible value(s)."));
    }

    void stageTwoRefusesNonFiniteOrNegativeMetrics() {
        const TrainingRunInput dense = trainingRun(QStringLiteral("dense"), denseRecord(), 1000.0, 2.0);
        QCOMPARE(evaluateStageTwo({trainingRun(QStringLiteral("moe"), moeRecord(), 1000.0, 2.0), dense},
                                  ThresholdSet())
                     .verdict.status,
                 Verdict::Status::Pass);
        verifyImpossible(evaluateStageTwo({trainingRun(QStringLiteral("moe"), moeRecord(), kInf, 2.0), dense},
                                          ThresholdSet())
                             .verdict,
                         QStringLiteral("run moe, step 61: tokens_per_s_per_gpu is inf."));
        verifyImpossible(evaluateStageTwo({trainingRun(QStringLiteral("moe"), moeRecord(), 1000.0, -0.5), dense},
                                          ThresholdSet())
                             .verdict,
                         QStringLiteral("run moe, step 71: lm_loss is -0.5, below its lowest possible value 0."));
        verifyImpossible(evaluateStageTwo({trainingRun(QStringLiteral("moe"), moeRecord(), 1000.0, kNan), dense},
                                          ThresholdSet())
                             .verdict,
                         QStringLiteral("run moe, step 71: lm_loss is nan."));
    }

    void stageThreeRefusesImpossibleDropRates() {
        record::ConfigRecord rec = moeRecord();
        rec.moe.experts = 4;
        rec.moe.topK = 2;
        rec.parallelism.ep = 2;
        ExpertLoadRunInput run;
        run.runName = QStringLiteral("moe");
        run.record = rec;
        for (int s = 1; s <= 20; ++s) {
            run.blocks.append({s, 0, {15, 15, 15, 15}});
            run.metrics.append({s, QStringLiteral("drop_rate"), 0.0});
        }
        QCOMPARE(evaluateStageThree({run}, ThresholdSet()).verdict.status, Verdict::Status::Pass);
        run.metrics[19].value = 1.5;
        verifyImpossible(evaluateStageThree({run}, ThresholdSet()).verdict,
                         QStringLiteral("run moe, step 20: drop_rate is 1.5, a rate above 1."));
        run.metrics[19].value = kNan;
        verifyImpossible(evaluateStageThree({run}, ThresholdSet()).verdict,
                         QStringLiteral("run moe, step 20: drop_rate is nan."));
    }

    void stageFourRefusesEitherBaseline() {
        const ClusterBaselineInput good{commRun(QStringLiteral("a"), 100.0), moeRecord()};
        const ClusterBaselineInput zero{commRun(QStringLiteral("b"), 0.0), moeRecord()};
        QCOMPARE(evaluateStageFour(good, good, ThresholdSet()).verdict.status, Verdict::Status::Pass);
        verifyImpossible(evaluateStageFour(good, zero, ThresholdSet()).verdict,
                         QStringLiteral("run b, 1 MiB, repeat 0, iteration 0"));
        verifyImpossible(evaluateStageFour(zero, good, ThresholdSet()).verdict,
                         QStringLiteral("run b, 1 MiB"));
    }
};

QTEST_GUILESS_MAIN(TestImpossibleValues)
#include "test_impossible_values.moc"
