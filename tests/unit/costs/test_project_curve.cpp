// The stage 1 curve a project gives the step-time estimate (`moewb costs`, the cost
// explorer): a real project file with two stage 1 runs of different all-to-all worlds.
#include "../stages/StageFixtures.h"
#include "costs/StepTimeEstimate.h"
#include "store/ProjectStore.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace moewb;
using namespace moewb::stages::test;

namespace {

// A probe run of `world` ranks: per size, two repeats of three iterations around `us`.
store::RunData probeRun(const QString& name, int world, const QList<QPair<quint64, double>>& sizes) {
    store::RunData run;
    run.name = name;
    run.kind = store::RunKind::Probe;
    run.recordName = QStringLiteral("moe");
    run.environment = QJsonObject{{QStringLiteral("world"), world}, {QStringLiteral("nodes"), world / 8}};
    for (const auto& [bytes, us] : sizes)
        addSize(run.commSamples, bytes, {{us - 1, us, us + 1}, {us - 1, us, us + 1}});
    return run;
}

} // namespace

class TestProjectCurve : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_path;

    std::unique_ptr<store::ProjectStore> openProject(const QString& path) {
        auto opened = store::ProjectStore::open(path);
        if (!opened)
            qFatal("%s", qPrintable(opened.error().text()));
        return std::move(opened.value());
    }

