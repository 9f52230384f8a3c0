// ProjectStore::updateNodeFacts on a real SQLite file: facts replaced by address, the
// GPU count only when given, other clusters untouched, an unknown address refused with
// nothing written; the values survive closing and reopening the file.
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
};

QTEST_GUILESS_MAIN(TestStoreNodeFacts)
#include "test_store_node_facts.moc"
