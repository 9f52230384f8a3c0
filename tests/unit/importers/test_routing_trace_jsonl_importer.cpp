// RoutingTraceJsonlImporter: per-token top-k choices counted into expert load, drops into metrics.
#include "ImporterTestSupport.h"
#include "importers/RoutingTraceJsonlImporter.h"

#include <QMap>

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
        // Drops only where the trace says: iter 5, 2 of 12 assignments dropped, and no
        // token lost all of its assignments (2 of its 6 tokens lost one of two).
        QMap<QString, double> m;
        for (const auto& x : d.stepMetrics) {
            QCOMPARE(x.step, 5);
            m.insert(x.name, x.value);
        }
        QCOMPARE(m.size(), 5);
        QCOMPARE(m.value(QStringLiteral("dropped_tokens")), 0.0);
        QCOMPARE(m.value(QStringLiteral("drop_rate")), 0.0);
        QCOMPARE(m.value(QStringLiteral("dropped_assignments")), 2.0);
        QCOMPARE(m.value(QStringLiteral("assignment_drop_rate")), 2.0 / 12.0);
        QCOMPARE(m.value(QStringLiteral("partly_dropped_rate")), 2.0 / 6.0);
    }

    // Seed 000: "丢token率:被丢弃的token数除以总token数" — a token counts as dropped when
    // every one of its top-k assignments was; the others are "partly dropped".
    void dropRateIsTheSeeds() {
        const QByteArray trace = R"({"iter": 1, "layer": 0, "num_experts": 4, "topk": [[0, 1], [2, 3], [0, 2]], "dropped": [[1, 1], [1, 0], [0, 0]]}
{"iter": 1, "layer": 1, "num_experts": 4, "topk": [[3, 1]], "dropped": [[true, true]]}
)";
        auto r = RoutingTraceJsonlImporter::parse(trace, QStringLiteral("t.jsonl"));
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : qPrintable(r.error().text()));
        QMap<QString, double> m;
        for (const auto& x : r.value().stepMetrics)
            m.insert(x.name, x.value);
        // 4 token-layer passes; fully dropped: [1,1] and [true,true]; partly: [1,0].
        QCOMPARE(m.value(QStringLiteral("dropped_tokens")), 2.0);
        QCOMPARE(m.value(QStringLiteral("drop_rate")), 2.0 / 4.0);
        QCOMPARE(m.value(QStringLiteral("partly_dropped_rate")), 1.0 / 4.0);
        QCOMPARE(m.value(QStringLiteral("dropped_assignments")), 5.0);
        QCOMPARE(m.value(QStringLiteral("assignment_drop_rate")), 5.0 / 8.0);
    }

    MOEWB_IMPORTER_CORPUS_TESTS("routing-trace-jsonl", RoutingTraceJsonlImporter)
};

QTEST_GUILESS_MAIN(TestRoutingTraceJsonlImporter)
#include "test_routing_trace_jsonl_importer.moc"
