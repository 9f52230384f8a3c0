// The nccl backend end to end on a machine without GPUs: stand-in libcuda.so.1 and
// libnccl.so.2 (fake_gpu/) move host memory, so buffer layout, grouping, the choice
// between ncclAlltoAll and grouped send/recv, events, validation and the reported
// environment are all exercised. The real comparison runs in tests/gpu/run_probe_gpu.sh.
#include "json_schema_check.h"
#include "probe_launcher.h"

#include <QJsonArray>
#include <QProcessEnvironment>

using namespace probetest;

class TestProbeNcclBackend : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;

    QJsonObject run(const QStringList& args, const QString& ncclVersion, QByteArray& err) {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("LD_LIBRARY_PATH", QStringLiteral(MOEWB_PROBE_FAKE_GPU_LIBS));
        env.insert("FAKE_NCCL_VERSION", ncclVersion);
        env.insert("FAKE_CUDA_DEVICES", "4");
        const QString json = dir_.filePath(QStringLiteral("nccl-%1.json").arg(++runs_));
        QProcess p;
        p.setProcessEnvironment(env);
        p.start(probePath(),
                QStringList{"--backend", "nccl", "--nccl-lib", QStringLiteral(MOEWB_PROBE_FAKE_GPU_LIBS),
                            "-c", "1", "-J", json, "--timeout", "10"} +
                    args);
        if (!p.waitForFinished(30000))
            return {};
        err = p.readAllStandardError();
        if (p.exitCode() != 0) {
            qWarning("%s", err.constData());
            return {};
        }
        const QJsonObject doc = readJsonObject(json);
        const QStringList errors =
            JsonSchemaCheck(readJsonObject(QStringLiteral(MOEWB_PROBE_SCHEMA))).validate(doc);
        if (!errors.isEmpty())
            qWarning("%s", qPrintable(errors.join('\n')));
        return errors.isEmpty() ? doc : QJsonObject{};
    }
    int runs_ = 0;

