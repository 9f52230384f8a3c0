// Stage 1: the table (median, P99, effective bandwidth, CV across repeats) and the
// gate, both ways at the exact threshold; suggested thresholds never applied.
#include "StageFixtures.h"
#include "stages/StageOneGate.h"
#include "stats/Bandwidth.h"

#include <QtTest>
#include <cmath>

using namespace moewb;
using namespace moewb::stages;
using namespace moewb::stages::test;

namespace {
// A size whose per-repeat medians are 9, 10, 11: mean 10, sample stddev 1, CV exactly 0.1.
StageOneRunInput cvRun(double lastRepeat = 11.0) {
    StageOneRunInput run = stageOneRun(QStringLiteral("probe-4n"), {}, 32, 4);
    addSize(run.samples, 1048576, {repeated(9.0, 5), repeated(10.0, 5), repeated(lastRepeat, 5)});
    return run;
}
} // namespace

class TestStageOneGate : public QObject {
    Q_OBJECT

private slots:
    void tableStatistics() {
        StageOneRunInput run = stageOneRun(QStringLiteral("r"), {}, 8, 1);
        addSize(run.samples, 1024, {{10, 10, 10}, {12, 12, 12}});
        addSize(run.samples, 64, {{1, 2}, {3, 4}});
        const StageOneTable t = stageOneTable(run);
        QCOMPARE(t.rows.size(), 2);
        QCOMPARE(t.rows[0].bytesPerRank, quint64(64)); // ascending
        const StageOneSizeRow& r = t.rows[1];
        QCOMPARE(r.samples, 6);
        QCOMPARE(r.repeats, 2);
        QCOMPARE(r.medianUs, 11.0); // numpy linear over all six samples
        QCOMPARE(r.p99Us, 12.0);
        QCOMPARE(r.repeatMeanUs, 11.0);
        QCOMPARE(r.repeatVarianceUs2, 2.0);
        QVERIFY(r.cv);
        QVERIFY(std::fabs(*r.cv - std::sqrt(2.0) / 11.0) < 1e-12);
        QCOMPARE(r.algBandwidth, stats::algorithmBandwidth(1024, 11.0));
        QVERIFY(r.effectiveBandwidth);
        QCOMPARE(*r.effectiveBandwidth, 1024.0 * 7.0 / 8.0 / 11e-6);
        QCOMPARE(r.p99OverMedian, 12.0 / 11.0);
    }

    void cvExactlyAtThresholdPasses() {
        const auto t = teamThresholds({{QStringLiteral("stage1.cv_max"), 0.10}});
        const StageOneResult r = evaluateStageOne({cvRun()}, t);
        QCOMPARE(*r.tables[0].rows[0].cv, 0.1);
        QCOMPARE(r.verdict.status, Verdict::Status::Pass);
        QVERIFY2(r.verdict.reasons.join(QLatin1Char(' ')).contains(QStringLiteral("10 % ≤ 10 % (team threshold)")),
                 qPrintable(r.verdict.reasons.join(QLatin1Char('\n'))));
    }

    void cvJustOverThresholdStops() {
        const auto t = teamThresholds({{QStringLiteral("stage1.cv_max"), 0.10}});
        const StageOneResult r = evaluateStageOne({cvRun(11.001)}, t);
        QVERIFY(*r.tables[0].rows[0].cv > 0.1);
        QCOMPARE(r.verdict.status, Verdict::Status::Stop);
        QCOMPARE(r.verdict.reasons.size(), 1);
        // Shares in %, and a value just over its limit never reads as equal to it.
        QVERIFY2(r.verdict.reasons[0].contains(QRegularExpression(
                     QStringLiteral("run-to-run CV 10\\.0\\d* % > 10 % \\(team threshold\\)"))),
                 qPrintable(r.verdict.reasons[0]));
        QVERIFY(r.verdict.reasons[0].contains(QStringLiteral("1 MiB")));
        QVERIFY(!r.verdict.nextStep.isEmpty());
    }

    void p99OverMedianBothWays() {
        // Two repeats of 98 × 10 µs and 2 × 20 µs: median 10, P99 20 (ratio exactly 2), CV 0.
        StageOneRunInput run = stageOneRun(QStringLiteral("r"), {}, 8, 1);
        addSize(run.samples, 4096, {repeated(10, 98) + repeated(20, 2), repeated(10, 98) + repeated(20, 2)});
        StageOneResult r =
            evaluateStageOne({run}, teamThresholds({{QStringLiteral("stage1.p99_over_median_max"), 2.0}}));
        QCOMPARE(r.tables[0].rows[0].p99OverMedian, 2.0);
        QCOMPARE(r.verdict.status, Verdict::Status::Pass);
        r = evaluateStageOne({run}, teamThresholds({{QStringLiteral("stage1.p99_over_median_max"), 1.99}}));
        QCOMPARE(r.verdict.status, Verdict::Status::Stop);
        QVERIFY2(r.verdict.reasons[0].contains(QStringLiteral("is 2× the median 10 µs > 1.99× (team threshold)")),
                 qPrintable(r.verdict.reasons[0]));
    }

