// MegatronTpeJsonlImporter: {"iter","block","mtp_idx","layer","tpe":[[...],...]} per rank file.
#include "ImporterTestSupport.h"
#include "importers/ExpertLoadJsonl.h"
#include "importers/MegatronTpeJsonlImporter.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

using namespace moewb::importers;
using importer_test::fixture;
namespace store = moewb::store;

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

    void mtpRecordsAreBlocksOfTheirOwn() {
        // Megatron-Core >= core_v0.18 (activation_logging.py, save_tpe): "block" and
        // "mtp_idx"; an MTP record repeats a decoder layer number. Expected figures are
        // counted here from the fixture's lines with QJsonDocument.
        const QString rel = QStringLiteral("tpe/tokens_per_expert/rank2.jsonl");
        auto r = importFile(fixture(rel));
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : qPrintable(r.error().text()));
        const ImportedData& d = r.value();
        QCOMPARE(d.format, QStringLiteral("megatron-tpe-jsonl"));
        const QList<QByteArray> lines = importer_test::readFixture(rel).trimmed().split('\n');
        QCOMPARE(d.rows, lines.size());
        QCOMPARE(d.expertLoad.size(), lines.size());
        int mtpLines = 0;
        for (qsizetype i = 0; i < lines.size(); ++i) {
            const QJsonObject o = QJsonDocument::fromJson(lines[i]).object();
            const store::ExpertLoadBlock& b = d.expertLoad[i];
            QCOMPARE(b.step, o.value(QStringLiteral("iter")).toInteger());
            QCOMPARE(b.layer, o.value(QStringLiteral("layer")).toInt());
            const bool mtp = o.value(QStringLiteral("block")).toString() == QStringLiteral("mtp");
            mtpLines += mtp ? 1 : 0;
            QCOMPARE(b.mtpIndex, mtp ? o.value(QStringLiteral("mtp_idx")).toInt() : -1);
            QVector<quint32> sums;
            for (const QJsonValue& mb : o.value(QStringLiteral("tpe")).toArray()) {
                const QJsonArray row = mb.toArray();
                sums.resize(row.size());
                for (qsizetype e = 0; e < row.size(); ++e)
                    sums[e] += quint32(row[e].toInteger());
            }
            QCOMPARE(b.tokensPerExpert, sums);
        }
        QVERIFY(mtpLines > 0);
        // Layer 0 of the decoder and of MTP blocks 0 and 1 share iteration 100.
        int layerZeroAt100 = 0;
        for (const auto& b : d.expertLoad)
            layerZeroAt100 += b.step == 100 && b.layer == 0 ? 1 : 0;
        QCOMPARE(layerZeroAt100, 3);
        QCOMPARE(d.environment.value(QStringLiteral("rank")).toInt(), 2); // from rank2.jsonl
        QCOMPARE(d.environment.value(QStringLiteral("mtp")).toBool(), true);
        QCOMPARE(d.environment.value(QStringLiteral("experts")).toInt(),
                 QJsonDocument::fromJson(lines[0]).object().value(QStringLiteral("tpe")).toArray()[0].toArray().size());
    }

    void olderFilesWithoutBlockAreDecoder() {
        auto r = importFile(fixture(QStringLiteral("tpe/tokens-per-expert-rank0.jsonl")));
        QVERIFY(r.hasValue());
        for (const auto& b : r->expertLoad)
            QCOMPARE(b.mtpIndex, -1);
        QCOMPARE(r->environment.value(QStringLiteral("mtp")).toBool(), false);
        QVERIFY(r->environment.contains(QStringLiteral("mtp")));
        QVERIFY(!r->environment.contains(QStringLiteral("rank"))); // not a rank{N}.jsonl name
    }

    void rankFromTheFileName() {
        const QByteArray text = "{\"iter\": 1, \"block\": \"decoder\", \"layer\": 0, \"tpe\": [[1, 2]]}\n";
        auto rankOf = [&](const QString& name) {
            auto r = MegatronTpeJsonlImporter::parse(text, name);
            return r->environment.contains(QStringLiteral("rank")) ? r->environment.value(QStringLiteral("rank")).toInt() : -1;
        };
        QCOMPARE(rankOf(QStringLiteral("/ckpt/run/tokens_per_expert/rank17.jsonl")), 17);
        QCOMPARE(rankOf(QStringLiteral("rank0.jsonl")), 0);
        QCOMPARE(rankOf(QStringLiteral("rank17.jsonl.bak")), -1);
        QCOMPARE(rankOf(QStringLiteral("xrank1.jsonl")), -1);
        QCOMPARE(rankOf(QStringLiteral("rank01.jsonl")), -1);
        QCOMPARE(rankOf(QStringLiteral("rank.jsonl")), -1);
        QCOMPARE(rankOf(QStringLiteral("rank99999999.jsonl")), -1);
        QCOMPARE(rankOfFileName(QStringLiteral("C:\\logs\\rank5.jsonl"), "rank", ".jsonl"), 5);
        // A "rank" key still works, and must agree with the file name when both are given.
        auto r = MegatronTpeJsonlImporter::parse("{\"iter\": 1, \"rank\": 4, \"layer\": 0, \"tpe\": [1, 2]}\n",
                                                 QStringLiteral("d/rank3.jsonl"));
        QVERIFY(!r.hasValue());
        QCOMPARE(r.error().text(), QStringLiteral("d/rank3.jsonl:1: rank: is 4 but the file name says rank 3"));
    }

    void mtpChecksAreLocated() {
        auto err = [](const char* text) {
            auto r = MegatronTpeJsonlImporter::parse(QByteArray(text), QStringLiteral("t.jsonl"));
            return r.hasValue() ? QString() : r.error().text();
        };
        QCOMPARE(err("{\"iter\": 1, \"block\": \"mtp\", \"layer\": 0, \"tpe\": [[1, 2]]}\n"),
                 QStringLiteral("t.jsonl:1: mtp_idx: is missing (block is \"mtp\")"));
        QVERIFY(err("{\"iter\": 1, \"mtp_idx\": 0, \"layer\": 0, \"tpe\": [[1, 2]]}\n")
                    .startsWith(QStringLiteral("t.jsonl:1: mtp_idx: is given but the block is \"decoder\"")));
        QCOMPARE(err("{\"iter\": 1, \"block\": \"Decoder\", \"layer\": 0, \"tpe\": [[1, 2]]}\n"),
                 QStringLiteral("t.jsonl:1: block: must be \"decoder\" or \"mtp\", not \"Decoder\""));
        QVERIFY(err("{\"iter\": 1, \"block\": 1, \"layer\": 0, \"tpe\": [[1, 2]]}\n").startsWith(QStringLiteral("t.jsonl:1: block: ")));
        QVERIFY(err("{\"iter\": 1, \"block\": \"mtp\", \"mtp_idx\": 64, \"layer\": 0, \"tpe\": [[1, 2]]}\n")
                    .startsWith(QStringLiteral("t.jsonl:1: mtp_idx: is absurd: 64")));
    }

    void aBlockAgainIsAResumeKeyedOnBlockAndMtpIndex() {
        // Within one iteration the key is (block, mtp_idx, layer), in or out of order: three
        // different blocks. The same key again begins a resumed run from that iteration.
        const QByteArray three = "{\"iter\": 1, \"block\": \"mtp\", \"mtp_idx\": 0, \"layer\": 0, \"tpe\": [[1, 2]]}\n"
                                 "{\"iter\": 1, \"block\": \"decoder\", \"layer\": 0, \"tpe\": [[1, 2]]}\n"
                                 "{\"iter\": 1, \"block\": \"mtp\", \"mtp_idx\": 1, \"layer\": 0, \"tpe\": [[1, 2]]}\n";
        auto r = MegatronTpeJsonlImporter::parse(three, QStringLiteral("t.jsonl"));
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : qPrintable(r.error().text()));
        QCOMPARE(r->expertLoad.size(), 3);
        QVERIFY(!r->environment.contains(QStringLiteral("resumes")));
        r = MegatronTpeJsonlImporter::parse(
            three + "{\"iter\": 1, \"block\": \"mtp\", \"mtp_idx\": 0, \"layer\": 0, \"tpe\": [[3, 4]]}\n",
            QStringLiteral("t.jsonl"));
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : qPrintable(r.error().text()));
        QCOMPARE(r->expertLoad.size(), 1);
        QCOMPARE(r->expertLoad[0].mtpIndex, 0);
        QCOMPARE(r->expertLoad[0].tokensPerExpert, (QVector<quint32>{3, 4}));
        QCOMPARE(r->environment.value(QStringLiteral("resumes")).toInt(), 1);
        QCOMPARE(r->environment.value(QStringLiteral("replaced_blocks")).toInt(), 3);
        // An earlier iteration: the later run's iteration 0 replaces everything from 0 on.
        r = MegatronTpeJsonlImporter::parse(three + "{\"iter\": 0, \"layer\": 0, \"tpe\": [[5, 6]]}\n",
                                            QStringLiteral("t.jsonl"));
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : qPrintable(r.error().text()));
        QCOMPARE(r->expertLoad.size(), 1);
        QCOMPARE(r->expertLoad[0].step, 0);
        QCOMPARE(r->expertLoad[0].tokensPerExpert, (QVector<quint32>{5, 6}));
    }

    void aResumedTrainingReplacesItsEarlierIterationsFromTheResumeOn() {
        // As save_tpe appends: run A saves iterations 10..50, dies; run B resumes from the
        // checkpoint of iteration 20 and saves 30, 40; run C resumes from 30 and saves 40, 50,
        // 60. Expected, worked out here from the runs: A's iterations before 30, B's before 40
        // and all of C's; A's 30, 40, 50 and B's 40 are dropped.
        struct Line {
            char run;
            int iter, mtp, layer; // mtp -1: decoder
        };
        auto counts = [](char run, int iter, int mtp, int layer) {
            QVector<quint32> c;
            for (int e = 0; e < 4; ++e)
                c << quint32((run - 'A' + 1) * 1000 + iter * 3 + (mtp + 1) * 100 + layer * 10 + e);
            return c;
        };
        QList<Line> lines;
        auto save = [&](char run, int iter) {
            for (int layer = 0; layer < 2; ++layer)
                lines << Line{run, iter, -1, layer};
            lines << Line{run, iter, 0, 0};
        };
        for (int it : {10, 20, 30, 40, 50})
            save('A', it);
        for (int it : {30, 40})
            save('B', it);
        for (int it : {40, 50, 60})
            save('C', it);
        QByteArray text;
        for (const Line& l : lines) {
            QJsonObject o{{QStringLiteral("iter"), l.iter}, {QStringLiteral("layer"), l.layer}};
            o.insert(QStringLiteral("block"), l.mtp < 0 ? QStringLiteral("decoder") : QStringLiteral("mtp"));
            if (l.mtp >= 0)
                o.insert(QStringLiteral("mtp_idx"), l.mtp);
            QJsonArray tpe;
            for (quint32 v : counts(l.run, l.iter, l.mtp, l.layer))
                tpe.append(qint64(v));
            o.insert(QStringLiteral("tpe"), QJsonArray{tpe});
            text += QJsonDocument(o).toJson(QJsonDocument::Compact) + '\n';
        }
        auto r = MegatronTpeJsonlImporter::parse(text, QStringLiteral("rank0.jsonl"));
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : qPrintable(r.error().text()));
        QList<Line> expected;
        for (const Line& l : lines)
            if ((l.run == 'A' && l.iter < 30) || (l.run == 'B' && l.iter < 40) || l.run == 'C')
                expected << l;
        QCOMPARE(r->expertLoad.size(), expected.size());
        for (qsizetype i = 0; i < expected.size(); ++i) {
            const Line& l = expected[i];
            QCOMPARE(r->expertLoad[i].step, qint64(l.iter));
            QCOMPARE(r->expertLoad[i].layer, l.layer);
            QCOMPARE(r->expertLoad[i].mtpIndex, l.mtp);
            QCOMPARE(r->expertLoad[i].tokensPerExpert, counts(l.run, l.iter, l.mtp, l.layer));
        }
        QCOMPARE(r->rows, qint64(lines.size())); // every line read
        QCOMPARE(r->environment.value(QStringLiteral("resumes")).toInt(), 2);
        QCOMPARE(r->environment.value(QStringLiteral("resumed_from_steps")).toArray(), (QJsonArray{30, 40}));
        QCOMPARE(r->environment.value(QStringLiteral("replaced_blocks")).toInt(), int(lines.size() - expected.size()));
    }

    void genericJsonlExpertLoadIgnoresBlockKeys() {
        // The shared fast path reads block/mtp_idx for Megatron files only: the generic
        // format skips them as unknown keys, as before.
        auto r = importBytes("{\"step\": 1, \"layer\": 0, \"block\": \"mtp\", \"tokens\": [1, 2]}\n"
                             "{\"step\": 1, \"layer\": 1, \"mtp_idx\": 5, \"tokens\": [1, 2]}\n",
                             QStringLiteral("rank3.jsonl"), QStringLiteral("jsonl-expert-load"));
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : qPrintable(r.error().text()));
        QCOMPARE(r->expertLoad[0].mtpIndex, -1);
        QCOMPARE(r->expertLoad[1].mtpIndex, -1);
        QVERIFY(!r->environment.contains(QStringLiteral("mtp")));
        QVERIFY(!r->environment.contains(QStringLiteral("rank")));
        auto dup = importBytes("{\"step\": 1, \"layer\": 0, \"mtp_idx\": 0, \"tokens\": [1, 2]}\n"
                               "{\"step\": 1, \"layer\": 0, \"mtp_idx\": 1, \"tokens\": [1, 2]}\n",
                               QStringLiteral("g.jsonl"), QStringLiteral("jsonl-expert-load"));
        QVERIFY(!dup.hasValue());
        QCOMPARE(dup.error().field, QStringLiteral("step"));
    }

    MOEWB_IMPORTER_CORPUS_TESTS("megatron-tpe-jsonl", MegatronTpeJsonlImporter)
};

QTEST_GUILESS_MAIN(TestMegatronTpeJsonlImporter)
#include "test_megatron_tpe_jsonl_importer.moc"
