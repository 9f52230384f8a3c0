// planImport reads an expert-load JSONL file (jsonl-expert-load, megatron-tpe-jsonl) in
// blocks instead of whole: the format found from its first 64 KiB or given, the counts
// and the errors (file, line, field) as the whole-file importers give them. Expected
// counts are the ones this test wrote. A lone file is only scanned by the plan and its
// counts read at save (StreamedExpertLoad): they are checked as a real project stores them.
#include "runimport/RunImport.h"
#include "store/ProjectStore.h"

#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QtTest>

using namespace moewb;

namespace {

struct Written {
    QString path;
    QList<QVector<quint32>> counts; // by step, then layer
};

// steps × layers lines of `experts` counts; keys as the format names them.
Written writeFile(const QString& dir, const QString& name, bool tpe, int steps, int layers, int experts,
                  const QByteArray& lastLine = {}) {
    Written w;
    w.path = dir + QLatin1Char('/') + name;
    QFile f(w.path);
    if (!f.open(QIODevice::WriteOnly))
        qFatal("cannot write %s", qPrintable(w.path));
    QRandomGenerator rng(quint32(steps * 31 + experts));
    for (int s = 1; s <= steps; ++s)
        for (int l = 0; l < layers; ++l) {
            QVector<quint32> row;
            QByteArray line = tpe ? "{\"iter\": " + QByteArray::number(s) + ", \"layer\": " + QByteArray::number(l) + ", \"tpe\": ["
                                  : "{\"step\": " + QByteArray::number(s) + ", \"layer\": " + QByteArray::number(l) + ", \"tokens\": [";
            for (int e = 0; e < experts; ++e) {
                row << quint32(rng.bounded(1000000));
                line += (e ? "," : "") + QByteArray::number(row.last());
            }
            line += "]}\n";
            f.write(line);
            w.counts << row;
        }
    f.write(lastLine);
    return w;
}

Expected<runimport::ImportPlan, QList<importers::ImportError>> plan(const QString& path, const QString& format = {}) {
    runimport::ImportOptions options;
    options.format = format;
    auto files = runimport::collectImportFiles({path}, options);
    if (!files)
        return unexpected(QList<importers::ImportError>{files.error()});
    return runimport::planImport(*files, std::nullopt, options);
}

} // namespace

class TestPlanImportBlocks : public QObject {
    Q_OBJECT
private slots:
    void countsAsWritten_data() {
        QTest::addColumn<bool>("tpe");
        QTest::addColumn<QString>("format");
        QTest::newRow("jsonl-expert-load, detected") << false << QString();
        QTest::newRow("jsonl-expert-load, given") << false << QStringLiteral("jsonl-expert-load");
        QTest::newRow("megatron-tpe-jsonl, detected") << true << QString();
        QTest::newRow("megatron-tpe-jsonl, given") << true << QStringLiteral("megatron-tpe-jsonl");
    }
    void countsAsWritten() {
        QFETCH(bool, tpe);
        QFETCH(QString, format);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        // 40 × 4 lines of 512 counts: about 0.9 MB, past detection's 64 KiB head.
        const Written w = writeFile(dir.path(), tpe ? QStringLiteral("rank0.jsonl") : QStringLiteral("load.jsonl"), tpe,
                                    40, 4, 512);
        QVERIFY(QFileInfo(w.path).size() > (1 << 16));
        auto p = plan(w.path, format);
        QVERIFY2(p.hasValue(), p.hasValue() ? "" : qPrintable(p.error().first().text()));
        QCOMPARE(p->files.size(), 1);
        QCOMPARE(p->files.first().format, tpe ? QStringLiteral("megatron-tpe-jsonl") : QStringLiteral("jsonl-expert-load"));
        QVERIFY(p->streamedLoad.has_value());
        QCOMPARE(p->expertLoadRows(), w.counts.size());
        QCOMPARE(p->expertLoadWidth(), 512);
        auto opened = store::ProjectStore::open(dir.filePath(QStringLiteral("p.moewb")));
        QVERIFY(opened);
        store::ProjectStore& project = **opened;
        QVERIFY(project.addConfigRecord(QStringLiteral("rec"), QJsonObject{{"top_k", 2}}, true));
        const auto id = project.saveRun(runimport::toRunData(std::move(*p), QStringLiteral("r"), QStringLiteral("rec")));
        QVERIFY2(id, id ? "" : qPrintable(id.error().text()));
        const QVector<store::ExpertLoadBlock> back = project.expertLoad(*id);
        QCOMPARE(back.size(), w.counts.size());
        for (qsizetype i = 0; i < w.counts.size(); ++i) {
            QCOMPARE(back[i].step, i / 4 + 1);
            QCOMPARE(back[i].layer, int(i % 4));
            QCOMPARE(back[i].tokensPerExpert, w.counts[i]);
        }
    }

    void errorsNameFileLineAndField() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const Written w = writeFile(dir.path(), QStringLiteral("load.jsonl"), false, 40, 4, 512,
                                    "{\"step\": 41, \"layer\": 0, \"tokens\": [1, 2.5]}\n");
        auto p = plan(w.path);
        QVERIFY(!p.hasValue());
        const QString text = p.error().first().text();
        QVERIFY2(text.contains(QStringLiteral("load.jsonl:161: tokens: ")), qPrintable(text));
        // A line cut by the end of the file (no newline, mid-array) is refused the same way.
        const Written cut = writeFile(dir.path(), QStringLiteral("cut.jsonl"), false, 40, 4, 512,
                                      "{\"step\": 41, \"layer\": 0, \"tokens\": [1, 2");
        auto q = plan(cut.path);
        QVERIFY(!q.hasValue());
        QVERIFY2(q.error().first().text().contains(QStringLiteral("cut.jsonl:161: ")) &&
                     q.error().first().text().contains(QStringLiteral("truncated")),
                 qPrintable(q.error().first().text()));
    }
};

QTEST_GUILESS_MAIN(TestPlanImportBlocks)
#include "test_plan_import_blocks.moc"
