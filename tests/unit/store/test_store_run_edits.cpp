// Editing runs after import (docs/store.md, "Editing runs"): rename keeps the run's id
// and data and every link — the verdicts' bases and a probe run's pattern_origin —
// read back by a second connection; a taken or bad name, a missing record, a bad tag
// or an unknown run among several to remove changes nothing.
#include "store/ProjectStore.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

using namespace moewb::store;

namespace {
RunData run(const QString& name, const QString& record, const QJsonObject& env = {}) {
    RunData r;
    r.name = name;
    r.kind = RunKind::Probe;
    r.recordName = record;
    r.environment = env;
    r.commSamples = CommSampleList{{1024, 0, 0, 10.0}, {1024, 0, 1, 11.0}};
    r.stepMetrics = {{1, QStringLiteral("lm_loss"), 2.5}};
    return r;
}
} // namespace

class TestStoreRunEdits : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::unique_ptr<ProjectStore> m_store;
    QString m_path;

    std::unique_ptr<ProjectStore> second() const {
        auto s = ProjectStore::open(m_path, OpenMode::MustExist);
        return s ? std::move(*s) : nullptr;
    }

private slots:
    void init() {
        static int n = 0;
        m_path = m_dir.filePath(QStringLiteral("p%1.moewb").arg(++n));
        auto opened = ProjectStore::open(m_path);
        QVERIFY(opened);
        m_store = std::move(*opened);
        QVERIFY(m_store->addConfigRecord(QStringLiteral("rec-a"), {}, false));
        QVERIFY(m_store->addConfigRecord(QStringLiteral("rec-b"), {}, false));
        QVERIFY(m_store->saveRun(run(QStringLiteral("train"), QStringLiteral("rec-a"))));
        QVERIFY(m_store->saveRun(run(QStringLiteral("routed"), QStringLiteral("rec-a"),
                                     {{QStringLiteral("pattern_origin"), QStringLiteral("from-run:train:3 (measured)")}})));
        QVERIFY(m_store->saveRun(run(QStringLiteral("other"), QStringLiteral("rec-a"),
                                     {{QStringLiteral("pattern_origin"), QStringLiteral("from-run:trainer")}})));
        const auto t = m_store->run(QStringLiteral("train"));
        VerdictRow v;
        v.stage = 1;
        v.status = QStringLiteral("pass");
        v.basis = {{QStringLiteral("selection"), QStringLiteral("named")},
                   {QStringLiteral("runs"), QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("train")},
                                                                   {QStringLiteral("id"), t->id}}}}};
        QVERIFY(m_store->saveVerdict(v));
    }

    void renameKeepsLinks() {
        const auto before = m_store->run(QStringLiteral("train"));
        QVERIFY(m_store->renameRun(QStringLiteral("train"), QStringLiteral("train-v2")));
        const auto s = second();
        QVERIFY(!s->run(QStringLiteral("train")));
        const auto after = s->run(QStringLiteral("train-v2"));
        QVERIFY(after);
        QCOMPARE(after->id, before->id);
        QCOMPARE(after->updated, before->updated);
        QCOMPARE(s->commSamples(after->id).size(), 2);
        QCOMPARE(s->verdict(1)->basis.value(QStringLiteral("runs")).toArray().first().toObject().value(QStringLiteral("name")).toString(),
                 QStringLiteral("train-v2"));
        QCOMPARE(s->run(QStringLiteral("routed"))->environment.value(QStringLiteral("pattern_origin")).toString(),
                 QStringLiteral("from-run:train-v2:3 (measured)"));
        // A name that only starts like it is another run's.
        QCOMPARE(s->run(QStringLiteral("other"))->environment.value(QStringLiteral("pattern_origin")).toString(),
                 QStringLiteral("from-run:trainer"));
    }

    void renameRefusals() {
        QVERIFY(!m_store->renameRun(QStringLiteral("train"), QStringLiteral("routed")));
        QVERIFY(!m_store->renameRun(QStringLiteral("train"), QStringLiteral("bad\x1bname")));
        QVERIFY(!m_store->renameRun(QStringLiteral("train"), QStringLiteral("  ")));
        QVERIFY(!m_store->renameRun(QStringLiteral("nope"), QStringLiteral("x")));
        const auto s = second();
        QVERIFY(s->run(QStringLiteral("train")));
        QCOMPARE(s->verdict(1)->basis.value(QStringLiteral("runs")).toArray().first().toObject().value(QStringLiteral("name")).toString(),
                 QStringLiteral("train"));
    }

    void move() {
        QVERIFY(m_store->moveRun(QStringLiteral("train"), QStringLiteral("rec-b")));
        QCOMPARE(second()->run(QStringLiteral("train"))->recordName, QStringLiteral("rec-b"));
        QVERIFY(!m_store->moveRun(QStringLiteral("train"), QStringLiteral("rec-none")));
        QCOMPARE(second()->run(QStringLiteral("train"))->recordName, QStringLiteral("rec-b"));
    }

    void tags() {
        QVERIFY(m_store->setRunTags(QStringLiteral("train"), {QStringLiteral(" a "), QStringLiteral("b"), QStringLiteral("a"), QString()}));
        QCOMPARE(ProjectStore::runTags(*second()->run(QStringLiteral("train"))), (QStringList{QStringLiteral("a"), QStringLiteral("b")}));
        QVERIFY(!m_store->setRunTags(QStringLiteral("train"), {QStringLiteral("ok"), QStringLiteral("bad\ntag")}));
        QVERIFY(!m_store->setRunTags(QStringLiteral("train"), {QString(65, QLatin1Char('x'))}));
        QCOMPARE(ProjectStore::runTags(*second()->run(QStringLiteral("train"))), (QStringList{QStringLiteral("a"), QStringLiteral("b")}));
        QVERIFY(m_store->setRunTags(QStringLiteral("train"), {}));
        QVERIFY(!second()->run(QStringLiteral("train"))->environment.contains(QStringLiteral("user_tags")));
    }

    void removeSeveral() {
        const qint64 id = m_store->run(QStringLiteral("train"))->id;
        // An unknown name refuses all: nothing goes.
        QVERIFY(!m_store->removeRuns({QStringLiteral("train"), QStringLiteral("nope")}));
        QCOMPARE(second()->runs().size(), 3);
        QVERIFY(m_store->removeRuns({QStringLiteral("train"), QStringLiteral("routed")}));
        const auto s = second();
        QCOMPARE(s->runs().size(), 1);
        QVERIFY(s->commSamples(id).isEmpty());
        QVERIFY(s->stepMetrics(id).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestStoreRunEdits)
#include "test_store_run_edits.moc"
