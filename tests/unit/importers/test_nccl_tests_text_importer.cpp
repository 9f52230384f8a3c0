// NcclTestsTextImporter: the real nccl-tests outputs (old and new layouts), -I columns,
// exponent forms, repeated sweeps, and the files it must refuse.
#include "ImporterTestSupport.h"
#include "importers/NcclTestsTextImporter.h"

#include <QJsonArray>

using namespace moewb::importers;
using importer_test::fixture;

class TestNcclTestsTextImporter : public QObject {
    Q_OBJECT

    static ImportedData load(const QString& relative) {
        auto r = NcclTestsTextImporter::importFile(fixture(relative));
        if (!r.hasValue())
            qFatal("%s", qPrintable(r.error().text()));
        return r.value();
    }

private slots:
    void oldLayoutSuperbenchA100() {
        // `error` column (N/A), no root, an empty redop, 8 ranks in one process, five 0-byte rows.
        const ImportedData d = load(QStringLiteral("real/nccltests_alltoall_superbench_a100.txt"));
        QCOMPARE(d.format, QStringLiteral("nccl-tests"));
        QCOMPARE(d.kind, moewb::store::RunKind::Imported);
        QCOMPARE(d.rows, 34);
        QCOMPARE(d.commSamples.size(), 34);
        for (int i = 0; i < 5; ++i) {
            QCOMPARE(d.commSamples[i].bytesPerRank, quint64(0));
            QCOMPARE(d.commSamples[i].repeat, i); // the size's occurrence
            QCOMPARE(d.commSamples[i].iteration, 0);
        }
        QCOMPARE(d.commSamples[0].timeUs, 1.63);
        QCOMPARE(d.commSamples[4].timeUs, 1.34);
        QCOMPARE(d.commSamples[5].bytesPerRank, quint64(32));
        QCOMPARE(d.commSamples[5].timeUs, 89.00);
        QCOMPARE(d.commSamples[33].bytesPerRank, quint64(8589934592));
        QCOMPARE(d.commSamples[33].repeat, 0);
        QCOMPARE(d.commSamples[33].timeUs, 33508.0);
        const QJsonObject& env = d.environment;
        QCOMPARE(env.value(QStringLiteral("collective")).toString(), QStringLiteral("alltoall"));
        QVERIFY(env.value(QStringLiteral("collective_source")).toString().startsWith(QStringLiteral("assumed")));
        QCOMPARE(env.value(QStringLiteral("world")).toInt(), 8);
        QCOMPARE(env.value(QStringLiteral("hostnames")).toArray(), QJsonArray{QStringLiteral("localhost")});
        QCOMPARE(env.value(QStringLiteral("gpu_models")).toArray(), QJsonArray{QStringLiteral("A100-SXM4-40GB")});
        QCOMPARE(env.value(QStringLiteral("avg_busbw_gbps")).toDouble(), 58.6481);
        QCOMPARE(env.value(QStringLiteral("options")).toObject().value(QStringLiteral("iters")).toInt(), 20);
        const QJsonArray inPlace = env.value(QStringLiteral("in_place")).toArray();
        QCOMPARE(inPlace.size(), 34);
        QCOMPARE(inPlace[33].toObject().value(QStringLiteral("time_us")).toDouble(), 33234.0);
    }

    void newLayoutOciGb300WithCutRankList() {
        // root + #wrong, "Collective test starting" lines, a bare "..." in the rank list,
        // a "# Truncated" comment inside the table, 64 ranks, two rows.
        const ImportedData d = load(QStringLiteral("real/nccltests_alltoall_oci-gb300-16hosts.txt"));
        QCOMPARE(d.rows, 2);
        QCOMPARE(d.commSamples[0].bytesPerRank, quint64(8589934592));
        QCOMPARE(d.commSamples[0].timeUs, 13028.0);
        QCOMPARE(d.commSamples[1].bytesPerRank, quint64(17179869184));
        QCOMPARE(d.commSamples[1].timeUs, 25357.0);
        const QJsonObject& env = d.environment;
        QCOMPARE(env.value(QStringLiteral("collective")).toString(), QStringLiteral("alltoall"));
        QCOMPARE(env.value(QStringLiteral("collective_source")).toString(), QStringLiteral("named by the file"));
        QCOMPARE(env.value(QStringLiteral("world")).toInt(), 64);
        QCOMPARE(env.value(QStringLiteral("ranks_listed")).toInt(), 4);
        QCOMPARE(env.value(QStringLiteral("rank_list_complete")).toBool(), false);
        QCOMPARE(env.value(QStringLiteral("nccl_version")).toString(), QStringLiteral("2.28.7+cuda13.0"));
        QCOMPARE(env.value(QStringLiteral("avg_busbw_gbps")).toDouble(), 370.718);
        QCOMPARE(env.value(QStringLiteral("hostnames")).toArray(),
                 (QJsonArray{QStringLiteral("GPU-5705"), QStringLiteral("GPU-6569")}));
    }