private slots:
    void uniformUsesNcclAlltoAll() {
        QByteArray err;
        const QJsonObject doc = run(
            {"-g", "4", "-b", "4K", "-e", "64K", "-f", "4", "-n", "3", "-w", "1", "-R", "2"}, "22809", err);
        QVERIFY(!doc.isEmpty());
        const QJsonObject env = doc.value("environment").toObject();
        QCOMPARE(env.value("world").toInt(), 4);
        QCOMPARE(env.value("processes").toInt(), 1);
        QCOMPARE(env.value("gpu").toObject().value("count").toInt(), 4);
        QCOMPARE(env.value("gpu").toObject().value("model").toString(), QStringLiteral("Fake GPU"));
        QCOMPARE(env.value("gpu").toObject().value("cuda_driver_version").toString(), QStringLiteral("12.8"));
        QCOMPARE(env.value("nccl").toObject().value("version").toString(), QStringLiteral("2.28.9"));
        QVERIFY(env.value("nccl").toObject().value("path").toString().startsWith(MOEWB_PROBE_FAKE_GPU_LIBS));
        QCOMPARE(env.value("ranks").toArray()[0].toObject().value("gpu_devices").toArray().size(), 4);
        QCOMPARE(doc.value("results").toArray().size(), 3);
        QCOMPARE(doc.value("summary").toObject().value("wrong_bytes").toInt(-1), 0);
        QVERIFY2(err.contains("ncclSend=0") && !err.contains("ncclAlltoAll=0"), err.constData());
    }

    void unevenPatternUsesGroupedSendRecv() {
        QByteArray err;
        const QJsonObject doc =
            run({"-g", "3", "-b", "30K", "-e", "30K", "-n", "2", "-w", "1", "--pattern", "hot:1:5"}, "22809",
                err);
        QVERIFY(!doc.isEmpty());
        const QJsonObject r = doc.value("results").toArray()[0].toObject();
        QCOMPARE(r.value("wrong_bytes").toInt(-1), 0);
        QCOMPARE(r.value("busiest_rank").toInt(), 0);
        QVERIFY2(err.contains("ncclAlltoAll=0") && !err.contains("ncclSend=0"), err.constData());
    }

    void olderNcclFallsBackToSendRecv() {
        QByteArray err;
        const QJsonObject doc = run({"-g", "2", "-b", "8K", "-e", "8K", "-n", "2", "-w", "0"}, "22703", err);
        QVERIFY(!doc.isEmpty());
        QCOMPARE(doc.value("environment").toObject().value("nccl").toObject().value("alltoall").toString(),
                 QStringLiteral("grouped ncclSend/ncclRecv"));
        QCOMPARE(doc.value("summary").toObject().value("wrong_bytes").toInt(-1), 0);
        QVERIFY2(err.contains("ncclAlltoAll=0"), err.constData());
    }

    // EP groups: one communicator per group. NCCL >= 2.18.1: split from a world
    // communicator; every group's data must land in its own group (-c 1).
    void epGroupsSplitFromTheWorld() {
        QByteArray err;
        const QJsonObject doc = run({"-g", "4", "-b", "4K", "-e", "64K", "-f", "16", "-n", "3", "-w", "1", "-R", "2",
                                     "--ep-size", "2"},
                                    "22809", err);
        QVERIFY(!doc.isEmpty());
        const QJsonObject layout = doc.value("ep_layout").toObject();
        QCOMPARE(layout.value("groups").toArray(), QJsonArray({QJsonArray{0, 1}, QJsonArray{2, 3}}));
        QCOMPARE(doc.value("environment").toObject().value("nccl").toObject().value("communicators").toString(),
                 QStringLiteral("ncclCommSplit"));
        QCOMPARE(doc.value("summary").toObject().value("wrong_bytes").toInt(-1), 0);
        QCOMPARE(doc.value("results").toArray()[0].toObject().value("groups").toArray().size(), 2);
        QVERIFY2(err.contains("ncclCommSplit=4 ncclCommInitRank=4") && err.contains("ncclSend=0") &&
                     !err.contains("ncclAlltoAll=0"),
                 err.constData());
    }

    // Older NCCL (no ncclCommSplit): ncclCommInitRank per group, an id per group; with
    // --tp 2 the groups interleave.
    void epGroupsInitRankPerGroupOnOlderNccl() {
        QByteArray err;
        const QJsonObject doc = run({"-g", "4", "-b", "8K", "-e", "8K", "-n", "2", "-w", "1", "--ep-size", "2",
                                     "--tp", "2", "--pattern", "hot:1:3"},
                                    "21700", err);
        QVERIFY(!doc.isEmpty());
        QCOMPARE(doc.value("ep_layout").toObject().value("groups").toArray(),
                 QJsonArray({QJsonArray{0, 2}, QJsonArray{1, 3}}));
        QCOMPARE(doc.value("environment").toObject().value("nccl").toObject().value("communicators").toString(),
                 QStringLiteral("ncclCommInitRank per group"));
        QCOMPARE(doc.value("summary").toObject().value("wrong_bytes").toInt(-1), 0);
        QVERIFY2(err.contains("ncclCommSplit=0 ncclCommInitRank=4"), err.constData());
    }

    void tooFewGpusIsARuntimeFailure() {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("LD_LIBRARY_PATH", QStringLiteral(MOEWB_PROBE_FAKE_GPU_LIBS));
        env.insert("FAKE_CUDA_DEVICES", "1");
        QProcess p;
        p.setProcessEnvironment(env);
        p.start(probePath(), {"--backend", "nccl", "-g", "2", "-b", "1K", "-e", "1K"});
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), 3);
        QVERIFY(p.readAllStandardError().contains("the node has 1"));
    }
};

QTEST_GUILESS_MAIN(TestProbeNcclBackend)
#include "test_probe_nccl_backend.moc"
