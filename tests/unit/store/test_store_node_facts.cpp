// ProjectStore::updateNodeFacts on a real SQLite file: facts replaced by address, the
// GPU count only when given, other clusters untouched, an unknown address refused with
// nothing written; the values survive closing and reopening the file. updateCluster
// (nodes kept by address keep their facts, dropped ones go, new ones come; a taken name
// refused), setClusterFacts, and removeCluster (refused while a run names the cluster).
#include "store/ProjectStore.h"

#include <QTemporaryDir>
#include <QTest>

using namespace moewb::store;

class TestStoreNodeFacts : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void updateNodeFacts() {
        QVERIFY(m_dir.isValid());
        const QString path = m_dir.filePath(QStringLiteral("facts.moewb"));
        qint64 lab = 0;
        qint64 other = 0;
        {
            auto store = ProjectStore::open(path);
            QVERIFY(store);
            auto& s = **store;
            auto a = s.addCluster(ClusterRow{0, QStringLiteral("lab"), 8, {}, {}},
                                  {NodeRow{0, 0, QStringLiteral("gpu01"), 8, QJsonObject{{"hostname", "old"}}},
                                   NodeRow{0, 0, QStringLiteral("alice@10.0.0.2:2222"), 8, {}}});
            auto b = s.addCluster(ClusterRow{0, QStringLiteral("other"), 4, {}, {}},
                                  {NodeRow{0, 0, QStringLiteral("gpu01"), 4, QJsonObject{{"hostname", "keep"}}}});
            QVERIFY(a && b);
            lab = *a;
            other = *b;

            const QJsonObject fresh{{"hostname", "gpu01.lab"}, {"gpu_count", 4}};
            auto u = s.updateNodeFacts(lab, {NodeRow{0, 0, QStringLiteral("gpu01"), 4, fresh},
                                             NodeRow{0, 0, QStringLiteral("alice@10.0.0.2:2222"), 0,
                                                     QJsonObject{{"hostname", "n2"}}}});
            QVERIFY2(u, qPrintable(u ? QString() : u.error().text()));

            // An address outside the cluster: refused, naming it; nothing of the batch written.
            auto bad = s.updateNodeFacts(lab, {NodeRow{0, 0, QStringLiteral("gpu01"), 2, QJsonObject{{"hostname", "x"}}},
                                               NodeRow{0, 0, QStringLiteral("gpu99"), 0, {}}});
            QVERIFY(!bad);
            QVERIFY2(bad.error().text().contains(QStringLiteral("gpu99")), qPrintable(bad.error().text()));
        }
        auto store = ProjectStore::open(path, OpenMode::MustExist);
        QVERIFY(store);
        const QList<NodeRow> nodes = (*store)->nodes(lab);
        QCOMPARE(nodes.size(), 2);
        QCOMPARE(nodes[0].facts.value("hostname").toString(), QStringLiteral("gpu01.lab"));
        QCOMPARE(nodes[0].gpus, 4);
        QCOMPARE(nodes[1].facts.value("hostname").toString(), QStringLiteral("n2"));
        QCOMPARE(nodes[1].gpus, 8);  // 0: kept
        const QList<NodeRow> others = (*store)->nodes(other);
        QCOMPARE(others.size(), 1);
        QCOMPARE(others[0].facts.value("hostname").toString(), QStringLiteral("keep"));
    }

    void editAndRemoveCluster() {
        const QString path = m_dir.filePath(QStringLiteral("edit.moewb"));
        auto opened = ProjectStore::open(path);
        QVERIFY(opened);
        auto& s = **opened;
        auto a = s.addCluster(ClusterRow{0, QStringLiteral("a"), 8, QStringLiteral("/k/id"), {}},
                              {NodeRow{0, 0, QStringLiteral("n1"), 8, QJsonObject{{"hostname", "one"}}},
                               NodeRow{0, 0, QStringLiteral("n2"), 8, QJsonObject{{"hostname", "two"}}}});
        auto b = s.addCluster(ClusterRow{0, QStringLiteral("b"), 0, {}, {}}, {NodeRow{0, 0, QStringLiteral("m1"), 0, {}}});
        QVERIFY(a && b);
        const qint64 keptId = s.nodes(*a).at(0).id;
        // Rename, drop n2, add n3; n1 keeps its id and facts, its GPU count follows.
        auto u = s.updateCluster(*a, ClusterRow{0, QStringLiteral("a2"), 4, QString(), QJsonObject{{"note", "x"}}},
                                 {NodeRow{0, 0, QStringLiteral("n1"), 4, {}}, NodeRow{0, 0, QStringLiteral("n3"), 4, {}}});
        QVERIFY2(u, qPrintable(u ? QString() : u.error().text()));
        // A taken name: refused, nothing changed.
        auto taken = s.updateCluster(*a, ClusterRow{0, QStringLiteral("b"), 1, {}, {}}, {NodeRow{0, 0, QStringLiteral("z"), 1, {}}});
        QVERIFY(!taken);
        QVERIFY2(taken.error().text().contains(QStringLiteral("b already exists")), qPrintable(taken.error().text()));
        QVERIFY(s.setClusterFacts(*a, QJsonObject{{"last_check", QJsonObject{{"ok", 2}}}}));
        opened = ProjectStore::open(path, OpenMode::MustExist);  // read back from the file
        QVERIFY(opened);
        auto& r = **opened;
        const QList<ClusterRow> clusters = r.clusters();
        QCOMPARE(clusters.size(), 2);
        QCOMPARE(clusters[0].name, QStringLiteral("a2"));
        QCOMPARE(clusters[0].gpusPerNode, 4);
        QCOMPARE(clusters[0].identityFile, QString());
        QCOMPARE(clusters[0].facts.value("last_check").toObject().value("ok").toInt(), 2);
        const QList<NodeRow> nodes = r.nodes(*a);
        QCOMPARE(nodes.size(), 2);
        QCOMPARE(nodes[0].address, QStringLiteral("n1"));
        QCOMPARE(nodes[0].id, keptId);
        QCOMPARE(nodes[0].gpus, 4);
        QCOMPARE(nodes[0].facts.value("hostname").toString(), QStringLiteral("one"));
        QCOMPARE(nodes[1].address, QStringLiteral("n3"));
        // A run measured on b: b cannot be removed; a can.
        QVERIFY(r.addConfigRecord(QStringLiteral("rec"), QJsonObject{}, false));
        RunData run;
        run.name = QStringLiteral("r1");
        run.recordName = QStringLiteral("rec");
        run.clusterName = QStringLiteral("b");
        auto saved = r.saveRun(run);
        QVERIFY2(saved, qPrintable(saved ? QString() : saved.error().text()));
        auto refused = r.removeCluster(*b);
        QVERIFY(!refused);
        QVERIFY2(refused.error().text().contains(QStringLiteral("r1")), qPrintable(refused.error().text()));
        QCOMPARE(r.nodes(*b).size(), 1);
        QVERIFY(r.removeCluster(*a));
        QCOMPARE(r.clusters().size(), 1);
        QCOMPARE(r.nodes(*a).size(), 0);
    }
};

QTEST_GUILESS_MAIN(TestStoreNodeFacts)
#include "test_store_node_facts.moc"
