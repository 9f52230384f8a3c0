// Reading stage inputs from a real project file; the stage gating order (locked
// until the earlier stages passed or were overridden; stale locks too).
#include "StageFixtures.h"
#include "stages/StageInputs.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace moewb;
using namespace moewb::stages;
using namespace moewb::stages::test;

class TestStageInputs : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    int m_n = 0;

    std::unique_ptr<store::ProjectStore> freshProject() {
        auto opened = store::ProjectStore::open(m_dir.filePath(QStringLiteral("p%1.moewb").arg(++m_n)));
        if (!opened)
            qFatal("%s", qPrintable(opened.error().text()));
        auto p = std::move(opened.value());
        if (!p->addConfigRecord(QStringLiteral("moe"), moeRecord().toJson(), true) ||
            !p->addConfigRecord(QStringLiteral("dense"), denseRecord().toJson(), true))
            qFatal("cannot add records");
        return p;
    }

    static store::RunData probeRun(const QString& name, int world, int nodes, const QString& cluster = {}) {
        store::RunData run;
        run.name = name;
        run.kind = store::RunKind::Probe;
        run.recordName = QStringLiteral("moe");
        run.clusterName = cluster;
        run.environment = QJsonObject{{QStringLiteral("world"), world}, {QStringLiteral("nodes"), nodes}};
        addSize(run.commSamples, 1024, {{10, 11}, {10, 11}});
        return run;
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void stageOneInputsFromProbeRuns() {
        auto p = freshProject();
        QVERIFY(p->saveRun(probeRun(QStringLiteral("probe-a"), 32, 4)));
        store::RunData training;
        training.name = QStringLiteral("train");
        training.recordName = QStringLiteral("moe");
        training.stepMetrics = {{1, QStringLiteral("lm_loss"), 2.0},
                                {1, QStringLiteral("tokens_per_s_per_gpu"), 9.0}};
        QVERIFY(p->saveRun(training));
        store::RunData lossOnly = training;
        lossOnly.name = QStringLiteral("loss-only");
        lossOnly.stepMetrics = {{1, QStringLiteral("lm_loss"), 2.0}};
        QVERIFY(p->saveRun(lossOnly));
        auto in = loadStageOneInputs(*p, {});
        QVERIFY(in);
        QCOMPARE(in->size(), 1); // only runs with samples
        QCOMPARE(in->at(0).runName, QStringLiteral("probe-a"));
        QCOMPARE(*in->at(0).world, 32);
        QCOMPARE(*in->at(0).nodes, 4);
        QCOMPARE(in->at(0).samples.size(), 4);
        QCOMPARE(in->at(0).tool, BaselineTool::Probe);
        // An imported nccl-tests run (source_format as the import writes it) and one that says nothing.
        store::RunData nccl = probeRun(QStringLiteral("nccl-a"), 32, 4);
        nccl.kind = store::RunKind::Imported;
        nccl.environment.insert(QStringLiteral("source_format"), QStringLiteral("nccl-tests-json"));
        QVERIFY(p->saveRun(nccl));
        store::RunData unknown = nccl;
        unknown.name = QStringLiteral("unknown-a");
        unknown.environment.remove(QStringLiteral("source_format"));
        QVERIFY(p->saveRun(unknown));
        QCOMPARE(loadStageOneInputs(*p, {QStringLiteral("nccl-a")})->at(0).tool, BaselineTool::NcclTests);
        QCOMPARE(loadStageOneInputs(*p, {QStringLiteral("unknown-a")})->at(0).tool, BaselineTool::Unknown);
        QVERIFY(!loadStageOneInputs(*p, {QStringLiteral("nope")}));
        QVERIFY(loadStageOneInputs(*p, {QStringLiteral("nope")})
                    .error()
                    .message.contains(QStringLiteral("nope")));
        auto two = loadStageTwoInputs(*p, {});
        QCOMPARE(two->size(), 1); // runs without a throughput metric only when named
        QCOMPARE(two->at(0).runName, QStringLiteral("train"));
        QCOMPARE(loadStageTwoInputs(*p, {QStringLiteral("loss-only")})->size(), 1);
        QCOMPARE(two->at(0).record.moe.experts, qint64(64));
    }

    void lockedUntilTheEarlierStagePasses() {
        auto p = freshProject();
        QVERIFY(lockReason(*p, 1).isEmpty());
        QVERIFY(lockReason(*p, 2).contains(QStringLiteral("stage 1 has no verdict")));
        QVERIFY(
            p->saveVerdict({1, QStringLiteral("stop"), {}, QDateTime::currentDateTimeUtc().addSecs(-60), {}}));
        QVERIFY(lockReason(*p, 2).contains(QStringLiteral("\"stop\"")));
        // An override written after the stop unlocks.
        QVERIFY(p->addOverride(
            {0, 1, QStringLiteral("known noisy neighbour; accepted"), QStringLiteral("lead"), {}}));
        QVERIFY(lockReason(*p, 2).isEmpty());
        QVERIFY(lockReason(*p, 3).contains(QStringLiteral("stage 2 has no verdict")));
        QVERIFY(p->saveVerdict({2, QStringLiteral("pass"), {}, {}, {}}));
        QVERIFY(p->saveVerdict({3, QStringLiteral("overridden"), {}, {}, {}}));
        QVERIFY(lockReason(*p, 4).isEmpty());
        QVERIFY(p->saveVerdict({2, QStringLiteral("stale"), {}, {}, {}}));
        QVERIFY(lockReason(*p, 3).contains(QStringLiteral("stale")));
        QVERIFY(lockReason(*p, 4).contains(QStringLiteral("stale")));
        QVERIFY(p->saveVerdict({2, QStringLiteral("not_ready"), {}, {}, {}}));
        QVERIFY(!lockReason(*p, 3).isEmpty());
    }

    void stageTwoMoeRunsAreThoseBeforeItsVerdict() {
        auto p = freshProject();
        QVERIFY(loadStageTwoMoeRuns(*p).isEmpty());
        store::RunData moe;
        moe.name = QStringLiteral("moe-train");
        moe.recordName = QStringLiteral("moe");
        moe.stepMetrics = {{1, QStringLiteral("lm_loss"), 2.0},
                           {1, QStringLiteral("tokens_per_s_per_gpu"), 9.0}};
        QVERIFY(p->saveRun(moe));
        store::RunData loadOnly;
        loadOnly.name = QStringLiteral("load-only");
        loadOnly.recordName = QStringLiteral("moe");
        loadOnly.stepMetrics = {{1, QStringLiteral("drop_rate"), 0.0}};
        QVERIFY(p->saveRun(loadOnly));
        store::RunData dense = moe;
        dense.name = QStringLiteral("dense-train");
        dense.recordName = QStringLiteral("dense");
        QVERIFY(p->saveRun(dense));
        QVERIFY(p->saveVerdict({2, QStringLiteral("pass"), {}, QDateTime::currentDateTimeUtc().addSecs(60), {}}));
        const auto runs = loadStageTwoMoeRuns(*p);
        QCOMPARE(runs.size(), 1);
        QCOMPARE(runs[0].runName, QStringLiteral("moe-train"));
    }

    void stageFourPicksTwoClusters() {
        auto p = freshProject();
        QVERIFY(p->addCluster({0, QStringLiteral("prod-a"), 8, {}, {}}, {}));
        QVERIFY(p->addCluster({0, QStringLiteral("prod-b"), 8, {}, {}}, {}));
        QVERIFY(p->saveRun(probeRun(QStringLiteral("a1"), 32, 4, QStringLiteral("prod-a"))));
        auto in = loadStageFourInputs(*p, {});
        QVERIFY(!in);
        QVERIFY(in.error().message.contains(QStringLiteral("exactly two clusters")));
        QVERIFY(p->saveRun(probeRun(QStringLiteral("b1"), 32, 4, QStringLiteral("prod-b"))));
        QVERIFY(p->saveRun(probeRun(QStringLiteral("a2"), 32, 4, QStringLiteral("prod-a"))));
        in = loadStageFourInputs(*p, {});
        QVERIFY(in);
        QCOMPARE(in->source.run.runName, QStringLiteral("a2")); // latest of the first cluster
        QCOMPARE(in->target.run.runName, QStringLiteral("b1"));
        in = loadStageFourInputs(*p, {QStringLiteral("b1"), QStringLiteral("a1")});
        QVERIFY(in);
        QCOMPARE(in->source.run.runName, QStringLiteral("b1"));
        QVERIFY(!loadStageFourInputs(*p, {QStringLiteral("b1")}));
    }

    void thresholdsComeFromTheProject() {
        auto p = freshProject();
        QVERIFY(
            p->setThreshold({QStringLiteral("stage1.cv_max"), 0.05, store::ThresholdSource::Team, {}, {}}));
        const ThresholdSet t = loadThresholds(*p);
        QCOMPARE(t.get(QStringLiteral("stage1.cv_max")).value, 0.05);
        QCOMPARE(t.get(QStringLiteral("stage1.p99_over_median_max")).source,
                 store::ThresholdSource::Placeholder);
        QVERIFY(!t.get(QStringLiteral("stage1.p99_over_median_max")).builtInDefault); // seeded in the file
        QVERIFY(t.get(QStringLiteral("stage3.window_steps")).builtInDefault);
    }
};

QTEST_GUILESS_MAIN(TestStageInputs)
#include "test_stage_inputs.moc"
