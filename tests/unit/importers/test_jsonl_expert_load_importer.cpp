// JsonlExpertLoadImporter: {"step": N, "layer": L, "tokens": [...]} per line.
#include "ImporterTestSupport.h"
#include "importers/JsonlExpertLoadImporter.h"

using namespace moewb::importers;
using importer_test::fixture;

class TestJsonlExpertLoadImporter : public QObject {
    Q_OBJECT
private slots:
    void linesBecomeBlocks() {
        auto r = importFile(fixture(QStringLiteral("jsonl/expert-load.jsonl")));
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : qPrintable(r.error().text()));
        QCOMPARE(r->format, QStringLiteral("jsonl-expert-load"));
        QCOMPARE(r->rows, 6);
        QCOMPARE(r->expertLoad[0].step, 1);
        QCOMPARE(r->expertLoad[0].tokensPerExpert, (QVector<quint32>{10, 5, 7, 99}));
        QCOMPARE(r->expertLoad[5].step, 3);
        QCOMPARE(r->expertLoad[5].layer, 1);
        QCOMPARE(r->expertLoad[5].tokensPerExpert, (QVector<quint32>{31, 5, 7, 97}));
    }

    MOEWB_IMPORTER_CORPUS_TESTS("jsonl-expert-load", JsonlExpertLoadImporter)
};

QTEST_GUILESS_MAIN(TestJsonlExpertLoadImporter)
#include "test_jsonl_expert_load_importer.moc"
