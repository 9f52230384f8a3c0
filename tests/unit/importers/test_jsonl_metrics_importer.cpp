// JsonlMetricsImporter: {"step": N, "<metric>": value, ...} per line.
#include "ImporterTestSupport.h"
#include "importers/JsonlMetricsImporter.h"

using namespace moewb::importers;
using importer_test::fixture;

class TestJsonlMetricsImporter : public QObject {
    Q_OBJECT
private slots:
    void objectsBecomeMetrics() {
        auto r = importFile(fixture(QStringLiteral("jsonl/metrics.jsonl")));
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : qPrintable(r.error().text()));
        const ImportedData& d = r.value();
        QCOMPARE(d.format, QStringLiteral("jsonl-metrics"));
        QCOMPARE(d.rows, 3);
        QCOMPARE(d.stepMetrics.size(), 6); // null is no value
        QCOMPARE(d.stepMetrics[1].name, QStringLiteral("learning_rate"));
        QCOMPARE(d.stepMetrics[1].value, 0.0003);
        QCOMPARE(d.stepMetrics[3].name, QStringLiteral("z_loss"));
        QCOMPARE(d.stepMetrics[3].step, 2);
        QCOMPARE(d.stepMetrics[5].name, QStringLiteral("custom_metric_1"));
        QCOMPARE(d.stepMetrics[5].value, -2.5);
    }

    MOEWB_IMPORTER_CORPUS_TESTS("jsonl-metrics", JsonlMetricsImporter)
};

QTEST_GUILESS_MAIN(TestJsonlMetricsImporter)
#include "test_jsonl_metrics_importer.moc"
