// The tcp backend with 4 ranks as 4 processes on 127.0.0.1..127.0.0.4: uniform, hot and
// matrix patterns with validation, under both schedules (mesh, pairwise), and as EP
// groups (--ep-size: sub-meshes, all groups at once); the JSON checked against the
// moe-probe/2 schema and against its own arithmetic.
#include "json_schema_check.h"
#include "probe_launcher.h"

#include <QJsonArray>
#include <QRegularExpression>
#include <QStandardPaths>

#include <cmath>

using namespace probetest;

namespace {

bool near(double a, double b, double rel = 1e-9) {
    return std::abs(a - b) <= rel * std::max({1.0, std::abs(a), std::abs(b)});
}

qint64 sum(const QJsonArray& a) {
    qint64 s = 0;
    for (const QJsonValue& v : a)
        s += v.toInteger();
    return s;
}

} // namespace

class TestProbeTcpMesh : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;

    // Runs 4 ranks to completion and returns rank 0's JSON after the generic checks:
    // exit codes, schema, figures consistent with each other, data validated.
    QJsonObject runFour(const QStringList& args, QByteArray* table = nullptr) {
        const QString json = dir_.filePath(QStringLiteral("run%1.json").arg(++runs_));
        ProbeRanks ranks(4, args + QStringList{"-J", json, "-c", "1", "--timeout", "20"});
        const bool finished = ranks.waitAll(60000);
        [&] {
            QVERIFY2(finished, qPrintable(ranks.describe()));
            for (int r = 0; r < 4; ++r)
                QVERIFY2(ranks.run(r).exitCode == 0 && !ranks.run(r).crashed, qPrintable(ranks.describe()));
        }();
        if (table)
            *table = ranks.run(0).out;
        const QJsonObject doc = readJsonObject(json);
        checkSchema(doc);
        checkArithmetic(doc);
        return doc;
    }

    void checkSchema(const QJsonObject& doc) {
        const QJsonObject schema = readJsonObject(QStringLiteral(MOEWB_PROBE_SCHEMA));
        QVERIFY(!schema.isEmpty());
        const QStringList errors = JsonSchemaCheck(schema).validate(doc);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
    }

    void checkArithmetic(const QJsonObject& doc) {
        const int world = doc.value("environment").toObject().value("world").toInt();
        QCOMPARE(world, 4);
        // Bandwidths count the all-to-all's own ranks: an EP group's (the world without --ep-size).
        const int n = doc.value("ep_layout").toObject().value("ep_size").toInt();
        QVERIFY(n >= 1 && world % n == 0);
        const QJsonArray results = doc.value("results").toArray();
        QVERIFY(!results.isEmpty());
        const int repeats = doc.value("options").toObject().value("repeats").toInt();
        const int iters = doc.value("options").toObject().value("iters").toInt();
        for (const QJsonValue& rv : results) {
            const QJsonObject r = rv.toObject();
            const QJsonObject t = r.value("time_us").toObject();
            const double median_s = t.value("median").toDouble() * 1e-6;
            QVERIFY(median_s > 0);
            QVERIFY(t.value("min").toDouble() <= t.value("median").toDouble());
            QVERIFY(t.value("median").toDouble() <= t.value("p95").toDouble());
            QVERIFY(t.value("p95").toDouble() <= t.value("p99").toDouble());
            QVERIFY(t.value("p99").toDouble() <= t.value("max").toDouble());
            QCOMPARE(t.value("samples").toInt(), iters * repeats);
            const QJsonArray sent = r.value("bytes_sent").toArray();
            QCOMPARE(sent.size(), world);
            QCOMPARE(r.value("bytes_received").toArray().size(), world);
            QCOMPARE(sum(sent), sum(r.value("bytes_received").toArray())); // every byte lands somewhere
            const double bytes = r.value("bytes_per_rank").toDouble();
            QVERIFY(near(bytes, static_cast<double>(sum(sent)) / world));
            const double algbw = r.value("algbw_gbps").toDouble();
            QVERIFY2(near(algbw, bytes / median_s / 1e9, 1e-6), "algbw = bytes per rank / median time");
            QVERIFY2(near(r.value("busbw_gbps").toDouble(), algbw * (n - 1) / n, 1e-9),
                     "busbw = algbw (n-1)/n");
            QCOMPARE(r.value("repeats").toArray().size(), repeats);
            for (const QJsonValue& pv : r.value("repeats").toArray()) {
                const QJsonObject p = pv.toObject();
                const double pb = p.value("algbw_gbps").toDouble();
                QVERIFY(near(p.value("busbw_gbps").toDouble(), pb * (n - 1) / n, 1e-9));
                QVERIFY(near(pb,
                             bytes / (p.value("time_us").toObject().value("median").toDouble() * 1e-6) / 1e9,
                             1e-6));
                // The raw samples are every timed iteration, and their extremes are the summary's.
                const QJsonArray samples = p.value("samples_us").toArray();
                QCOMPARE(samples.size(), iters);
                double lo = samples.at(0).toDouble(), hi = lo;
                for (const QJsonValue& sv : samples) {
                    lo = std::min(lo, sv.toDouble());
                    hi = std::max(hi, sv.toDouble());
                }
                QVERIFY(near(lo, p.value("time_us").toObject().value("min").toDouble(), 1e-9));
                QVERIFY(near(hi, p.value("time_us").toObject().value("max").toDouble(), 1e-9));
            }
            QCOMPARE(r.value("wrong_bytes").toInt(-1), 0);
            checkMaxOverGroups(doc, r);
        }
        QCOMPARE(doc.value("summary").toObject().value("wrong_bytes").toInt(-1), 0);
    }

    // Every group has its results, and the top-level samples are, iteration by
    // iteration, the max over the groups' samples (what gates the step).
    void checkMaxOverGroups(const QJsonObject& doc, const QJsonObject& r) {
        const QJsonObject layout = doc.value("ep_layout").toObject();
        const QJsonArray groups = r.value("groups").toArray();
        QCOMPARE(groups.size(), layout.value("group_count").toInt());
        QCOMPARE(groups.size(), layout.value("groups").toArray().size());
        const QJsonArray top = r.value("repeats").toArray();
        double slowestMedian = -1;
        int slowest = -1;
        for (int g = 0; g < groups.size(); ++g) {
            const QJsonObject gr = groups[g].toObject();
            QCOMPARE(gr.value("group").toInt(), g);
            QCOMPARE(gr.value("repeats").toArray().size(), top.size());
            const double median = gr.value("time_us").toObject().value("median").toDouble();
            QVERIFY2(near(gr.value("algbw_gbps").toDouble(), r.value("bytes_per_rank").toDouble() / (median * 1e-6) / 1e9,
                          1e-6),
                     "a group's algbw = bytes per rank / its median time");
            if (median > slowestMedian) {
                slowestMedian = median;
                slowest = g;
            }
        }
        QCOMPARE(r.value("slowest_group").toInt(), slowest);
        for (int k = 0; k < top.size(); ++k) {
            const QJsonArray samples = top[k].toObject().value("samples_us").toArray();
            for (int i = 0; i < samples.size(); ++i) {
                double maxOverGroups = 0;
                for (const QJsonValue& gv : groups) {
                    const QJsonArray gs =
                        gv.toObject().value("repeats").toArray()[k].toObject().value("samples_us").toArray();
                    QCOMPARE(gs.size(), samples.size());
                    maxOverGroups = std::max(maxOverGroups, gs[i].toDouble());
                }
                QCOMPARE(samples[i].toDouble(), maxOverGroups);
            }
        }
    }

    int runs_ = 0;