    void perIterationColumnsAndExponentTimes() {
        const ImportedData d = load(QStringLiteral("nccl-tests/alltoallv-per-iteration.txt"));
        QCOMPARE(d.rows, 3);
        QCOMPARE(d.commSamples[0].timeUs, 52.31);
        QCOMPARE(d.commSamples[1].timeUs, 1015.2);
        QCOMPARE(d.commSamples[2].bytesPerRank, quint64(4294967296));
        QCOMPARE(d.commSamples[2].timeUs, 61000.0); // printed 6.1e+04
        const QJsonObject& env = d.environment;
        QCOMPARE(env.value(QStringLiteral("collective")).toString(), QStringLiteral("alltoallv"));
        QCOMPARE(env.value(QStringLiteral("world")).toInt(), 4);
        QCOMPARE(env.value(QStringLiteral("nccl_tests_version")).toString(), QStringLiteral("2.17.6"));
        QCOMPARE(env.value(QStringLiteral("nccl_version_code")).toInteger(), 22705);
        QCOMPARE(env.value(QStringLiteral("nccl_version")).toString(), QStringLiteral("2.27.5+cuda12.9"));
        QCOMPARE(env.value(QStringLiteral("in_place")).toArray()[2].toObject().value(QStringLiteral("time_us")).toDouble(),
                 60000.0);
    }

    void twoSweepsBecomeTwoRepeats() {
        const ImportedData d = load(QStringLiteral("nccl-tests/alltoall-two-sweeps-exponent-sizes.txt"));
        QCOMPARE(d.rows, 4);
        QCOMPARE(d.commSamples[0].bytesPerRank, quint64(1048576)); // printed 1.048576e+06
        QCOMPARE(d.commSamples[0].repeat, 0);
        QCOMPARE(d.commSamples[2].bytesPerRank, quint64(1048576));
        QCOMPARE(d.commSamples[2].repeat, 1);
        QCOMPARE(d.commSamples[2].timeUs, 42.0);
        QCOMPARE(d.commSamples[3].timeUs, 69.0);
        QCOMPARE(d.environment.value(QStringLiteral("world")).toInt(), 2);
    }

    void cpuTimeAndTimestampColumns() {
        // -C (cputime) and -T (a two-token timestamp after the last column).
        const ImportedData d = load(QStringLiteral("nccl-tests/alltoall-timestamps-cputime.txt"));
        QCOMPARE(d.rows, 2);
        QCOMPARE(d.commSamples[0].bytesPerRank, quint64(65536));
        QCOMPARE(d.commSamples[0].timeUs, 25.0);
        QCOMPARE(d.commSamples[1].timeUs, 30.0);
        QCOMPARE(d.environment.value(QStringLiteral("world")).toInt(), 4);
        QCOMPARE(d.environment.value(QStringLiteral("in_place")).toArray()[1].toObject().value(QStringLiteral("time_us")).toDouble(),
                 29.5);
    }

    void allReduceIsRecognisedAndRefused() {
        const QString path = fixture(QStringLiteral("real/nccltests_allreduce_cscs-gh200.txt"));
        auto r = NcclTestsTextImporter::importFile(path);
        QVERIFY(!r.hasValue());
        QCOMPARE(r.error().text(), path + QStringLiteral(":2: collective: is all_reduce, not alltoall or alltoallv; "
                                                         "only all-to-all tests are imported"));
        // Detection still calls it nccl-tests, so the message is the precise one.
        auto viaDetection = importFile(path);
        QVERIFY(!viaDetection.hasValue());
        QCOMPARE(viaDetection.error().field, QStringLiteral("collective"));
    }

    void interleavedOneRankJobsAreRefused() {
        const QString path = fixture(QStringLiteral("real/nccltests_alltoall_chausat-a800-12x1rank.txt"));
        auto r = importFile(path);
        QVERIFY(!r.hasValue());
        QCOMPARE(r.error().line, 4);
        QCOMPARE(r.error().field, QStringLiteral("header"));
        QVERIFY2(r.error().message.startsWith(QStringLiteral("holds 12 interleaved nccl-tests runs (12 \"# nThread\" "
                                                             "headers before the first table, rank 0 listed 12 times)")),
                 qPrintable(r.error().message));
    }

    void crlfLineEndings() {
        QByteArray bytes = importer_test::readFixture(QStringLiteral("nccl-tests/alltoallv-per-iteration.txt"));
        bytes.replace("\n", "\r\n");
        auto r = NcclTestsTextImporter::parse(bytes, QStringLiteral("crlf.txt"));
        QVERIFY(r.hasValue());
        QCOMPARE(r->rows, 3);
    }

    void truncatedRowIsNamed() {
        QByteArray bytes = importer_test::readFixture(QStringLiteral("real/nccltests_alltoall_superbench_a100.txt"));
        bytes = bytes.left(bytes.indexOf("  1189.1") + 5); // stop inside the 268435456-byte row
        auto r = NcclTestsTextImporter::parse(bytes, QStringLiteral("cut.txt"));
        QVERIFY(!r.hasValue());
        QCOMPARE(r.error().text(), QStringLiteral("cut.txt:44: row: the file ends inside this row (truncated)"));
    }

    void absurdHeaderIsRefused() {
        QByteArray header = "# nThread 1 nGpus 1 minBytes 8 maxBytes 8 step: 2(factor) warmup iters: 1 iters: 1 validation: 0\n"
                            "#  size count type redop root";
        for (int i = 0; i < 70; ++i)
            header += " time";
        auto r = NcclTestsTextImporter::parse(header + "\n", QStringLiteral("wide.txt"));
        QVERIFY(!r.hasValue());
        QCOMPARE(r.error().line, 2);
        QCOMPARE(r.error().field, QStringLiteral("header"));
    }

    MOEWB_IMPORTER_CORPUS_TESTS("nccl-tests", NcclTestsTextImporter)
};

QTEST_GUILESS_MAIN(TestNcclTestsTextImporter)
#include "test_nccl_tests_text_importer.moc"
