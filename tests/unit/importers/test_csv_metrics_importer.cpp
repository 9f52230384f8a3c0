// CsvMetricsImporter: wide and long step-metric CSV.
#include "ImporterTestSupport.h"
#include "importers/CsvMetricsImporter.h"

#include <QJsonArray>

using namespace moewb::importers;
using importer_test::fixture;

class TestCsvMetricsImporter : public QObject {
    Q_OBJECT
private slots:
    void wideLayoutWithEmptyCellsAndQuotes() {
        auto r = importFile(fixture(QStringLiteral("csv/metrics-wide.csv")));
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : qPrintable(r.error().text()));
        const ImportedData& d = r.value();
        QCOMPARE(d.format, QStringLiteral("csv-metrics"));
        QCOMPARE(d.rows, 3);
        QCOMPARE(d.stepMetrics.size(), 11); // val_loss is empty at step 100
        QCOMPARE(d.stepMetrics[0].step, 100);
        QCOMPARE(d.stepMetrics[0].name, QStringLiteral("lm_loss"));
        QCOMPARE(d.stepMetrics[0].value, 7.25);
        QCOMPARE(d.stepMetrics[1].name, QStringLiteral("tokens_per_s_per_gpu"));
        QCOMPARE(d.stepMetrics[1].value, 3100.5);
        QCOMPARE(d.stepMetrics[4].name, QStringLiteral("val_loss"));
        QCOMPARE(d.stepMetrics[4].step, 200);
        QCOMPARE(d.stepMetrics[7].step, 300); // "300" quoted
        QCOMPARE(d.stepMetrics[10].name, QStringLiteral("drop_rate"));
        QCOMPARE(d.stepMetrics[10].value, 0.001);
        QCOMPARE(d.environment.value(QStringLiteral("layout")).toString(), QStringLiteral("wide"));
    }

    void longLayout() {
        auto r = CsvMetricsImporter::importFile(fixture(QStringLiteral("csv/metrics-long.csv")));
        QVERIFY(r.hasValue());
        QCOMPARE(r->rows, 3);
        QCOMPARE(r->stepMetrics[1].name, QStringLiteral("grad_norm"));
        QCOMPARE(r->stepMetrics[1].value, 1.25);
        QCOMPARE(r->stepMetrics[2].step, 20);
        QCOMPARE(r->environment.value(QStringLiteral("metrics")).toArray(),
                 (QJsonArray{QStringLiteral("grad_norm"), QStringLiteral("lm_loss")}));
    }

    MOEWB_IMPORTER_CORPUS_TESTS("csv-metrics", CsvMetricsImporter)
};

QTEST_GUILESS_MAIN(TestCsvMetricsImporter)
#include "test_csv_metrics_importer.moc"
