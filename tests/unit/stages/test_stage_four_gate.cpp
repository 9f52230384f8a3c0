// Stage 4: the target cluster's stage 1 baseline against the source's, size by size,
// both ways at the threshold; applicability statement; refusal.
#include "StageFixtures.h"
#include "stages/StageFourGate.h"

#include <QtTest>
#include <cmath>

using namespace moewb;
using namespace moewb::stages;
using namespace moewb::stages::test;

namespace {

ClusterBaselineInput baseline(const QString& name, double medianAt1MiB, double medianAt4MiB = 400.0) {
    ClusterBaselineInput in{stageOneRun(name, name, 32, 4), moeRecord()};
    addSize(in.run.samples, 1048576, {repeated(medianAt1MiB, 3), repeated(medianAt1MiB, 3)});
    addSize(in.run.samples, 4194304, {repeated(medianAt4MiB, 3), repeated(medianAt4MiB, 3)});
    return in;
}

ThresholdSet diffMax(double v) {
    return teamThresholds({{QStringLiteral("stage4.baseline_diff_max"), v}});
}

} // namespace

class TestStageFourGate : public QObject {
    Q_OBJECT

private slots:
    void sizeBySizeDifference() {
        // 1 MiB: 100 µs vs 80 µs -> target bandwidth 1.25 × the source's.
        const StageFourResult r = evaluateStageFour(baseline(QStringLiteral("a"), 100),
                                                    baseline(QStringLiteral("b"), 80), diffMax(0.5));
        QCOMPARE(r.rows.size(), 2);
        QVERIFY(r.rows[0].effective);
        QVERIFY(std::fabs(r.rows[0].relativeDiff - 0.25) < 1e-12);
        QCOMPARE(r.rows[1].relativeDiff, 0.0);
        QCOMPARE(r.verdict.status, Verdict::Status::Pass);
    }

    void exactlyAtThresholdPassesJustOverStops() {
        const auto source = baseline(QStringLiteral("src"), 100);
        const auto target = baseline(QStringLiteral("dst"), 80);
        const double diff = evaluateStageFour(source, target, diffMax(1)).rows[0].relativeDiff;
        StageFourResult r = evaluateStageFour(source, target, diffMax(diff));
        QCOMPARE(r.verdict.status, Verdict::Status::Pass);
        r = evaluateStageFour(source, target, diffMax(diff - 1e-9));
        QCOMPARE(r.verdict.status, Verdict::Status::Stop);
        QVERIFY(r.rows[0].stops);
        QVERIFY(!r.rows[1].stops);
        const QString all = r.verdict.reasons.join(QLatin1Char('\n'));
        QVERIFY2(all.contains(QStringLiteral("1 MiB")), qPrintable(all));
        QVERIFY(all.contains(QStringLiteral("team threshold")));
        QVERIFY(all.contains(QStringLiteral("reference only, not for budget decisions")));
    }

    void placeholderDefault() {
        const StageFourResult r = evaluateStageFour(baseline(QStringLiteral("a"), 100),
                                                    baseline(QStringLiteral("b"), 80), ThresholdSet());
        QCOMPARE(r.verdict.thresholds[0].value, 0.15);
        QCOMPARE(r.verdict.status, Verdict::Status::Stop); // 0.25 > 0.15
        QVERIFY(r.verdict.reasons[0].contains(QStringLiteral("placeholder — set your own")));
    }

    void applicabilityStatement() {
        const StageFourResult r = evaluateStageFour(baseline(QStringLiteral("a"), 100),
                                                    baseline(QStringLiteral("b"), 100), ThresholdSet());
        const QString all = r.applicability.join(QLatin1Char('\n'));
        QVERIFY2(all.contains(QStringLiteral("Nodes: 4 × 8 H100 SXM5 80GB")), qPrintable(all));
        QVERIFY(all.contains(QStringLiteral("NVLink+IB NDR")));
        QVERIFY(all.contains(
            QStringLiteral("Experts: 64 per layer, top-8, capacity factor 1.25, overflow drop")));
        QVERIFY(all.contains(QStringLiteral("DP 16, TP 2, PP 1, EP 8, CP 1")));
    }

    void unmatchedSizesAndNoCommonSize() {
        ClusterBaselineInput target{stageOneRun(QStringLiteral("t"), {}, 32, 4), moeRecord()};
        addSize(target.run.samples, 1048576, {repeated(100, 3), repeated(100, 3)});
        addSize(target.run.samples, 65536, {repeated(10, 3), repeated(10, 3)});
        StageFourResult r = evaluateStageFour(baseline(QStringLiteral("s"), 100), target, ThresholdSet());
        QCOMPARE(r.rows.size(), 1);
        QCOMPARE(r.unmatchedSizes, (QList<quint64>{65536, 4194304}));
        QCOMPARE(r.verdict.status, Verdict::Status::Pass);
        ClusterBaselineInput other{stageOneRun(QStringLiteral("o"), {}, 32, 4), moeRecord()};
        addSize(other.run.samples, 512, {repeated(1, 3), repeated(1, 3)});
        r = evaluateStageFour(baseline(QStringLiteral("s"), 100), other, ThresholdSet());
        QCOMPARE(r.verdict.status, Verdict::Status::NotReady);
    }

    void algbwWhenAWorldIsUnknown() {
        auto target = baseline(QStringLiteral("t"), 100);
        target.run.world.reset();
        const StageFourResult r =
            evaluateStageFour(baseline(QStringLiteral("s"), 100), target, ThresholdSet());
        QVERIFY(!r.rows[0].effective);
        QCOMPARE(r.rows[0].relativeDiff, 0.0);
    }

    void refusedWhileARecordIsIncomplete() {
        auto target = baseline(QStringLiteral("t"), 100);
        target.record.cluster.topology.railOptimized.reset();
        const StageFourResult r =
            evaluateStageFour(baseline(QStringLiteral("s"), 100), target, ThresholdSet());
        QVERIFY(r.plan.refused);
        QCOMPARE(r.verdict.status, Verdict::Status::NotReady);
        QVERIFY(r.verdict.reasons.join(QLatin1Char(' '))
                    .contains(QStringLiteral("cluster.topology.rail_optimized")));
    }
};

QTEST_APPLESS_MAIN(TestStageFourGate)
#include "test_stage_four_gate.moc"
