// RoutingTraceJsonlImporter: per-token top-k choices counted into expert load, drops into metrics.
#include "ImporterTestSupport.h"
#include "importers/RoutingTraceJsonlImporter.h"

using namespace moewb::importers;
using importer_test::fixture;

class TestRoutingTraceJsonlImporter : public QObject {
    Q_OBJECT
private slots:
    void countsAndDrops() {
        auto r = importFile(fixture(QStringLiteral("routing/routing-trace.jsonl")));
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : qPrintable(r.error().text()));
        const ImportedData& d = r.value();
        QCOMPARE(d.format, QStringLiteral("routing-trace-jsonl"));
        QCOMPARE(d.rows, 4);
        QCOMPARE(d.expertLoad.size(), 3);
        // iter 5 layer 0 over two lines: [0,1] [1,2] [1,3] + [2,3]
        QCOMPARE(d.expertLoad[0].step, 5);
        QCOMPARE(d.expertLoad[0].layer, 0);
        QCOMPARE(d.expertLoad[0].tokensPerExpert, (QVector<quint32>{1, 3, 2, 2}));
        QCOMPARE(d.expertLoad[1].layer, 1);
        QCOMPARE(d.expertLoad[1].tokensPerExpert, (QVector<quint32>{1, 1, 0, 2}));
        QCOMPARE(d.expertLoad[2].step, 6);
        QCOMPARE(d.expertLoad[2].tokensPerExpert, (QVector<quint32>{2, 1, 1, 0}));
        // Drops only where the trace says: iter 5, 2 of 12 assignments.
        QCOMPARE(d.stepMetrics.size(), 2);
        QCOMPARE(d.stepMetrics[0].name, QStringLiteral("dropped_tokens"));
        QCOMPARE(d.stepMetrics[0].step, 5);
        QCOMPARE(d.stepMetrics[0].value, 2.0);
        QCOMPARE(d.stepMetrics[1].name, QStringLiteral("drop_rate"));
        QCOMPARE(d.stepMetrics[1].value, 2.0 / 12.0);
    }

    MOEWB_IMPORTER_CORPUS_TESTS("routing-trace-jsonl", RoutingTraceJsonlImporter)
};

QTEST_GUILESS_MAIN(TestRoutingTraceJsonlImporter)
#include "test_routing_trace_jsonl_importer.moc"
