// Files measured on a real GPU (one NVIDIA H200; tests/fixtures/importers/gpu-h200,
// written by tests/gpu/run_gpu_checks.sh) go through the importers whole. Expected
// figures are read from the files here with QJsonDocument and regular expressions,
// never from the importers.
#include "ImporterTestSupport.h"
#include "importers/MoewbCollectImporter.h"
#include "importers/ProbeJsonImporter.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <map>

using namespace moewb::importers;
using importer_test::fixture;

class TestRealGpuRuns : public QObject {
    Q_OBJECT
private slots:
    // moe-probe's nccl backend on the H200: every per-iteration sample of every repeat.
    void probeNcclRunOnAnH200() {
        const QString rel = QStringLiteral("gpu-h200/probe-nccl-1gpu.json");
        auto r = importFile(fixture(rel));
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : qPrintable(r.error().text()));
        const ImportedData& d = r.value();
        QCOMPARE(d.format, QStringLiteral("probe-json"));
        const QJsonObject doc = QJsonDocument::fromJson(importer_test::readFixture(rel)).object();
        QCOMPARE(doc.value(QStringLiteral("environment")).toObject().value(QStringLiteral("gpu")).toObject()
                     .value(QStringLiteral("model")).toString(),
                 QStringLiteral("NVIDIA H200"));
        QCOMPARE(doc.value(QStringLiteral("summary")).toObject().value(QStringLiteral("wrong_bytes")).toInt(-1), 0);
        // Brute force: (size, repeat, iteration) -> µs from the file's samples_us.
        std::map<std::tuple<quint64, int, int>, double> expected;
        for (const QJsonValue& v : doc.value(QStringLiteral("results")).toArray()) {
            const QJsonObject res = v.toObject();
            const auto bytes = quint64(res.value(QStringLiteral("bytes_per_rank")).toInteger());
            const QJsonArray reps = res.value(QStringLiteral("repeats")).toArray();
            for (int rep = 0; rep < reps.size(); ++rep) {
                const QJsonArray s = reps[rep].toObject().value(QStringLiteral("samples_us")).toArray();
                for (int i = 0; i < s.size(); ++i)
                    expected[{bytes, rep, i}] = s[i].toDouble();
            }
        }
        QCOMPARE(expected.size(), size_t(11 * 3 * 20));
        QCOMPARE(d.commSamples.size(), qsizetype(expected.size()));
        for (const auto& s : d.commSamples) {
            const auto it = expected.find({s.bytesPerRank, s.repeat, s.iteration});
            QVERIFY2(it != expected.end(), qPrintable(QString::number(s.bytesPerRank)));
            QCOMPARE(s.timeUs, it->second);
        }
        QCOMPARE(d.environment.value(QStringLiteral("world")).toInt(), 1);
    }

    // NVIDIA nccl-tests' alltoall_perf on the same GPU: the out-of-place time per size.
    void ncclTestsOnAnH200() {
        const QString rel = QStringLiteral("gpu-h200/nccl-tests-alltoall-1gpu.txt");
        auto r = importFile(fixture(rel));
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : qPrintable(r.error().text()));
        const ImportedData& d = r.value();
        QVERIFY2(d.format.startsWith(QStringLiteral("nccl-tests")), qPrintable(d.format));
        // size count type redop root time algbw busbw #wrong ...
        static const QRegularExpression row(QStringLiteral(R"(^\s+(\d+)\s+\d+\s+\S+\s+\S+\s+-?\d+\s+([\d.]+)\s)"));
        std::map<quint64, double> expected;
        for (const QByteArray& line : importer_test::readFixture(rel).split('\n'))
            if (const auto m = row.match(QString::fromLatin1(line)); m.hasMatch())
                expected[m.captured(1).toULongLong()] = m.captured(2).toDouble();
        QCOMPARE(expected.size(), size_t(11));
        QCOMPARE(d.commSamples.size(), qsizetype(expected.size()));
        for (const auto& s : d.commSamples) {
            QVERIFY(expected.count(s.bytesPerRank));
            QCOMPARE(s.timeUs, expected[s.bytesPerRank]);
        }
    }

    // The same file with an out-of-place algbw of 2e+06 GB/s is refused, naming the line
    // and the column; only the in-place no-op's figure may be that large.
    void absurdOutOfPlaceBandwidthIsRefused() {
        QByteArray text = importer_test::readFixture(QStringLiteral("gpu-h200/nccl-tests-alltoall-1gpu.txt"));
        const QByteArray row = "     1048576        262144     float    none      -1     7.35  142.65";
        QVERIFY(text.contains(row));
        text.replace(row, "     1048576        262144     float    none      -1     7.35  2e+06 ");
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("absurd.txt"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(text);
        f.close();
        auto r = importFile(path);
        QVERIFY(!r.hasValue());
        QVERIFY2(r.error().text().contains(QStringLiteral("absurd.txt:11: algbw: is absurd: 2e+06 GB/s")),
                 qPrintable(r.error().text()));
    }

    // moewb_collect on the GPU (clock cuda-events): drops per step and the measured
    // busiest-device share (world 1: (compute + all-to-all) / step).
    void collectorOnAnH200() {
        const QString rel = QStringLiteral("gpu-h200/collect/moewb_collect/rank0.jsonl");
        auto r = importFile(fixture(rel));
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : qPrintable(r.error().text()));
        const ImportedData& d = r.value();
        QCOMPARE(d.format, QStringLiteral("moewb-collect-jsonl"));
        struct Step {
            qint64 tokens = 0, dropped = 0;
            double step = 0, a2a = -1, compute = -1;
        };
        std::map<qint64, Step> expected;
        QString clock;
        for (const QByteArray& line : importer_test::readFixture(rel).split('\n')) {
            const QJsonObject o = QJsonDocument::fromJson(line).object();
            if (o.isEmpty())
                continue;
            if (o.contains(QStringLiteral("format"))) {
                clock = o.value(QStringLiteral("clock")).toString();
                continue;
            }
            Step& s = expected[o.value(QStringLiteral("step")).toInteger()];
            if (o.value(QStringLiteral("kind")).toString() == QStringLiteral("drops")) {
                s.tokens += o.value(QStringLiteral("tokens")).toInteger();
                s.dropped += o.value(QStringLiteral("dropped_tokens")).toInteger();
            } else {
                s.step = o.value(QStringLiteral("step_s")).toDouble();
                s.a2a = o.value(QStringLiteral("a2a_s")).toDouble(-1);
                s.compute = o.value(QStringLiteral("compute_s")).toDouble(-1);
            }
        }
        QCOMPARE(clock, QStringLiteral("cuda-events"));
        QCOMPARE(d.collectorSteps.size(), qsizetype(expected.size()));
        int shares = 0;
        for (const auto& c : d.collectorSteps) {
            const Step& s = expected.at(c.step);
            QCOMPARE(qint64(c.tokens), s.tokens);
            QCOMPARE(qint64(c.droppedTokens), s.dropped);
            double share = -1;
            for (const auto& m : d.stepMetrics)
                if (m.step == c.step && m.name == QStringLiteral("busiest_device_share"))
                    share = m.value;
            if (s.a2a >= 0 && s.compute >= 0) {
                QCOMPARE(share, (s.compute + s.a2a) / s.step);
                QVERIFY(share > 0.0 && share <= 1.0);
                ++shares;
            } else {
                QCOMPARE(share, -1.0); // a step without both spans has no share
            }
        }
        QCOMPARE(shares, 6);
    }
};

QTEST_GUILESS_MAIN(TestRealGpuRuns)
#include "test_real_gpu_runs.moc"
