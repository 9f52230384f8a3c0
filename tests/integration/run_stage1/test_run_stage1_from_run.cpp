// `moewb run stage1 --pattern from-run:RUN[:LAYER]` over real OpenSSH on loopback nodes:
// the stored run's measured routing becomes the dispatch matrix every node's probe runs,
// and the stored probe runs say where it came from. 4 experts over 2 EP ranks, top-2,
// hidden 16, bf16, 8 tokens per rank (256 B for a rank's tokens); layer 0 loads 4 2 3 1
// per step. Worked by hand: q = .8 .4 .6 .2, rank 0 reached by 1 − .2·.6 = .88 of the
// tokens (225.28 B), rank 1 by 1 − .4·.8 = .68 (174.08 B): rows "225 174", 399 B a rank.
#include "../MoewbCli.h"
#include "StageOneTestSupport.h"

#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

using namespace moewb;
using namespace stage1test;

class TestRunStage1FromRun : public QObject {
    Q_OBJECT

    QTemporaryDir m_tmp;

    static QByteArray matrixRows(const QString& file) {
        QFile f(file);
        if (!f.open(QIODevice::ReadOnly))
            return {};
        QByteArray rows;
        for (const QByteArray& line : f.readAll().split('\n'))
            if (!line.startsWith('#') && !line.isEmpty())
                rows += line + '\n';
        return rows;
    }

private slots:
    void probeRunsTheRunsMatrix() {
        SshdCluster c;
        const QString e = c.start(4);
        QVERIFY2(e.isEmpty(), qPrintable(e));
        const QString project = makeProject(m_tmp.filePath(QStringLiteral("fromrun.moewb")));
        {
            auto opened = store::ProjectStore::open(project, store::OpenMode::MustExist);
            QVERIFY(opened);
            QJsonObject rec = fixtureRecord();
            const auto set = [&rec](const char* section, const char* key, int value) {
                QJsonObject s = rec.value(QLatin1String(section)).toObject();
                s.insert(QLatin1String(key), value);
                rec.insert(QLatin1String(section), s);
            };
            set("moe", "experts", 4);
            set("moe", "top_k", 2);
            set("parallelism", "ep", 2);
            set("model", "hidden_size", 16);
            set("batch", "sequence_length", 8);
            QVERIFY(opened.value()->addConfigRecord(QStringLiteral("tiny"), rec, true));
            store::RunData r;
            r.name = QStringLiteral("train");
            r.recordName = QStringLiteral("tiny");
            for (int s = 1; s <= 3; ++s) {
                r.expertLoad.append({s, 0, QVector<quint32>{4, 2, 3, 1}});
                r.expertLoad.append({s, 1, QVector<quint32>{5, 5, 5, 5}});
            }
            QVERIFY(opened.value()->saveRun(r));
        }
        auto moewbCli = [&](const QStringList& args) {
            return runMoewb(c.home(), QStringList{QStringLiteral("--project"), project} + args, 120000);
        };
        CliResult r = moewbCli({QStringLiteral("cluster"), QStringLiteral("add"), QStringLiteral("lab"),
                                QStringLiteral("--node"), QStringLiteral("node0,node1")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        r = moewbCli({QStringLiteral("run"),
                      QStringLiteral("stage1"),
                      QStringLiteral("--cluster"),
                      QStringLiteral("lab"),
                      QStringLiteral("--record"),
                      QStringLiteral("tiny"),
                      QStringLiteral("--sizes"),
                      QStringLiteral("399"),
                      QStringLiteral("--pattern"),
                      QStringLiteral("from-run:train:0"),
                      QStringLiteral("-R"),
                      QStringLiteral("2"),
                      QStringLiteral("-n"),
                      QStringLiteral("2"),
                      QStringLiteral("-w"),
                      QStringLiteral("1"),
                      QStringLiteral("--name"),
                      QStringLiteral("fr"),
                      QStringLiteral("--probe-timeout"),
                      QStringLiteral("10"),
                      QStringLiteral("--probe-bundle"),
                      probeBundle()});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY2(r.out.contains(QStringLiteral("Traffic from run train, layer 0: 2×2 dispatch matrix")),
                 qPrintable(r.out));

        auto opened = store::ProjectStore::open(project, store::OpenMode::MustExist);
        QVERIFY(opened);
        const auto run = opened.value()->run(QStringLiteral("fr-n2"));
        QVERIFY(run);
        QVERIFY2(run->environment.value(QStringLiteral("pattern_origin"))
                     .toString()
                     .startsWith(QStringLiteral(
                         "from-run:train:0 (steps 1-3, layer 0, 8 tokens per rank, top-2, hidden 16 x 2 B")),
                 qPrintable(run->environment.value(QStringLiteral("pattern_origin")).toString()));
        // The matrix the nodes' probes ran: the copy uploaded with the probe.
        const QString onNodes = run->environment.value(QStringLiteral("pattern_on_nodes")).toString();
        QVERIFY2(onNodes.startsWith(QStringLiteral("matrix:")), qPrintable(onNodes));
        QCOMPARE(matrixRows(onNodes.mid(7)), QByteArray("225 174\n225 174\n"));
        // 399 B a rank, the size asked for: the probe ran the matrix unscaled (the bytes
        // each rank sends and receives are checked in test_moewb_traffic, probeSendsTheMatrix).
        const auto samples = opened.value()->commSamples(run->id);
        QCOMPARE(samples.size(), 4); // 2 repeats × 2 iterations
        for (const auto& s : samples)
            QCOMPARE(s.bytesPerRank, quint64(399));

        // On 4 nodes the record's EP 2 makes two EP groups: each runs the 2×2 matrix at once
        // (not one 4-rank all-to-all), every rank still sending 399 B.
        r = moewbCli({QStringLiteral("cluster"), QStringLiteral("add"), QStringLiteral("lab4"),
                      QStringLiteral("--node"), QStringLiteral("node0,node1,node2,node3")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        r = moewbCli({QStringLiteral("run"), QStringLiteral("stage1"), QStringLiteral("--cluster"), QStringLiteral("lab4"),
                      QStringLiteral("--record"), QStringLiteral("tiny"), QStringLiteral("--nodes"), QStringLiteral("4"),
                      QStringLiteral("--sizes"), QStringLiteral("399"), QStringLiteral("--pattern"),
                      QStringLiteral("from-run:train:0"), QStringLiteral("-R"), QStringLiteral("1"), QStringLiteral("-n"),
                      QStringLiteral("2"), QStringLiteral("-w"), QStringLiteral("1"), QStringLiteral("--name"),
                      QStringLiteral("fr4"), QStringLiteral("--probe-timeout"), QStringLiteral("10"),
                      QStringLiteral("--probe-bundle"), probeBundle()});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        {
            auto again = store::ProjectStore::open(project, store::OpenMode::MustExist);
            QVERIFY(again);
            const auto run4 = again.value()->run(QStringLiteral("fr4-n4"));
            QVERIFY(run4);
            QCOMPARE(run4->environment.value(QStringLiteral("ep_size")).toInt(), 2);
            QCOMPARE(run4->environment.value(QStringLiteral("ep_groups")).toArray().size(), 2);
            QCOMPARE(run4->environment.value(QStringLiteral("world")).toInt(), 4);
            const auto samples4 = again.value()->commSamples(run4->id);
            QVERIFY(!samples4.isEmpty());
            for (const auto& s : samples4)
                QCOMPARE(s.bytesPerRank, quint64(399));
        }

        // A run without expert load is refused before anything runs.
        r = moewbCli({QStringLiteral("run"), QStringLiteral("stage1"), QStringLiteral("--cluster"),
                      QStringLiteral("lab"), QStringLiteral("--record"), QStringLiteral("tiny"),
                      QStringLiteral("--pattern"), QStringLiteral("from-run:absent"),
                      QStringLiteral("--probe-bundle"), probeBundle()});
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(r.err.contains(QStringLiteral("absent")), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestRunStage1FromRun)
#include "test_run_stage1_from_run.moc"