    void placeholderSourceIsSaid() {
        const StageOneResult r = evaluateStageOne({cvRun(11.5)}, ThresholdSet());
        QCOMPARE(r.verdict.status, Verdict::Status::Stop);
        QVERIFY(r.verdict.reasons[0].contains(QStringLiteral("placeholder — set your own")));
        QCOMPARE(r.verdict.thresholds.size(), 2);
        QCOMPARE(r.verdict.thresholds[0].key, QStringLiteral("stage1.cv_max"));
        QCOMPARE(r.verdict.thresholds[0].source, store::ThresholdSource::Placeholder);
    }

    void notReadyWithoutRunsOrRepeats() {
        StageOneResult r = evaluateStageOne({}, ThresholdSet());
        QCOMPARE(r.verdict.status, Verdict::Status::NotReady);
        StageOneRunInput single = stageOneRun(QStringLiteral("one-repeat"), {}, 8, 1);
        addSize(single.samples, 1024, {{10, 11, 12}});
        r = evaluateStageOne({single}, ThresholdSet());
        QCOMPARE(r.verdict.status, Verdict::Status::NotReady);
        QVERIFY(r.verdict.reasons[0].contains(QStringLiteral("one repeat")));
        QVERIFY(!r.tables[0].rows[0].cv);
        // A stop elsewhere wins over a missing CV.
        r = evaluateStageOne({single, cvRun(20)}, ThresholdSet());
        QCOMPARE(r.verdict.status, Verdict::Status::Stop);
    }

    void unknownWorldShowsAlgbw() {
        StageOneRunInput run = cvRun();
        run.world.reset();
        const StageOneResult r = evaluateStageOne({run}, ThresholdSet());
        QVERIFY(!r.tables[0].rows[0].effectiveBandwidth);
        QVERIFY(r.verdict.notes.join(QLatin1Char(' ')).contains(QStringLiteral("algbw")));
    }

    // A record that does not say its node count or EP size cannot be matched to any
    // baseline: stage 1 is not ready (never a pass beside a note saying so), naming the
    // fields to fill.
    void recordWithoutNodesOrEpIsNotReady() {
        StageOneRunInput run = cvRun();
        run.nodesMeasured = 4;
        run.epSize = 8;
        const StageOneTarget matched{QStringLiteral("moe-4n-ep8"), {}, 4, 32, 8};
        QCOMPARE(evaluateStageOne({run}, ThresholdSet(), {matched}).verdict.status, Verdict::Status::Pass);
        const StageOneTarget noEp{QStringLiteral("moe-no-ep"), {}, 4, 32, std::nullopt};
        StageOneResult r = evaluateStageOne({run}, ThresholdSet(), {matched, noEp});
        QCOMPARE(r.verdict.status, Verdict::Status::NotReady);
        const QString reasons = r.verdict.reasons.join(QLatin1Char('\n'));
        QVERIFY2(reasons.contains(QStringLiteral("record moe-no-ep does not give parallelism.ep")), qPrintable(reasons));
        QVERIFY(!reasons.contains(QStringLiteral("cluster.nodes")));
        QVERIFY(r.verdict.nextStep.contains(QStringLiteral("parallelism.ep")));
        const StageOneTarget neither{QStringLiteral("moe-bare"), {}, std::nullopt, std::nullopt, std::nullopt};
        r = evaluateStageOne({run}, ThresholdSet(), {neither});
        QCOMPARE(r.verdict.status, Verdict::Status::NotReady);
        QVERIFY2(r.verdict.reasons.join(QLatin1Char(' ')).contains(
                     QStringLiteral("record moe-bare does not give cluster.nodes and parallelism.ep")),
                 qPrintable(r.verdict.reasons.join(QLatin1Char('\n'))));
    }

