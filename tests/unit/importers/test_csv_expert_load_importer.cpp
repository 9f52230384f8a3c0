// CsvExpertLoadImporter: step,layer,<experts...>.
#include "ImporterTestSupport.h"
#include "importers/CsvExpertLoadImporter.h"

using namespace moewb::importers;
using importer_test::fixture;

class TestCsvExpertLoadImporter : public QObject {
    Q_OBJECT
private slots:
    void rowsBecomeBlocks() {
        auto r = importFile(fixture(QStringLiteral("csv/expert-load.csv")));
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : qPrintable(r.error().text()));
        QCOMPARE(r->format, QStringLiteral("csv-expert-load"));
        QCOMPARE(r->rows, 3);
        QCOMPARE(r->expertLoad.size(), 3);
        QCOMPARE(r->expertLoad[1].step, 1);
        QCOMPARE(r->expertLoad[1].layer, 1);
        QCOMPARE(r->expertLoad[1].tokensPerExpert, (QVector<quint32>{11, 21, 31, 41}));
        QCOMPARE(r->expertLoad[2].step, 2);
        QCOMPARE(r->environment.value(QStringLiteral("experts")).toInt(), 4);
    }

    MOEWB_IMPORTER_CORPUS_TESTS("csv-expert-load", CsvExpertLoadImporter)
};

QTEST_GUILESS_MAIN(TestCsvExpertLoadImporter)
#include "test_csv_expert_load_importer.moc"
