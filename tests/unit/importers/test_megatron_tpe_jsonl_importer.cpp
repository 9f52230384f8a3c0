// MegatronTpeJsonlImporter: {"iter","layer","tpe":[[...],...]} per rank file.
#include "ImporterTestSupport.h"
#include "importers/MegatronTpeJsonlImporter.h"

using namespace moewb::importers;
using importer_test::fixture;

class TestMegatronTpeJsonlImporter : public QObject {
    Q_OBJECT
private slots:
    void nestedRowsAreSummedPerExpert() {
        auto r = importFile(fixture(QStringLiteral("tpe/tokens-per-expert-rank0.jsonl")));
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : qPrintable(r.error().text()));
        const ImportedData& d = r.value();
        QCOMPARE(d.format, QStringLiteral("megatron-tpe-jsonl"));
        QCOMPARE(d.rows, 4);
        QCOMPARE(d.expertLoad.size(), 4);
        // iter 10 layer 0: [10,11,12,13] + [0,2,4,6]
        QCOMPARE(d.expertLoad[0].step, 10);
        QCOMPARE(d.expertLoad[0].layer, 0);
        QCOMPARE(d.expertLoad[0].tokensPerExpert, (QVector<quint32>{10, 13, 16, 19}));
        // iter 20 layer 1: [21,22,23,24] + [0,2,4,6]
        QCOMPARE(d.expertLoad[3].step, 20);
        QCOMPARE(d.expertLoad[3].layer, 1);
        QCOMPARE(d.expertLoad[3].tokensPerExpert, (QVector<quint32>{21, 24, 27, 30}));
        QCOMPARE(d.environment.value(QStringLiteral("experts")).toInt(), 4);
    }

    void flatCountsRankKeyUnknownKeysAndBlankLines() {
        const QByteArray text = "{\"iter\": 7, \"rank\": 3, \"layer\": 2, \"note\": {\"x\": [1, \"a\"]}, \"tpe\": [4, 0, 4294967295]}\n"
                                "\n"
                                "  {\"tpe\": [1, 1, 1], \"layer\": 3, \"iter\": 7, \"rank\": 3}  \r\n";
        auto r = MegatronTpeJsonlImporter::parse(text, QStringLiteral("rank3.jsonl"));
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : qPrintable(r.error().text()));
        QCOMPARE(r->rows, 2);
        QCOMPARE(r->expertLoad[0].tokensPerExpert, (QVector<quint32>{4, 0, 4294967295u}));
        QCOMPARE(r->expertLoad[1].layer, 3);
        QCOMPARE(r->environment.value(QStringLiteral("rank")).toInt(), 3);
    }

    void errorsAreLocated() {
        auto r = MegatronTpeJsonlImporter::parse("{\"iter\": 1, \"layer\": 0, \"tpe\": [[1, 2]]}\n"
                                                 "{\"iter\": 1, \"layer\": 1, \"tpe\": [[1, 2], [3]]}\n",
                                                 QStringLiteral("t.jsonl"));
        QVERIFY(!r.hasValue());
        QCOMPARE(r.error().text(), QStringLiteral("t.jsonl:2: tpe: rows of different lengths (2 and 1)"));
    }

    MOEWB_IMPORTER_CORPUS_TESTS("megatron-tpe-jsonl", MegatronTpeJsonlImporter)
};

QTEST_GUILESS_MAIN(TestMegatronTpeJsonlImporter)
#include "test_megatron_tpe_jsonl_importer.moc"