    // Seed 000 §4 step 1: measured at the training's node count and EP concurrency.
    void baselineMustMatchNodesAndConcurrency() {
        StageOneRunInput run = cvRun(); // 4 nodes, 32 ranks, one all-to-all over the world
        run.nodesMeasured = 4;
        const StageOneTarget target{QStringLiteral("moe-4n-ep8"), {}, 4, 32, 8};
        StageOneResult r = evaluateStageOne({run}, ThresholdSet(), {target});
        QCOMPARE(r.verdict.status, Verdict::Status::NotReady);
        QVERIFY2(r.verdict.reasons.join(QLatin1Char(' ')).contains(
                     QStringLiteral("probe-4n was measured as one 32-rank all-to-all; the training runs 4 concurrent "
                                    "all-to-alls of EP 8")),
                 qPrintable(r.verdict.reasons.join(QLatin1Char('\n'))));
        QVERIFY(r.verdict.nextStep.contains(QStringLiteral("moewb run stage1")));
        // EP groups of 8 at once over the 32 ranks: matched.
        run.epSize = 8;
        r = evaluateStageOne({run}, ThresholdSet(), {target});
        QCOMPARE(r.verdict.status, Verdict::Status::Pass);
        QCOMPARE(r.coverage.size(), 1);
        QVERIFY(r.coverage[0].covered);
        QCOMPARE(r.coverage[0].baselineRun, QStringLiteral("probe-4n"));
        // EP groups of another size are not the training's concurrency.
        run.epSize = 4;
        QCOMPARE(evaluateStageOne({run}, ThresholdSet(), {target}).verdict.status, Verdict::Status::NotReady);
        // The node count must be the run's own: 1 node measured for a 4-node record.
        run.epSize = 8;
        run.nodesMeasured = 1;
        r = evaluateStageOne({run}, ThresholdSet(), {target});
        QCOMPARE(r.verdict.status, Verdict::Status::NotReady);
        QVERIFY2(r.verdict.reasons.join(QLatin1Char(' ')).contains(
                     QStringLiteral("trains on 4 node(s): no baseline at that node count; the baselines were measured at 1 node(s)")),
                 qPrintable(r.verdict.reasons.join(QLatin1Char('\n'))));
        // Not stated at all: not taken from the record.
        run.nodesMeasured.reset();
        r = evaluateStageOne({run}, ThresholdSet(), {target});
        QVERIFY(r.verdict.reasons.join(QLatin1Char(' ')).contains(QStringLiteral("not say on how many nodes")));
        // One EP group that is the whole world: one all-to-all matches.
        StageOneRunInput one = cvRun();
        one.world = 8;
        one.nodesMeasured = 1;
        r = evaluateStageOne({one}, ThresholdSet(), {StageOneTarget{QStringLiteral("moe-1n-ep8"), {}, 1, 8, 8}});
        QCOMPARE(r.verdict.status, Verdict::Status::Pass);
        // A stop (CV) still wins; the missing baseline is listed beside it.
        r = evaluateStageOne({cvRun(20)}, ThresholdSet(), {target});
        QCOMPARE(r.verdict.status, Verdict::Status::Stop);
        QVERIFY(r.verdict.reasons.join(QLatin1Char(' ')).contains(QStringLiteral("moe-4n-ep8")));
    }

    void comparisonAcrossNodeCounts() {
        StageOneRunInput one = cvRun();
        one.runName = QStringLiteral("probe-1n");
        one.nodes = 1;
        StageOneResult r = evaluateStageOne({one}, ThresholdSet());
        QVERIFY(r.nodeComparison.isEmpty());
        r = evaluateStageOne({one, cvRun()}, ThresholdSet());
        QCOMPARE(r.nodeComparison.size(), 2);
        QCOMPARE(r.nodeComparison[0].nodes, 1);
        QCOMPARE(r.nodeComparison[1].nodes, 4);
        QVERIFY(r.nodeComparison[1].effective);
    }

    void suggestedThresholdsAreShownNotApplied() {
        StageOneRunInput run = stageOneRun(QStringLiteral("round1"), {}, 8, 1);
        // Per-size CVs 0.02, 0.04, 0.06 (medians 10 ± x): median 0.04 -> 1.5 × = 0.06.
        addSize(run.samples, 1024, {{9.8}, {10.0}, {10.2}});
        addSize(run.samples, 2048, {{9.6}, {10.0}, {10.4}});
        addSize(run.samples, 4096, {{9.4}, {10.0}, {10.6}});
        const StageOneResult r = evaluateStageOne({run}, ThresholdSet());
        QCOMPARE(r.suggestions.size(), 2);
        QCOMPARE(r.suggestions[0].key, QStringLiteral("stage1.cv_max"));
        QVERIFY2(std::fabs(r.suggestions[0].value - 0.06) < 1e-12,
                 qPrintable(QString::number(r.suggestions[0].value, 'g', 17)));
        QVERIFY(r.suggestions[0].basis.contains(QStringLiteral("round1")));
        // P99/median over the three samples of each size: 10.196/10, 10.392/10, 10.588/10;
        // median 1.0392 -> 1.5588 -> rounded up to two digits: 1.6.
        QCOMPARE(r.suggestions[1].key, QStringLiteral("stage1.p99_over_median_max"));
        QVERIFY(std::fabs(r.suggestions[1].value - 1.6) < 1e-12);
        // Not applied: the verdict still uses the placeholder 0.10.
        QCOMPARE(r.verdict.thresholds[0].value, 0.10);
        QCOMPARE(r.verdict.thresholds[0].source, store::ThresholdSource::Placeholder);

        StageOneRunInput quiet = stageOneRun(QStringLiteral("quiet"), {}, 8, 1);
        addSize(quiet.samples, 1024, {{10.0}, {10.0}, {10.001}});
        const auto floor = suggestStageOneThresholds({stageOneTable(quiet)});
        QVERIFY(std::fabs(floor[0].value - 0.02) < 1e-12);
        QVERIFY(std::fabs(floor[1].value - 1.6) < 1e-12); // 1.5 × 1.000098, rounded up
    }