private slots:
    void initTestCase() { ensureRunSecret(); } // every rank started here shares it

    void uniformSweep() {
        QByteArray table;
        const QJsonObject doc =
            runFour({"-b", "4K", "-e", "256K", "-f", "8", "-n", "4", "-w", "1", "-R", "2"}, &table);
        const QJsonArray results = doc.value("results").toArray();
        QCOMPARE(results.size(), 3); // 4K, 32K, 256K
        for (const QJsonValue& rv : results) {
            const QJsonObject r = rv.toObject();
            const qint64 size = r.value("requested_bytes_per_rank").toInteger();
            for (const QJsonValue& s : r.value("bytes_sent").toArray())
                QCOMPARE(s.toInteger(), size);
            for (const QJsonValue& s : r.value("bytes_received").toArray())
                QCOMPARE(s.toInteger(), size);
            QVERIFY(r.value("uniform").toBool());
            QVERIFY(std::abs(r.value("effective_gbps").toDouble() - r.value("busbw_gbps").toDouble()) < 1e-9);
        }
        const QJsonObject env = doc.value("environment").toObject();
        QCOMPARE(env.value("backend").toString(), QStringLiteral("tcp"));
        // Without --schedule every pair is in flight at once.
        QCOMPARE(env.value("schedule").toString(), QStringLiteral("mesh"));
        QCOMPARE(doc.value("options").toObject().value("schedule").toString(), QStringLiteral("mesh"));
        QVERIFY2(table.startsWith("# moe-probe ") &&
                     table.left(table.indexOf('\n')).endsWith(", pattern uniform, schedule mesh"),
                 table.constData());
        QCOMPARE(env.value("ranks").toArray().size(), 4);
        QCOMPARE(env.value("ranks").toArray()[2].toObject().value("listen").toString().section(':', 0, 0),
                 QStringLiteral("127.0.0.3"));
        QVERIFY(env.value("nccl").isNull());
        // The table reads like alltoall_perf: a header, one row per size, the footer.
        QVERIFY(table.contains("# nRanks 4 nProcs 4"));
        QVERIFY(table.contains("# Out of bounds values : 0 OK"));
        QVERIFY(table.contains("# Avg bus bandwidth"));
        const QRegularExpression row(QStringLiteral("^\\s+262144\\s+\\d+\\s"),
                                     QRegularExpression::MultilineOption);
        QVERIFY2(row.match(QString::fromLatin1(table)).hasMatch(), table.constData());
    }

    void hotPattern() {
        const QJsonObject doc =
            runFour({"-b", "70K", "-e", "70K", "-n", "3", "-w", "1", "--pattern", "hot:1:4"});
        QCOMPARE(doc.value("environment").toObject().value("pattern").toString(), QStringLiteral("hot:1:4"));
        const QJsonObject r = doc.value("results").toArray()[0].toObject();
        const qint64 size = 70 * 1024;
        for (const QJsonValue& s : r.value("bytes_sent").toArray())
            QCOMPARE(s.toInteger(), size);
        // Destination 0 gets 4 of 7 shares from every rank.
        QCOMPARE(r.value("bytes_received").toArray()[0].toInteger(), 4 * (size * 4 / 7));
        QCOMPARE(r.value("bytes_received").toArray()[1].toInteger(), 4 * (size / 7));
        QCOMPARE(r.value("busiest_rank").toInt(), 0);
        QCOMPARE(r.value("busiest_rank_bytes").toInteger(), 3 * (size * 4 / 7));
        QVERIFY(!r.value("uniform").toBool());
    }

    void matrixPattern() {
        const QString matrix = dir_.filePath("expert_load.txt");
        QFile f(matrix);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("# bytes from row rank to column rank\n"
                "0 16K 32K 16K\n"
                "16K 0 16K 0\n"
                "64K 64K 0 0\n"
                "0 0 0 128K\n");
        f.close();
        const QJsonObject doc = runFour({"-n", "3", "-w", "1", "--pattern", "matrix:" + matrix});
        const QJsonObject r = doc.value("results").toArray()[0].toObject();
        // Without -b/-e the matrix is replayed as written.
        QCOMPARE(r.value("requested_bytes_per_rank").toInteger(), 88 * 1024); // 352 KiB over 4 rows
        const QList<qint64> sent{64 * 1024, 32 * 1024, 128 * 1024, 128 * 1024};
        const QList<qint64> received{80 * 1024, 80 * 1024, 48 * 1024, 144 * 1024};
        for (int i = 0; i < 4; ++i) {
            QCOMPARE(r.value("bytes_sent").toArray()[i].toInteger(), sent[i]);
            QCOMPARE(r.value("bytes_received").toArray()[i].toInteger(), received[i]);
        }
        QCOMPARE(r.value("busiest_rank").toInt(), 2); // 128 KiB leave rank 2; rank 3's own chunk stays home
        QCOMPARE(r.value("busiest_rank_bytes").toInteger(), 128 * 1024);
    }

    // Pairwise: n-1 steps of one send and one receive each; every byte must still land
    // where it belongs (-c 1), and the report says which schedule ran.
    void pairwiseUniform() {
        QByteArray table;
        const QJsonObject doc = runFour({"--schedule", "pairwise", "-b", "4K", "-e", "1M", "-f", "16", "-n", "3",
                                         "-w", "1", "-R", "2"},
                                        &table);
        QCOMPARE(doc.value("results").toArray().size(), 3); // 4K, 64K, 1M
        QCOMPARE(doc.value("options").toObject().value("schedule").toString(), QStringLiteral("pairwise"));
        QCOMPARE(doc.value("environment").toObject().value("schedule").toString(), QStringLiteral("pairwise"));
        QVERIFY2(table.left(table.indexOf('\n')).endsWith(", backend tcp, pattern uniform, schedule pairwise"),
                 table.constData());
        QVERIFY(table.contains("# Out of bounds values : 0 OK"));
    }

    void pairwiseHotPattern() {
        // Uneven chunks: a step's send and receive differ in length (to and from rank 0).
        const QJsonObject doc = runFour(
            {"--schedule", "pairwise", "-b", "70K", "-e", "700K", "-f", "10", "-n", "3", "-w", "1", "--pattern", "hot:1:4"});
        QCOMPARE(doc.value("environment").toObject().value("schedule").toString(), QStringLiteral("pairwise"));
        QCOMPARE(doc.value("environment").toObject().value("pattern").toString(), QStringLiteral("hot:1:4"));
        const QJsonObject r = doc.value("results").toArray()[1].toObject();
        const qint64 size = 700 * 1024;
        QCOMPARE(r.value("bytes_received").toArray()[0].toInteger(), 4 * (size * 4 / 7));
        QCOMPARE(r.value("bytes_received").toArray()[3].toInteger(), 4 * (size / 7));
    }

    void pairwiseMatrixWithEmptyPairs() {
        // Pairs with 0 bytes are skipped; rank 3 sends to nobody but itself.
        const QString matrix = dir_.filePath("pairwise_matrix.txt");
        QFile f(matrix);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("0 16K 32K 16K\n"
                "16K 0 16K 0\n"
                "64K 64K 0 0\n"
                "0 0 0 128K\n");
        f.close();
        const QJsonObject doc = runFour({"--schedule", "pairwise", "-n", "3", "-w", "1", "--pattern", "matrix:" + matrix});
        QCOMPARE(doc.value("environment").toObject().value("schedule").toString(), QStringLiteral("pairwise"));
        const QJsonObject r = doc.value("results").toArray()[0].toObject();
        QCOMPARE(r.value("bytes_received").toArray()[3].toInteger(), 144 * 1024);
    }

    // --ep-size 2 on 4 ranks: two EP groups of two, measured at once. Each rank moves
    // bytes only to its group partner (validated with -c 1: every received byte is the
    // partner's), and the bytes show a 2-rank all-to-all, not a 4-rank one.
    void epGroupsOfTwoAtOnce() {
        QByteArray table;
        const QJsonObject doc =
            runFour({"--ep-size", "2", "-b", "64K", "-e", "1M", "-f", "16", "-n", "5", "-w", "1", "-R", "2"}, &table);
        const QJsonObject layout = doc.value("ep_layout").toObject();
        QCOMPARE(layout.value("whole_world").toBool(true), false);
        QCOMPARE(layout.value("ep_size").toInt(), 2);
        QCOMPARE(layout.value("dp").toInt(), 2);
        QCOMPARE(layout.value("order").toString(), QStringLiteral("tp-cp-ep-dp-pp"));
        QCOMPARE(layout.value("groups").toArray(), QJsonArray({QJsonArray{0, 1}, QJsonArray{2, 3}}));
        QCOMPARE(doc.value("options").toObject().value("ep_size").toInt(), 2);
        const QJsonArray results = doc.value("results").toArray();
        QCOMPARE(results.size(), 2); // 64K, 1M
        for (const QJsonValue& rv : results) {
            const QJsonObject r = rv.toObject();
            const qint64 size = r.value("requested_bytes_per_rank").toInteger();
            for (const QJsonValue& s : r.value("bytes_sent").toArray())
                QCOMPARE(s.toInteger(), size);
            // Half of it stays home, half goes to the one partner (4 ranks: 3/4 would leave).
            QCOMPARE(r.value("busiest_rank_bytes").toInteger(), size / 2);
            QVERIFY(near(r.value("busbw_gbps").toDouble(), r.value("algbw_gbps").toDouble() / 2, 1e-9));
            QCOMPARE(r.value("groups").toArray().size(), 2);
        }
        QVERIFY2(table.contains("# EP groups: 2 groups of 2 ranks at once (tp 1, pp 1, dp 2, order tp-cp-ep-dp-pp): "
                                "{0,1} {2,3}"),
                 table.constData());
        QVERIFY2(table.contains("#   group 1 "), table.constData());
    }

    // With --tp 2 the EP groups interleave ({0,2} and {1,3}), as Megatron-Core lays them
    // out; the pairwise schedule steps within the group.
    void epGroupsWithTensorParallelUnderPairwise() {
        const QJsonObject doc = runFour({"--ep-size", "2", "--tp", "2", "--schedule", "pairwise", "-b", "70K", "-e",
                                         "70K", "-n", "3", "-w", "1", "--pattern", "hot:1:3"});
        const QJsonObject layout = doc.value("ep_layout").toObject();
        QCOMPARE(layout.value("groups").toArray(), QJsonArray({QJsonArray{0, 2}, QJsonArray{1, 3}}));
        QCOMPARE(layout.value("tp").toInt(), 2);
        const QJsonObject r = doc.value("results").toArray()[0].toObject();
        // hot:1:3 within each group: its first member (ranks 0 and 1) gets 3 of 4 shares.
        const qint64 size = 70 * 1024;
        const QJsonArray received = r.value("bytes_received").toArray();
        QCOMPARE(received[0].toInteger(), 2 * (size * 3 / 4));
        QCOMPARE(received[1].toInteger(), 2 * (size * 3 / 4));
        QCOMPARE(received[2].toInteger(), 2 * (size / 4));
        QCOMPARE(received[3].toInteger(), 2 * (size / 4));
    }

    // Every rank must run the same groups: rank 0 refuses a rank with another layout.
    void mismatchedEpLayoutsAreRefused() {
        const QString rendezvous = QStringLiteral("127.0.0.1:%1").arg(freePort());
        const QStringList common{"--world", "2", "--rendezvous", rendezvous, "-b", "4K", "-e", "4K", "-n", "1",
                                 "--timeout", "10"};
        QProcess rank0, rank1;
        rank0.start(probePath(), common + QStringList{"--rank", "0", "--listen", "127.0.0.1", "--ep-size", "1"});
        rank1.start(probePath(), common + QStringList{"--rank", "1", "--listen", "127.0.0.2"});
        QVERIFY(rank0.waitForFinished(30000));
        QVERIFY(rank1.waitForFinished(30000));
        QCOMPARE(rank0.exitCode(), 3);
        QCOMPARE(rank1.exitCode(), 3);
        const QByteArray err = rank0.readAllStandardError();
        QVERIFY2(err.contains("rank 1 runs EP layout 'world', rank 0 runs 'ep=1 tp=1 pp=1 order=tp-cp-ep-dp-pp'"),
                 err.constData());
    }

    void ranksFromMpirunEnvironment() {
        // Rank and world from OMPI_COMM_WORLD_*; the probe itself does not use MPI.
        const QString mpirun = QStandardPaths::findExecutable("mpirun");
        if (mpirun.isEmpty())
            QSKIP("mpirun is not installed");
        const QString json = dir_.filePath("mpirun.json");
        QProcess p;
        p.start(mpirun, {"--allow-run-as-root",
                         "--oversubscribe",
                         "-np",
                         "3",
                         probePath(),
                         "--rendezvous",
                         QStringLiteral("127.0.0.1:%1").arg(freePort()),
                         "-b",
                         "12K",
                         "-e",
                         "12K",
                         "-n",
                         "2",
                         "-w",
                         "1",
                         "-c",
                         "1",
                         "--timeout",
                         "20",
                         "-J",
                         json});
        QVERIFY(p.waitForFinished(60000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        const QJsonObject doc = readJsonObject(json);
        checkSchema(doc);
        QCOMPARE(doc.value("options").toObject().value("launcher").toString(),
                 QStringLiteral("mpirun (Open MPI)"));
        QCOMPARE(doc.value("environment").toObject().value("world").toInt(), 3);
        QCOMPARE(doc.value("summary").toObject().value("wrong_bytes").toInt(-1), 0);
    }
};

QTEST_GUILESS_MAIN(TestProbeTcpMesh)
#include "test_probe_tcp_mesh.moc"
