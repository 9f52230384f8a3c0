// NcclTestsJsonImporter: nccl-tests -J output, with and without per-iteration times.
#include "ImporterTestSupport.h"
#include "importers/NcclTestsJsonImporter.h"

#include <QJsonArray>

using namespace moewb::importers;
using importer_test::fixture;

class TestNcclTestsJsonImporter : public QObject {
    Q_OBJECT
private slots:
    void perIterationTimesBecomeSamples() {
        auto r = importFile(fixture(QStringLiteral("nccl-tests-json/alltoall-per-iteration.json")));
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : qPrintable(r.error().text()));
        const ImportedData& d = r.value();
        QCOMPARE(d.format, QStringLiteral("nccl-tests-json")); // detected from a one-line document
        QCOMPARE(d.rows, 2);
        QCOMPARE(d.commSamples.size(), 6);
        const double times[] = {50.5, 52.25, 60.0, 120.0, 121.5, 130.0};
        for (int i = 0; i < 6; ++i) {
            QCOMPARE(d.commSamples[i].bytesPerRank, quint64(i < 3 ? 1048576 : 4194304));
            QCOMPARE(d.commSamples[i].repeat, 0);
            QCOMPARE(d.commSamples[i].iteration, i % 3);
            QCOMPARE(d.commSamples[i].timeUs, times[i]);
        }
        const QJsonObject& env = d.environment;
        QCOMPARE(env.value(QStringLiteral("collective")).toString(), QStringLiteral("alltoall"));
        QCOMPARE(env.value(QStringLiteral("world")).toInt(), 4);
        QCOMPARE(env.value(QStringLiteral("nodes_listed")).toInt(), 2);
        QCOMPARE(env.value(QStringLiteral("nccl_version_code")).toInteger(), 22705);
        QCOMPARE(env.value(QStringLiteral("avg_busbw_gbps")).toDouble(), 19.95);
        QCOMPARE(env.value(QStringLiteral("gpu_models")).toArray(), QJsonArray{QStringLiteral("NVIDIA H100 80GB HBM3")});
        QVERIFY(env.value(QStringLiteral("samples")).toString().startsWith(QStringLiteral("per-iteration")));
    }

    void plainResultsOneSampleEach() {
        auto r = NcclTestsJsonImporter::importFile(fixture(QStringLiteral("nccl-tests-json/alltoallv-plain.json")));
        QVERIFY(r.hasValue());
        QCOMPARE(r->rows, 2);
        QCOMPARE(r->commSamples.size(), 2);
        QCOMPARE(r->commSamples[0].timeUs, 54.25);
        QCOMPARE(r->commSamples[1].timeUs, 123.83);
        QCOMPARE(r->environment.value(QStringLiteral("collective")).toString(), QStringLiteral("alltoallv"));
        QCOMPARE(r->environment.value(QStringLiteral("in_place")).toArray().size(), 2);
    }

    MOEWB_IMPORTER_CORPUS_TESTS("nccl-tests-json", NcclTestsJsonImporter)
};

QTEST_GUILESS_MAIN(TestNcclTestsJsonImporter)
#include "test_nccl_tests_json_importer.moc"
