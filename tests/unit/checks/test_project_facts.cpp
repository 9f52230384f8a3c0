// Project facts read from a real project file feed the checks.
#include "checks/MisjudgmentChecks.h"
#include "record/RecordJson.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace moewb;
using namespace moewb::checks;

class TestProjectFacts : public QObject {
    Q_OBJECT

private slots:
    void readsRunsMetricsAndNodes() {
        QTemporaryDir dir;
        auto opened = store::ProjectStore::open(dir.filePath(QStringLiteral("p.moewb")));
        QVERIFY(opened);
        auto& p = *opened.value();
        QFile f(QStringLiteral(MOEWB_SOURCE_DIR "/tests/fixtures/records/moe-64e-top8.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(
            p.addConfigRecord(QStringLiteral("moe"), record::parseRecord(f.readAll()).record.toJson(), true));
        store::RunData probe;
        probe.name = QStringLiteral("probe-1n");
        probe.kind = store::RunKind::Probe;
        probe.recordName = QStringLiteral("moe");
        probe.environment = QJsonObject{{QStringLiteral("nodes"), 1}, {QStringLiteral("world"), 8}};
        probe.commSamples = {{1024, 0, 0, 10.0}};
        QVERIFY(p.saveRun(probe));
        store::RunData train;
        train.name = QStringLiteral("train");
        train.recordName = QStringLiteral("moe");
        for (int s = 1; s <= 50; ++s) {
            train.stepMetrics.append({s, QStringLiteral("tokens_per_s_per_gpu"), 1000.0});
            train.stepMetrics.append({s, QStringLiteral("lm_loss"), 2.0});
        }
        train.stepMetrics.append({1, QStringLiteral("load_balancing_loss"), 0.01});
        QVERIFY(p.saveRun(train));

        const ProjectFacts facts = loadProjectFacts(p);
        QCOMPARE(facts.runs.size(), 2);
        QCOMPARE(*facts.runs[0].commNodes, 1);
        QVERIFY(facts.runs[0].hasCommSamples);
        QCOMPARE(facts.runs[1].throughput.size(), 50);
        QCOMPARE(facts.runs[1].loss.size(), 50);
        QVERIFY(facts.runs[1].hasLoadBalancingLoss);
        QVERIFY(!facts.runs[1].hasExpertLoad);
        QVERIFY(facts.runs[1].recordComplete);

        QList<int> ids;
        for (const auto& w : runAllChecks(facts))
            ids << w.id;
        QCOMPARE(ids, (QList<int>{3, 5})); // mean load only; stage 1 only at 1 node for a 4-node run
    }
};

QTEST_GUILESS_MAIN(TestProjectFacts)
#include "test_project_facts.moc"
