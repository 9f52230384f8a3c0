// `moewb traffic` and `moewb placement` as a user runs them, on a project built here:
// 4 experts over 2 EP ranks, top-2, hidden 16, bf16, 8 tokens per rank (32 B a token,
// 256 B for a rank's 8 tokens). Every expected figure is worked by hand below.
#include "../MoewbCli.h"
#include "store/ProjectStore.h"
#include "traffic/RoutingComparison.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QtTest>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace moewb;

class TestMoewbTraffic : public QObject {
    Q_OBJECT

    QTemporaryDir m_home;
    QString m_project;

    CliResult run(const QStringList& args) {
        return runMoewb(m_home.path(), QStringList{QStringLiteral("--project"), m_project} + args, 60000);
    }
    QString path(const char* name) const { return m_home.filePath(QLatin1String(name)); }
    static QByteArray readAll(const QString& file) {
        QFile f(file);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }
    // The matrix rows of a probe matrix file (comment lines dropped).
    static QByteArray matrixRows(const QString& file) {
        QByteArray rows;
        for (const QByteArray& line : readAll(file).split('\n'))
            if (!line.startsWith('#') && !line.isEmpty())
                rows += line + '\n';
        return rows;
    }

    // A port free right now on 127.0.0.1 (the OS picks it; closed again for the probe).
    static quint16 freePort() {
        const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
        if (fd < 0)
            return 0;
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t len = sizeof a;
        quint16 port = 0;
        if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
            ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0)
            port = ntohs(a.sin_port);
        ::close(fd);
        return port;
    }