    // Issue 17 1d: the advice names the flags of the tool the baselines came from.
    void adviceNamesTheToolTheDataCameFrom() {
        StageOneRunInput probe = cvRun(); // one 32-rank all-to-all on 4 nodes
        probe.nodesMeasured = 4;
        probe.tool = BaselineTool::Probe;
        StageOneRunInput nccl = probe;
        nccl.runName = QStringLiteral("nccl-4n");
        nccl.tool = BaselineTool::NcclTests;
        const StageOneTarget target{QStringLiteral("moe-4n-ep8"), {}, 4, 32, 8}; // concurrency not matched
        const auto advice = [&](const QList<StageOneRunInput>& runs) {
            const StageOneResult r = evaluateStageOne(runs, ThresholdSet(), {target});
            [&] { QCOMPARE(r.verdict.status, Verdict::Status::NotReady); }();
            return r.verdict.nextStep;
        };
        QString s = advice({probe});
        QVERIFY2(s.contains(QStringLiteral("moewb run stage1 --cluster NAME --record RECORD --nodes N")), qPrintable(s));
        QVERIFY2(!s.contains(QStringLiteral("alltoall_perf")), qPrintable(s));
        s = advice({nccl});
        QVERIFY2(s.contains(QStringLiteral("alltoall_perf -b 1M -e 256M -f 2 -n 20 -w 5 -g 1 -N 5")), qPrintable(s));
        QVERIFY2(s.contains(QStringLiteral("NCCL_TESTS_SPLIT_MASK")), qPrintable(s));
        QVERIFY2(!s.contains(QStringLiteral("moewb run stage1")), qPrintable(s));
        s = advice({probe, nccl});
        QVERIFY2(s.contains(QStringLiteral("moewb run stage1")) && s.contains(QStringLiteral("alltoall_perf")),
                 qPrintable(s));
        // A run that does not say which tool made it: the project's own probe.
        StageOneRunInput unknown = probe;
        unknown.tool = BaselineTool::Unknown;
        s = advice({unknown});
        QVERIFY2(s.contains(QStringLiteral("moewb run stage1")) && !s.contains(QStringLiteral("alltoall_perf")),
                 qPrintable(s));

        // One repeat per size: the repeat flag of each tool (-R for the probe, -N for alltoall_perf).
        StageOneRunInput single = stageOneRun(QStringLiteral("one-repeat"), {}, 8, 1);
        addSize(single.samples, 1024, {{10, 11, 12}});
        single.tool = BaselineTool::NcclTests;
        StageOneResult r = evaluateStageOne({single}, ThresholdSet());
        QCOMPARE(r.verdict.status, Verdict::Status::NotReady);
        QVERIFY2(r.verdict.nextStep.contains(QStringLiteral("alltoall_perf with -N 5")), qPrintable(r.verdict.nextStep));
        QVERIFY(!r.verdict.nextStep.contains(QStringLiteral("-R ")));
        QVERIFY2(r.verdict.reasons[0].contains(QStringLiteral("run alltoall_perf -N 5")), qPrintable(r.verdict.reasons[0]));
        single.tool = BaselineTool::Probe;
        r = evaluateStageOne({single}, ThresholdSet());
        QVERIFY2(r.verdict.nextStep.contains(QStringLiteral("-R 5")), qPrintable(r.verdict.nextStep));
        QVERIFY(!r.verdict.nextStep.contains(QStringLiteral("alltoall_perf")));
        QVERIFY2(r.verdict.reasons[0].endsWith(QStringLiteral("run the probe with -R 5 or more.")),
                 qPrintable(r.verdict.reasons[0]));
    }
};

QTEST_APPLESS_MAIN(TestStageOneGate)
#include "test_stage_one_gate.moc"
