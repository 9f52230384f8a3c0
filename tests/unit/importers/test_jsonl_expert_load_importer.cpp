// JsonlExpertLoadImporter: {"step": N, "layer": L, "tokens": [...]} per line.
#include "ImporterTestSupport.h"
#include "importers/JsonlExpertLoadImporter.h"

#include "importers/ExpertLoadJsonl.h"

#include <QBuffer>
#include <QRandomGenerator>

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
    void flatRowsReadEveryCountExactly() {
        // Counts of every length up to 10 digits (the scanner's fast loop and its hand-off
        // to the general reader), odd spacing, and the bounds. The expected rows are
        // the numbers this test drew, written with QByteArray::number.
        QRandomGenerator rng(19);
        QByteArray text;
        QList<QVector<quint32>> rows;
        for (int line = 0; line < 40; ++line) {
            QVector<quint32> row;
            QByteArray list;
            for (int e = 0; e < 64; ++e) {
                const int digits = 1 + int(rng.bounded(10));
                quint64 v = rng.generate64() % 10000000000ull;
                while (QByteArray::number(v).size() > digits)
                    v /= 10;
                if (v > 4294967295ull)
                    v = 4294967295ull;
                row << quint32(v);
                list += (e ? (e % 3 ? QByteArray(",") : QByteArray(" ,\t ")) : QByteArray()) + QByteArray::number(v);
            }
            rows << row;
            text += "{\"step\": " + QByteArray::number(line) + ", \"layer\": 0, \"tokens\": [ " + list + " ]}\n";
        }
        auto r = JsonlExpertLoadImporter::parse(text, QStringLiteral("t.jsonl"));
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : qPrintable(r.error().text()));
        QCOMPARE(r->expertLoad.size(), rows.size());
        for (qsizetype i = 0; i < rows.size(); ++i)
            QCOMPARE(r->expertLoad[i].tokensPerExpert, rows[i]);

        auto over = JsonlExpertLoadImporter::parse("{\"step\": 1, \"layer\": 0, \"tokens\": [1, 4294967296]}\n",
                                                   QStringLiteral("t.jsonl"));
        QVERIFY(!over.hasValue());
        QCOMPARE(over.error().text(),
                 QStringLiteral("t.jsonl:1: tokens: is absurd: 4294967296 tokens for one expert (at most 4294967295)"));
        // 20 digits: past the fast loop's 18, the general reader refuses it.
        auto huge = JsonlExpertLoadImporter::parse("{\"step\": 1, \"layer\": 0, \"tokens\": [12345678901234567890]}\n",
                                                   QStringLiteral("t.jsonl"));
        QVERIFY(!huge.hasValue());
        QVERIFY2(huge.error().text().startsWith(QStringLiteral("t.jsonl:1: tokens: ")), qPrintable(huge.error().text()));
        auto zero = JsonlExpertLoadImporter::parse("{\"step\": 1, \"layer\": 0, \"tokens\": [1, 07]}\n",
                                                   QStringLiteral("t.jsonl"));
        QVERIFY(!zero.hasValue());
        QVERIFY2(zero.error().text().startsWith(QStringLiteral("t.jsonl:1: tokens: ")), qPrintable(zero.error().text()));
    }

    void readingInBlocksGivesTheSameResult() {
        // parseExpertLoadJsonl(QIODevice&, …) reads the file a block at a time; every
        // fixture, every malformed file and a generated file with a resume, cut into
        // blocks of 1, 7, 64 and 4096 bytes, must give exactly what the whole text gives
        // (the same blocks, environment and rows, or the same message).
        const ExpertLoadJsonlLayout tpe{"megatron-tpe-jsonl", "iter", "tpe", true, true};
        const ExpertLoadJsonlLayout generic{"jsonl-expert-load", "step", "tokens", false};
        QList<std::pair<QString, QByteArray>> inputs;
        for (const QString& rel : {QStringLiteral("jsonl/expert-load.jsonl"), QStringLiteral("tpe/tokens-per-expert-rank0.jsonl"),
                                   QStringLiteral("tpe/tokens_per_expert/rank2.jsonl")})
            inputs << std::make_pair(rel, importer_test::readFixture(rel));
        for (const auto& c : importer_test::malformedCases())
            if (c.relative.startsWith(QLatin1String("megatron-tpe-jsonl/")) ||
                c.relative.startsWith(QLatin1String("jsonl-expert-load/")))
                inputs << std::make_pair(c.relative, importer_test::readFixture(QStringLiteral("malformed/") + c.relative));
        QByteArray generated = "\xEF\xBB\xBF";
        QRandomGenerator rng(7);
        for (int iter = 1; iter <= 30; ++iter) {
            const int at = iter == 21 ? 12 : iter; // a resumed training goes back to iteration 12
            for (int layer = 0; layer < 3; ++layer) {
                generated += "{\"iter\": " + QByteArray::number(at) + ", \"layer\": " + QByteArray::number(layer) + ", \"tpe\": [";
                for (int e = 0; e < 9; ++e)
                    generated += (e ? "," : "") + QByteArray::number(rng.bounded(100000));
                generated += "]}\n";
            }
        }
        generated.chop(1); // the last line without its newline
        inputs << std::make_pair(QStringLiteral("generated-rank0.jsonl"), generated);
        int compared = 0;
        for (const auto& [name, bytes] : inputs) {
            for (const ExpertLoadJsonlLayout* layout : {&tpe, &generic}) {
                const ImportResult whole = parseExpertLoadJsonl(bytes, name, *layout);
                for (qint64 blockBytes : {1, 7, 64, 4096}) {
                    QBuffer device;
                    device.setData(bytes);
                    QVERIFY(device.open(QIODevice::ReadOnly));
                    const ImportResult blocks = parseExpertLoadJsonl(device, bytes.size(), name, *layout, blockBytes);
                    const QByteArray where = (name + QStringLiteral(" in blocks of %1").arg(blockBytes)).toUtf8();
                    QVERIFY2(whole.hasValue() == blocks.hasValue(), where.constData());
                    ++compared;
                    if (!whole.hasValue()) {
                        QCOMPARE(blocks.error().text(), whole.error().text());
                        continue;
                    }
                    QCOMPARE(blocks->rows, whole->rows);
                    QCOMPARE(blocks->environment, whole->environment);
                    QCOMPARE(blocks->expertLoad.size(), whole->expertLoad.size());
                    for (qsizetype i = 0; i < whole->expertLoad.size(); ++i) {
                        QCOMPARE(blocks->expertLoad[i].step, whole->expertLoad[i].step);
                        QCOMPARE(blocks->expertLoad[i].layer, whole->expertLoad[i].layer);
                        QCOMPARE(blocks->expertLoad[i].mtpIndex, whole->expertLoad[i].mtpIndex);
                        QCOMPARE(blocks->expertLoad[i].tokensPerExpert, whole->expertLoad[i].tokensPerExpert);
                    }
                }
            }
        }
        QVERIFY(compared > 100);
        // The generated file's resume, counted here: iterations 12..20 were replaced.
        QBuffer device;
        device.setData(generated);
        QVERIFY(device.open(QIODevice::ReadOnly));
        const ImportResult r = parseExpertLoadJsonl(device, generated.size(), QStringLiteral("rank0.jsonl"), tpe, 5);
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : qPrintable(r.error().text()));
        QCOMPARE(r->environment.value(QStringLiteral("replaced_blocks")).toInteger(), 9 * 3);
        QCOMPARE(r->expertLoad.size(), (30 - 9) * 3);
        QCOMPARE(r->expertLoad.last().step, 30);
    }
};

QTEST_GUILESS_MAIN(TestJsonlExpertLoadImporter)
#include "test_jsonl_expert_load_importer.moc"