private slots:
    void initTestCase() {
        QVERIFY(m_home.isValid());
        m_project = path("traffic.moewb");
        QFile f(QStringLiteral(MOEWB_SOURCE_DIR "/tests/fixtures/records/moe-64e-top8.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QJsonObject rec = QJsonDocument::fromJson(f.readAll()).object();
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
        auto opened = store::ProjectStore::open(m_project);
        QVERIFY(opened);
        auto& p = *opened.value();
        QVERIFY(p.addConfigRecord(QStringLiteral("tiny"), rec, true));
        store::RunData r;
        r.name = QStringLiteral("train");
        r.recordName = QStringLiteral("tiny");
        // Steps 1-3: layer 0 counts 4 2 3 1 each (12 6 9 3 summed), layer 1 even.
        // Step 4 is far off and left out by --steps 1-3.
        for (int s = 1; s <= 3; ++s) {
            r.expertLoad.append({s, 0, QVector<quint32>{4, 2, 3, 1}});
            r.expertLoad.append({s, 1, QVector<quint32>{5, 5, 5, 5}});
        }
        r.expertLoad.append({4, 0, QVector<quint32>{0, 0, 0, 100}});
        r.expertLoad.append({4, 1, QVector<quint32>{0, 0, 0, 100}});
        QVERIFY(p.saveRun(r));
    }

    void worstLayerMatrix() {
        // Layer 0: 30 assignments = 15 tokens; q = .8 .4 .6 .2; rank 0 reached by
        // 1 − .2·.6 = .88 of the tokens (225.28 B from each source), rank 1 by .68
        // (174.08 B). Rank 0 receives 450.56 B against 384 B for uniform routing
        // (1 − .5·.5 = .75 → 192 B per pair): 1.173×. Layer 1 is even: the worst is 0.
        const QString out = path("worst.txt");
        auto r = run({QStringLiteral("traffic"), QStringLiteral("train"), QStringLiteral("--steps"),
                      QStringLiteral("1-3"), QStringLiteral("-o"), out});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(matrixRows(out), QByteArray("225 174\n225 174\n"));
        QVERIFY(readAll(out).startsWith("# moewb traffic"));
        QVERIFY2(r.out.contains(QLatin1String("independent experts")), qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral("(1.17×)")), qPrintable(r.out));
        r = run({QStringLiteral("--json"), QStringLiteral("traffic"), QStringLiteral("train"),
                 QStringLiteral("--steps"), QStringLiteral("1-3")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject j = r.json();
        QCOMPARE(j.value(QStringLiteral("layer")).toInt(), 0);
        QCOMPARE(j.value(QStringLiteral("busiest_rank")).toInt(), 0);
        QVERIFY(qFuzzyCompare(j.value(QStringLiteral("busiest_rank_bytes")).toDouble(), 450.56));
        QVERIFY(qFuzzyCompare(j.value(QStringLiteral("uniform_busiest_rank_bytes")).toDouble(), 384.0));
        QCOMPARE(j.value(QStringLiteral("dedup_model")).toString(), QStringLiteral("independent_experts"));
        QCOMPARE(j.value(QStringLiteral("last_step")).toInt(), 3);
    }

    void allLayersSummed() {
        // 225.28 + 192 = 417.28 → 417; 174.08 + 192 = 366.08 → 366.
        const QString out = path("all.txt");
        const auto r = run({QStringLiteral("traffic"), QStringLiteral("train"), QStringLiteral("--layer"),
                            QStringLiteral("all"), QStringLiteral("--steps"), QStringLiteral("1-3"),
                            QStringLiteral("-o"), out});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(matrixRows(out), QByteArray("417 366\n417 366\n"));
    }

    void badInput() {
        QCOMPARE(run({QStringLiteral("traffic"), QStringLiteral("train"), QStringLiteral("--layer"),
                      QStringLiteral("x")})
                     .exitCode,
                 2);
        auto r = run({QStringLiteral("traffic"), QStringLiteral("absent")});
        QCOMPARE(r.exitCode, 3);
        QVERIFY(r.err.contains(QLatin1String("absent")));
        r = run({QStringLiteral("traffic"), QStringLiteral("train"), QStringLiteral("--steps"),
                 QStringLiteral("7-9")});
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(r.err.contains(QLatin1String("no expert load")), qPrintable(r.err));
        // Nothing written when the command fails.
        r = run({QStringLiteral("traffic"), QStringLiteral("train"), QStringLiteral("--layer"),
                 QStringLiteral("9"), QStringLiteral("-o"), path("none.txt")});
        QCOMPARE(r.exitCode, 3);
        QVERIFY(!QFile::exists(path("none.txt")));
    }

    void probeSendsTheMatrix() {
        // The matrix of worstLayerMatrix (rows "225 174"), run by two real moe-probe ranks
        // on loopback: every rank sends its row (399 B) and receives its column
        // (225 + 225 = 450 B, 174 + 174 = 348 B), as the probe's report counts them.
        const QString matrix = path("probe-matrix.txt");
        QCOMPARE(run({QStringLiteral("traffic"), QStringLiteral("train"), QStringLiteral("--steps"),
                      QStringLiteral("1-3"), QStringLiteral("-o"), matrix})
                     .exitCode,
                 0);
        const quint16 port = freePort();
        QVERIFY(port > 0);
        const QString rendezvous = QStringLiteral("127.0.0.1:%1").arg(port);
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        // The run's shared secret (peer authentication): 128 random bits as hex.
        QString secret;
        for (int i = 0; i < 4; ++i)
            secret +=
                QStringLiteral("%1").arg(QRandomGenerator::system()->generate(), 8, 16, QLatin1Char('0'));
        env.insert(QStringLiteral("MOEWB_PROBE_SECRET"), secret);
        const QString report = path("probe.json");
        QProcess ranks[2];
        for (int rank = 0; rank < 2; ++rank) {
            ranks[rank].setProcessEnvironment(env);
            ranks[rank].setProcessChannelMode(QProcess::MergedChannels);
            ranks[rank].start(QStringLiteral(MOEWB_PROBE_EXECUTABLE),
                              {QStringLiteral("--backend"),    QStringLiteral("tcp"),
                               QStringLiteral("--rank"),       QString::number(rank),
                               QStringLiteral("--world"),      QStringLiteral("2"),
                               QStringLiteral("--rendezvous"), rendezvous,
                               QStringLiteral("--pattern"),    QStringLiteral("matrix:") + matrix,
                               QStringLiteral("-w"),           QStringLiteral("1"),
                               QStringLiteral("-n"),           QStringLiteral("2"),
                               QStringLiteral("-R"),           QStringLiteral("1"),
                               QStringLiteral("-c"),           QStringLiteral("1"),
                               QStringLiteral("--timeout"),    QStringLiteral("20"),
                               QStringLiteral("-J"),           report});
        }
        for (QProcess& p : ranks) {
            QVERIFY(p.waitForFinished(60000));
            QVERIFY2(p.exitCode() == 0, p.readAll().constData());
        }
        const QJsonObject doc = QJsonDocument::fromJson(readAll(report)).object();
        const QJsonArray results = doc.value(QStringLiteral("results")).toArray();
        QCOMPARE(results.size(), 1);
        const QJsonObject result = results[0].toObject();
        QCOMPARE(result.value(QStringLiteral("bytes_per_rank")).toDouble(), 399.0);
        QCOMPARE(result.value(QStringLiteral("bytes_sent")).toArray(), (QJsonArray{399, 399}));
        QCOMPARE(result.value(QStringLiteral("bytes_received")).toArray(), (QJsonArray{450, 348}));
        QCOMPARE(result.value(QStringLiteral("wrong_bytes")).toInt(-1), 0);
    }

    void routedAgainstUniform() {
        // Medians worked by hand: uniform 1 KiB 100 110 120 → 110 µs, 4 KiB 200 220 240 →
        // 220 µs; routed 150 165 180 → 165 µs (1.5×), 340 374 400 → 374 µs (1.7×). The
        // routed run's 8 KiB has no uniform counterpart and is left out.
        {
            auto opened = store::ProjectStore::open(m_project, store::OpenMode::MustExist);
            QVERIFY(opened);
            const auto probeRun = [](const QString& name,
                                     const QList<std::pair<quint64, QList<double>>>& sizes) {
                store::RunData r;
                r.name = name;
                r.kind = store::RunKind::Probe;
                r.recordName = QStringLiteral("tiny");
                r.environment = QJsonObject{{QStringLiteral("world"), 2}};
                for (const auto& [bytes, times] : sizes)
                    for (int i = 0; i < times.size(); ++i)
                        r.commSamples.append({bytes, 0, i, times[i]});
                return r;
            };
            QVERIFY(opened.value()->saveRun(
                probeRun(QStringLiteral("uni"), {{1024, {120, 100, 110}}, {4096, {200, 240, 220}}})));
            QVERIFY(opened.value()->saveRun(
                probeRun(QStringLiteral("routed"),
                         {{1024, {150, 180, 165}}, {4096, {400, 340, 374}}, {8192, {1, 2, 3}}})));
        }
        auto r = run({QStringLiteral("--json"), QStringLiteral("traffic"), QStringLiteral("compare"),
                      QStringLiteral("uni"), QStringLiteral("routed")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonArray sizes = r.json().value(QStringLiteral("sizes")).toArray();
        QCOMPARE(sizes.size(), 2);
        QCOMPARE(sizes[0].toObject().value(QStringLiteral("uniform_median_us")).toDouble(), 110.0);
        QCOMPARE(sizes[0].toObject().value(QStringLiteral("routed_median_us")).toDouble(), 165.0);
        QCOMPARE(sizes[0].toObject().value(QStringLiteral("ratio")).toDouble(), 1.5);
        QVERIFY(qFuzzyCompare(sizes[1].toObject().value(QStringLiteral("ratio")).toDouble(), 1.7));
        r = run({QStringLiteral("traffic"), QStringLiteral("compare"), QStringLiteral("uni"),
                 QStringLiteral("routed")});
        QVERIFY2(r.out.contains(
                     QStringLiteral("At 4 KiB per rank, your routing makes the all-to-all 1.70× as long")),
                 qPrintable(r.out));
        QCOMPARE(run({QStringLiteral("traffic"), QStringLiteral("compare"), QStringLiteral("uni")}).exitCode,
                 2);
    }

    void eplbReadmeExampleFromWeights() {
        // deepseek-ai/EPLB README: the printed phy2log.
        const QString weights = path("weights.txt");
        QFile f(weights);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("90 132 40 61 104 165 39 4 73 56 183 86\n"
                "20 107 104 64 19 197 187 157 172 86 16 27\n");
        f.close();
        const auto r =
            run({QStringLiteral("--json"), QStringLiteral("placement"), QStringLiteral("--weights"), weights,
                 QStringLiteral("--replicas"), QStringLiteral("16"), QStringLiteral("--groups"),
                 QStringLiteral("4"), QStringLiteral("--nodes"), QStringLiteral("2"),
                 QStringLiteral("--gpus"), QStringLiteral("8")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject j = r.json();
        QCOMPARE(QJsonDocument(j.value(QStringLiteral("phy2log")).toArray()).toJson(QJsonDocument::Compact),
                 QByteArray("[[5,6,5,7,8,4,3,4,10,9,10,2,0,1,11,1],[7,10,6,8,6,11,8,9,2,4,5,1,5,0,3,1]]"));
        // Shapes: log2phy [2][12][2] with −1 padding; logcnt [2][12].
        const QJsonArray log2phy = j.value(QStringLiteral("log2phy")).toArray();
        QCOMPARE(log2phy.size(), 2);
        QCOMPARE(log2phy[0].toArray().size(), 12);
        QCOMPARE(log2phy[0].toArray()[0].toArray().size(), 2);
        QCOMPARE(log2phy[0].toArray()[0].toArray()[1].toInt(), -1); // expert 0 has one replica (slot 12)
        QCOMPARE(log2phy[0].toArray()[0].toArray()[0].toInt(), 12);
        QCOMPARE(j.value(QStringLiteral("logcnt")).toArray()[0].toArray()[5].toInt(), 2);
        // A ragged file names its line.
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Append));
        f.write("1 2 3\n");
        f.close();
        const auto bad = run({QStringLiteral("placement"), QStringLiteral("--weights"), weights,
                              QStringLiteral("--replicas"), QStringLiteral("16"), QStringLiteral("--gpus"),
                              QStringLiteral("8")});
        QCOMPARE(bad.exitCode, 3);
        QVERIFY2(bad.err.contains(weights + QStringLiteral(":3:")), qPrintable(bad.err));
    }

    void placementFromRunAndBack() {
        // Layer 0 loads 12 6 9 3, 2 GPUs, 1 redundant slot each (6 replicas): replicas go to
        // e0 (12 → 6 6) then e2 (9 → 4.5 4.5). Packed 3 per GPU, heaviest first to the
        // lighter GPU (ties: the first): GPU0 = e0 e0 e3 (15), GPU1 = e1 e2 e2 (15).
        // Today: rank 0 holds 12 + 6 = 18 of 30 (0.6). Layer 1 (even) stays 0.5.
        const QString out = path("placement.json");
        auto r = run({QStringLiteral("--json"), QStringLiteral("placement"), QStringLiteral("train"),
                      QStringLiteral("--steps"), QStringLiteral("1-3"), QStringLiteral("--redundant"),
                      QStringLiteral("1"), QStringLiteral("-o"), out});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QJsonObject j = r.json();
        QCOMPARE(QJsonDocument(j.value(QStringLiteral("phy2log")).toArray()).toJson(QJsonDocument::Compact),
                 QByteArray("[[0,0,3,1,2,2],[2,0,0,3,1,1]]"));
        QVERIFY(qFuzzyCompare(j.value(QStringLiteral("mean_busiest_share_today")).toDouble(), 0.55));
        QVERIFY(qFuzzyCompare(j.value(QStringLiteral("mean_busiest_share_rebalanced")).toDouble(), 0.5));
        const QJsonObject file = QJsonDocument::fromJson(readAll(out)).object();
        QCOMPARE(file.value(QStringLiteral("weight")).toArray()[0].toArray()[0].toDouble(), 12.0);
        QCOMPARE(file.value(QStringLiteral("num_gpus")).toInt(), 2);
        // The traffic of the rebalanced layer 0: rank 0 holds e0 twice (q .4 each) and e3
        // (.2): reached by 1 − .6·.6·.8 = .712 (182.272 B); rank 1: e1 (.4), e2 twice (.3):
        // 1 − .6·.7·.7 = .706 (180.736 B).
        const QString matrix = path("rebalanced.txt");
        r = run({QStringLiteral("traffic"), QStringLiteral("train"), QStringLiteral("--steps"),
                 QStringLiteral("1-3"), QStringLiteral("--layer"), QStringLiteral("0"),
                 QStringLiteral("--placement"), out, QStringLiteral("-o"), matrix});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(matrixRows(matrix), QByteArray("182 181\n182 181\n"));
    }

    void ncclTestsMatrixMeasuredImportedAndCompared() {
        // worstLayerMatrix's routing for nccl-tests' alltoallv_perf at 1 MiB per rank:
        // 225.28 : 174.08 per row in 16-byte units summing to 2 x 1 MiB (test_nccl_tests_matrix
        // works it out): 591504 457072 per row; rank 0 receives 2 x 591504 = 1183008 B.
        const QString matrix = path("alltoallv-matrix.txt");
        auto r = run({QStringLiteral("traffic"), QStringLiteral("train"), QStringLiteral("--steps"),
                      QStringLiteral("1-3"), QStringLiteral("--format"), QStringLiteral("nccl-tests-matrix"),
                      QStringLiteral("--bytes-per-rank"), QStringLiteral("1M"), QStringLiteral("-o"), matrix});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(readAll(matrix), QByteArray("591504 457072\n591504 457072\n")); // numbers only
        QCOMPARE(readAll(matrix), readAll(QStringLiteral(MOEWB_SOURCE_DIR
                                                         "/tests/fixtures/importers/nccl-tests-matrix/tiny-2ranks-1M.txt")));
        QVERIFY2(r.out.contains(QStringLiteral("mpirun -np 2 -x NCCL_TESTS_ALLTOALLV_MATRIX_FILE=") + matrix +
                                QStringLiteral(" -x NCCL_TESTS_ALLTOALLV_PRINT_SUMMARY=1 alltoallv_perf -b 1183008 -e "
                                               "1183008")),
                 qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral("mpirun -np 2 alltoall_perf -b 1048576 -e 1048576")), qPrintable(r.out));
        r = run({QStringLiteral("--json"), QStringLiteral("traffic"), QStringLiteral("train"), QStringLiteral("--steps"),
                 QStringLiteral("1-3"), QStringLiteral("--format"), QStringLiteral("nccl-tests-matrix"),
                 QStringLiteral("-o"), path("default.txt")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        // Without --bytes-per-rank: the micro-batch's 399.36 B per rank rounded to a multiple of 32.
        const QJsonObject nccl = r.json().value(QStringLiteral("nccl_tests")).toObject();
        QCOMPARE(nccl.value(QStringLiteral("bytes_per_rank")).toInt(), 384);
        QCOMPARE(readAll(path("default.txt")), QByteArray("224 160\n224 160\n"));
        for (const QStringList& bad :
             {QStringList{QStringLiteral("--format"), QStringLiteral("nccl-tests-matrix")},
              QStringList{QStringLiteral("--format"), QStringLiteral("csv"), QStringLiteral("-o"), path("x.txt")},
              QStringList{QStringLiteral("--bytes-per-rank"), QStringLiteral("1M"), QStringLiteral("-o"), path("x.txt")},
              QStringList{QStringLiteral("--format"), QStringLiteral("nccl-tests-matrix"), QStringLiteral("--bytes-per-rank"),
                          QStringLiteral("1000"), QStringLiteral("-o"), path("x.txt")}})
            QCOMPARE(run(QStringList{QStringLiteral("traffic"), QStringLiteral("train")} + bad).exitCode, 2);
        QVERIFY(!QFile::exists(path("x.txt")));

        // The uniform alltoall_perf run and the routed alltoallv_perf run of that matrix,
        // as nccl-tests prints them (tests/fixtures/importers/nccl-tests, generated from its
        // printf formats), imported and compared.
        const QString logs = QStringLiteral(MOEWB_SOURCE_DIR "/tests/fixtures/importers/nccl-tests/");
        r = run({QStringLiteral("import"), logs + QStringLiteral("alltoall-tiny-2ranks.txt"), QStringLiteral("--run"),
                 QStringLiteral("nccl-uniform")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        r = run({QStringLiteral("import"), logs + QStringLiteral("alltoallv-tiny-2ranks-summary.txt"),
                 QStringLiteral("--run"), QStringLiteral("nccl-routed")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        // The plan says where the bytes per rank come from: 3 rows, 1 MiB each.
        QVERIFY2(r.out.contains(QStringLiteral("alltoallv_perf with a traffic matrix (2×2, scale 1.000): bytes per "
                                               "rank = the matrix's mean row sum, 1 MiB (1048576 B), from its summary "
                                               "lines")),
                 qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral("3 data row(s)")) || r.out.contains(QStringLiteral("3 data rows")),
                 qPrintable(r.out));
        // Medians worked by hand from the files: uniform 1 MiB rows 19.51 19.48 19.55 -> 19.51 µs;
        // routed 23.41 23.56 23.38 -> 23.41 µs; 23.41 / 19.51.
        const auto compareWith = [&](const QString& routed) {
            const auto c = run({QStringLiteral("--json"), QStringLiteral("traffic"), QStringLiteral("compare"),
                                QStringLiteral("nccl-uniform"), routed});
            if (c.exitCode != 0)
                return QString(c.err);
            const QJsonArray sizes = c.json().value(QStringLiteral("sizes")).toArray();
            if (sizes.size() != 1 || !c.json().value(QStringLiteral("same_cluster_and_world")).toBool())
                return c.out;
            const QJsonObject o = sizes[0].toObject();
            if (o.value(QStringLiteral("bytes_per_rank")).toDouble() != 1048576.0 ||
                o.value(QStringLiteral("uniform_median_us")).toDouble() != 19.51 ||
                o.value(QStringLiteral("routed_median_us")).toDouble() != 23.41 ||
                !qFuzzyCompare(o.value(QStringLiteral("ratio")).toDouble(), 23.41 / 19.51))
                return c.out;
            return QString();
        };
        QString problem = compareWith(QStringLiteral("nccl-routed"));
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        // Printed without the summary: refused alone, imported with the matrix written above.
        r = run({QStringLiteral("import"), logs + QStringLiteral("alltoallv-tiny-2ranks-plain.txt"),
                 QStringLiteral("--run"), QStringLiteral("nccl-plain")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral("--alltoallv-matrix FILE")), qPrintable(r.err));
        r = run({QStringLiteral("import"), logs + QStringLiteral("alltoallv-tiny-2ranks-plain.txt"),
                 QStringLiteral("--run"), QStringLiteral("nccl-plain"), QStringLiteral("--alltoallv-matrix"), matrix});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        problem = compareWith(QStringLiteral("nccl-plain"));
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        // The matrix of another scale is not the one the run read.
        r = run({QStringLiteral("import"), logs + QStringLiteral("alltoallv-tiny-2ranks-plain.txt"),
                 QStringLiteral("--run"), QStringLiteral("nccl-scaled"), QStringLiteral("--alltoallv-matrix"), matrix,
                 QStringLiteral("--alltoallv-scale"), QStringLiteral("2")});
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(run({QStringLiteral("import"), logs + QStringLiteral("alltoallv-tiny-2ranks-plain.txt"),
                      QStringLiteral("--alltoallv-scale"), QStringLiteral("2")})
                     .exitCode,
                 2);
        // Stage 1 and the report pair the routed runs with the uniform one (same world, no cluster).
        auto opened = store::ProjectStore::open(m_project, store::OpenMode::MustExist);
        QVERIFY(opened);
        const auto routed = opened.value()->run(QStringLiteral("nccl-routed"));
        QVERIFY(routed);
        QCOMPARE(routed->environment.value(QStringLiteral("pattern_origin")).toString(),
                 QStringLiteral("alltoallv_perf matrix (2×2, scale 1.000)"));
        int paired = 0;
        for (const traffic::RoutingPair& pair : traffic::findRoutingPairs(*opened.value(), opened.value()->runs()))
            if (pair.routed.name.startsWith(QLatin1String("nccl-"))) {
                QCOMPARE(pair.uniform.name, QStringLiteral("nccl-uniform"));
                ++paired;
            }
        QCOMPARE(paired, 2);
    }
};

QTEST_GUILESS_MAIN(TestMoewbTraffic)
#include "test_moewb_traffic.moc"