private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        m_path = m_dir.filePath(QStringLiteral("curves.moewb"));
        auto p = openProject(m_path);
        QVERIFY(p->addConfigRecord(QStringLiteral("moe"), moeRecord().toJson(), true));
        QVERIFY(p->saveRun(probeRun(QStringLiteral("eight"), 8, {{4096, 40.0}, {1024, 10.0}})));
        QVERIFY(p->saveRun(probeRun(QStringLiteral("sixteen"), 16, {{1024, 20.0}, {4096, 80.0}, {16384, 300.0}})));
    }

    // Two runs of EP-8 groups, at 2 and 4 nodes: the record's node count picks the curve
    // (the network its all-to-all crosses), not the order the runs were stored in.
    void recordsNodeCountPicksAmongRunsAtEp() {
        QTemporaryDir dir;
        auto p = openProject(dir.filePath(QStringLiteral("nodes.moewb")));
        QVERIFY(p->addConfigRecord(QStringLiteral("moe"), moeRecord().toJson(), true));
        auto grouped = [](const QString& name, int world, double us) {
            store::RunData run = probeRun(name, world, {{1024, us}, {4096, 4 * us}});
            run.environment.insert(QStringLiteral("ep_size"), 8);
            return run;
        };
        QVERIFY(p->saveRun(grouped(QStringLiteral("two-nodes"), 16, 30.0)));
        QVERIFY(p->saveRun(grouped(QStringLiteral("four-nodes"), 32, 45.0)));
        QCOMPARE(costs::commCurveFromProject(*p, 8, {}, 4).curve->runName, QStringLiteral("four-nodes"));
        QCOMPARE(costs::commCurveFromProject(*p, 8, {}, 2).curve->runName, QStringLiteral("two-nodes"));
        // No node count asked, or none at it: the first at EP, as before.
        QCOMPARE(costs::commCurveFromProject(*p, 8).curve->runName, QStringLiteral("two-nodes"));
        QCOMPARE(costs::commCurveFromProject(*p, 8, {}, 3).curve->runName, QStringLiteral("two-nodes"));
        const costs::ProjectCurve four = costs::commCurveFromProject(*p, 8, {}, 4);
        QVERIFY(four.worldMatchesEp);
        QCOMPARE(four.curve->points.first().medianUs, 45.0); // the median of 44, 45, 46 (twice)
    }

    void runWhoseWorldEqualsEp() {
        auto p = openProject(m_path); // read back from the file
        const costs::ProjectCurve c = costs::commCurveFromProject(*p, 16);
        QVERIFY(c.error.isEmpty());
        QVERIFY(c.curve);
        QCOMPARE(c.curve->runName, QStringLiteral("sixteen"));
        QVERIFY(c.worldMatchesEp);
        QCOMPARE(c.curve->points.size(), 3);
        QCOMPARE(c.curve->points[0].bytesPerRank, 1024.0);
        QCOMPARE(c.curve->points[0].medianUs, 20.0);
        QCOMPARE(c.curve->points[2].bytesPerRank, 16384.0);
        QCOMPARE(c.curve->points[2].medianUs, 300.0);

        const costs::ProjectCurve e = costs::commCurveFromProject(*p, 8);
        QVERIFY(e.curve);
        QCOMPARE(e.curve->runName, QStringLiteral("eight"));
        QVERIFY(e.worldMatchesEp);
        QCOMPARE(e.curve->points.size(), 2);
        QCOMPARE(e.curve->points[0].bytesPerRank, 1024.0); // ascending, though stored 4096 first
        QCOMPARE(e.curve->points[0].medianUs, 10.0);
        QCOMPARE(e.curve->points[1].medianUs, 40.0);
        // The curve the estimate interpolates: halfway between 1 KiB and 4 KiB.
        QCOMPARE(costs::timeAt(*e.curve, 2560.0)->timeUs, 25.0);
    }

    void noMatchingWorldTakesTheFirst() {
        auto p = openProject(m_path);
        const costs::ProjectCurve c = costs::commCurveFromProject(*p, 4);
        QVERIFY(c.error.isEmpty());
        QVERIFY(c.curve);
        QCOMPARE(c.curve->runName, QStringLiteral("eight"));
        QVERIFY(!c.worldMatchesEp);
    }

    void namedRunWinsOverEp() {
        auto p = openProject(m_path);
        const costs::ProjectCurve c = costs::commCurveFromProject(*p, 16, QStringLiteral("eight"));
        QVERIFY(c.curve);
        QCOMPARE(c.curve->runName, QStringLiteral("eight"));
        QVERIFY(!c.worldMatchesEp);

        const costs::ProjectCurve missing = costs::commCurveFromProject(*p, 16, QStringLiteral("nope"));
        QVERIFY(!missing.curve);
        QVERIFY2(missing.error.contains(QStringLiteral("nope")), qPrintable(missing.error));
    }

    // A probe run that measured the training's own routing (from-run:, in EP groups of
    // 16 over 32 ranks) is the curve at EP 16, before a uniform run of world 16.
    void measuredRoutingCurveFirst() {
        auto p = openProject(m_dir.filePath(QStringLiteral("routed.moewb")));
        QVERIFY(p->addConfigRecord(QStringLiteral("moe"), moeRecord().toJson(), true));
        QVERIFY(p->saveRun(probeRun(QStringLiteral("uniform16"), 16, {{1024, 20.0}, {4096, 80.0}})));
        store::RunData routed = probeRun(QStringLiteral("routed"), 32, {{1024, 30.0}, {4096, 130.0}});
        routed.environment.insert(QStringLiteral("ep_size"), 16);
        routed.environment.insert(QStringLiteral("pattern_origin"),
                                  QStringLiteral("from-run:train:worst (steps 1-9, layer 3)"));
        QVERIFY(p->saveRun(routed));
        const costs::ProjectCurve c = costs::commCurveFromProject(*p, 16);
        QVERIFY(c.curve);
        QCOMPARE(c.curve->runName, QStringLiteral("routed"));
        QCOMPARE(c.curve->routingOrigin, QStringLiteral("from-run:train:worst (steps 1-9, layer 3)"));
        QVERIFY(c.worldMatchesEp); // EP groups of 16: the concurrency asked for
        QCOMPARE(c.curve->points[1].medianUs, 130.0);
        // Named, the uniform one; it carries no routing origin.
        const costs::ProjectCurve u = costs::commCurveFromProject(*p, 16, QStringLiteral("uniform16"));
        QCOMPARE(u.curve->runName, QStringLiteral("uniform16"));
        QVERIFY(u.curve->routingOrigin.isEmpty());
        // At EP 32 neither ran EP-sized all-to-alls of 32 (routed ran groups of 16).
        const costs::ProjectCurve e = costs::commCurveFromProject(*p, 32);
        QVERIFY(!e.worldMatchesEp);
    }

    void projectWithoutStageOneRuns() {
        auto p = openProject(m_dir.filePath(QStringLiteral("empty.moewb")));
        QVERIFY(p->addConfigRecord(QStringLiteral("moe"), moeRecord().toJson(), true));
        store::RunData training;
        training.name = QStringLiteral("train");
        training.recordName = QStringLiteral("moe");
        training.stepMetrics = {{1, QStringLiteral("tokens_per_s_per_gpu"), 9.0}};
        QVERIFY(p->saveRun(training));
        const costs::ProjectCurve c = costs::commCurveFromProject(*p, 16);
        QVERIFY(!c.curve);
        QVERIFY(c.error.isEmpty()); // nothing went wrong: there is no curve to use
    }
};

QTEST_GUILESS_MAIN(TestProjectCurve)
#include "test_project_curve.moc"
