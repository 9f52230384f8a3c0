// A lone expert-load JSONL file is planned from a scan of its structure and its counts
// are read at save, straight into a real SQLite project (RunImport.h,
// StreamedExpertLoad). Every expected figure comes from the rows this test wrote
// (brute-force sums over them), and the streamed run is compared row by row with the
// same file imported the in-memory way (the importer's counts saved as RunData::expertLoad).
#include "importers/MegatronTpeJsonlImporter.h"
#include "runimport/RunImport.h"
#include "store/ProjectStore.h"

#include <QFile>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QtTest>

#include <map>

using namespace moewb;
using store::ExpertLoadBlock;
using store::ProjectStore;

namespace {

using Key = std::pair<qint64, int>; // (step, layer)
using Rows = std::map<Key, QVector<quint32>>;

// One Megatron tokens-per-expert line; counts nested ([[micro-batch], ...]) when
// microBatches > 1, `extra` spliced in before the counts.
QByteArray tpeLine(qint64 iter, int layer, const QList<QVector<quint32>>& microBatches, const QByteArray& extra = {}) {
    QByteArray line = "{\"iter\": " + QByteArray::number(iter) + ", \"block\": \"decoder\", \"layer\": " +
                      QByteArray::number(layer) + ", " + extra + "\"tpe\": [";
    for (qsizetype m = 0; m < microBatches.size(); ++m) {
        line += m ? ", [" : "[";
        for (qsizetype e = 0; e < microBatches[m].size(); ++e)
            line += (e ? ", " : "") + QByteArray::number(microBatches[m][e]);
        line += "]";
    }
    return line + "]}\n";
}

struct Writer {
    QFile file;
    QRandomGenerator rng{20261204};
    int experts = 16;
    Rows expected; // what a reader must keep: the sum over micro-batches, the last write of a (step, layer)
    qint64 lines = 0;

    explicit Writer(const QString& path) : file(path) {
        if (!file.open(QIODevice::WriteOnly))
            qFatal("cannot write %s", qPrintable(path));
    }
    // One (iter, layer) with two micro-batches; a hot expert per layer.
    void row(qint64 iter, int layer) {
        QList<QVector<quint32>> mb(2, QVector<quint32>(experts));
        QVector<quint32> sum(experts);
        for (int m = 0; m < 2; ++m)
            for (int e = 0; e < experts; ++e) {
                mb[m][e] = quint32(rng.bounded(5000)) + (e == layer % experts ? 40000u : 0u);
                sum[e] += mb[m][e];
            }
        file.write(tpeLine(iter, layer, mb));
        ++lines;
        expected[{iter, layer}] = sum;
    }
    // A resumed training: its lines supersede every kept row from `iter` on.
    void resumeAt(qint64 iter) {
        for (auto it = expected.lower_bound({iter, INT_MIN}); it != expected.end();)
            it = expected.erase(it);
    }
    void raw(const QByteArray& line) {
        file.write(line);
        ++lines;
    }
    void close() { file.close(); }
};

std::unique_ptr<ProjectStore> openProject(const QString& path) {
    auto opened = ProjectStore::open(path);
    if (!opened)
        return nullptr;
    auto s = std::move(*opened);
    if (!s->addConfigRecord(QStringLiteral("rec"), QJsonObject{{"top_k", 2}}, true))
        return nullptr;
    return s;
}

Expected<runimport::ImportPlan, QList<importers::ImportError>> planFile(const QString& path) {
    runimport::ImportOptions options;
    auto files = runimport::collectImportFiles({path}, options);
    if (!files)
        return unexpected(QList<importers::ImportError>{files.error()});
    return runimport::planImport(*files, std::nullopt, options);
}

QString errorsText(const QList<importers::ImportError>& errors) {
    QStringList lines;
    for (const auto& e : errors)
        lines << e.text();
    return lines.join(QLatin1Char('\n'));
}

} // namespace

class TestStreamedImport : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    int m_n = 0;
    QString fresh(const QString& suffix) { return m_dir.filePath(QStringLiteral("f%1%2").arg(++m_n).arg(suffix)); }

    // The stored rows of a run, checked against `expected` (counts, then the summary
    // recomputed here from the counts written).
    void compareStored(ProjectStore& s, qint64 runId, const Rows& expected) {
        const QVector<ExpertLoadBlock> back = s.expertLoad(runId);
        QCOMPARE(back.size(), qsizetype(expected.size()));
        auto it = expected.begin();
        for (const ExpertLoadBlock& b : back) {
            QCOMPARE(b.step, it->first.first);
            QCOMPARE(b.layer, it->first.second);
            QCOMPARE(b.tokensPerExpert, it->second);
            ++it;
        }
        const auto summary = s.expertLoadSummary(runId);
        QCOMPARE(summary.size(), qsizetype(expected.size()));
        for (const store::ExpertLoadSummaryRow& r : summary) {
            const auto found = expected.find({r.step, r.layer});
            QVERIFY(found != expected.end());
            quint64 sum = 0;
            quint32 max = 0;
            int argmax = 0;
            for (int e = 0; e < found->second.size(); ++e) {
                sum += found->second[e];
                if (found->second[e] > max)
                    max = found->second[e], argmax = e;
            }
            QCOMPARE(r.sum, sum);
            QCOMPARE(r.max, max);
            QCOMPARE(r.argmax, argmax);
            QCOMPARE(r.experts, int(found->second.size()));
        }
    }

private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        qputenv("XDG_DATA_HOME", m_dir.filePath(QStringLiteral("xdg")).toUtf8());
    }

    // The same file through both paths: the same rows, counts and summary, row by row.
    void streamedStoresWhatInMemoryStores() {
        const QString path = fresh(QStringLiteral(".jsonl"));
        Writer w(path);
        for (qint64 iter = 1; iter <= 300; ++iter)
            for (int layer = 0; layer < 3; ++layer)
                w.row(iter, layer);
        w.close();

        auto plan = planFile(path);
        QVERIFY2(plan, plan ? "" : qPrintable(errorsText(plan.error())));
        QVERIFY(plan->streamedLoad.has_value());
        QVERIFY(plan->expertLoad.isEmpty());
        QCOMPARE(plan->expertLoadRows(), 900);
        QCOMPARE(plan->expertLoadWidth(), 16);
        QCOMPARE(plan->files.first().rows, 900);
        QCOMPARE(plan->files.first().expertLoadBlocks, 900);
        QCOMPARE(plan->environment.value(QLatin1String("experts")).toInt(), 16);

        auto s = openProject(fresh(QStringLiteral(".moewb")));
        QVERIFY(s);
        store::RunData streamed = runimport::toRunData(std::move(*plan), QStringLiteral("streamed"), QStringLiteral("rec"));
        QVERIFY(streamed.expertLoadStream);
        const auto streamedId = s->saveRun(streamed);
        QVERIFY2(streamedId, streamedId ? "" : qPrintable(streamedId.error().text()));
        QCOMPARE(s->run(QStringLiteral("streamed"))->expertLoadBlocks, 900);

        // The in-memory way: the importer's counts, saved as they are.
        auto whole = importers::MegatronTpeJsonlImporter::importFile(path);
        QVERIFY(whole);
        store::RunData inMemory;
        inMemory.name = QStringLiteral("in-memory");
        inMemory.recordName = QStringLiteral("rec");
        inMemory.expertLoad = whole->expertLoad;
        const auto memoryId = s->saveRun(inMemory);
        QVERIFY(memoryId);

        compareStored(*s, *streamedId, w.expected);
        compareStored(*s, *memoryId, w.expected);
        const auto a = s->expertLoad(*streamedId), b = s->expertLoad(*memoryId);
        for (qsizetype i = 0; i < a.size(); ++i)
            QVERIFY(a[i].step == b[i].step && a[i].layer == b[i].layer && a[i].tokensPerExpert == b[i].tokensPerExpert);
        const auto sa = s->expertLoadSummary(*streamedId), sb = s->expertLoadSummary(*memoryId);
        QCOMPARE(sa.size(), sb.size());
        for (qsizetype i = 0; i < sa.size(); ++i)
            QVERIFY(sa[i].step == sb[i].step && sa[i].layer == sb[i].layer && sa[i].sum == sb[i].sum &&
                    sa[i].max == sb[i].max && sa[i].argmax == sb[i].argmax);
    }

    // Three trainings appended to one file (Megatron's save_tpe appends): each resume
    // supersedes the earlier lines from its iteration on; only the survivors are stored.
    void megatronResumesInAStreamedFile() {
        const QString path = fresh(QStringLiteral(".jsonl"));
        Writer w(path);
        for (qint64 iter = 1; iter <= 10; ++iter)
            for (int layer = 0; layer < 3; ++layer)
                w.row(iter, layer);
        w.resumeAt(6);
        for (qint64 iter = 6; iter <= 15; ++iter)
            for (int layer = 0; layer < 3; ++layer)
                w.row(iter, layer);
        w.resumeAt(12);
        for (qint64 iter = 12; iter <= 20; ++iter)
            for (int layer = 0; layer < 3; ++layer)
                w.row(iter, layer);
        w.close();
        QCOMPARE(w.expected.size(), size_t(60));

        auto plan = planFile(path);
        QVERIFY2(plan, plan ? "" : qPrintable(errorsText(plan.error())));
        QVERIFY(plan->streamedLoad.has_value());
        QCOMPARE(plan->expertLoadRows(), 60);
        QCOMPARE(plan->files.first().rows, w.lines);
        QCOMPARE(plan->environment.value(QLatin1String("resumes")).toInt(), 2);
        QCOMPARE(plan->environment.value(QLatin1String("replaced_blocks")).toInt(), 5 * 3 + 4 * 3);

        auto s = openProject(fresh(QStringLiteral(".moewb")));
        QVERIFY(s);
        const auto id = s->saveRun(runimport::toRunData(std::move(*plan), QStringLiteral("resumed"), QStringLiteral("rec")));
        QVERIFY2(id, id ? "" : qPrintable(id.error().text()));
        compareStored(*s, *id, w.expected);
    }

    // A count the scan cannot judge (over 2^32 - 1) on a late line: the plan stands, the
    // save fails naming file:line:field, and the project holds no part of the run.
    void errorFoundAtSaveLeavesNothing() {
        const QString path = fresh(QStringLiteral(".jsonl"));
        Writer w(path);
        for (qint64 iter = 1; iter <= 400; ++iter)
            for (int layer = 0; layer < 3; ++layer)
                w.row(iter, layer);
        QList<QVector<quint32>> mb{QVector<quint32>(16, 7)};
        QByteArray bad = tpeLine(401, 0, mb);
        bad.replace("[[7, ", "[[99999999999, ");
        w.raw(bad);
        w.close();
        const qint64 badLine = w.lines;

        auto plan = planFile(path);
        QVERIFY2(plan, plan ? "" : qPrintable(errorsText(plan.error())));
        auto s = openProject(fresh(QStringLiteral(".moewb")));
        QVERIFY(s);
        const auto id = s->saveRun(runimport::toRunData(std::move(*plan), QStringLiteral("late"), QStringLiteral("rec")));
        QVERIFY(!id);
        const QString text = id.error().text();
        QVERIFY2(text.contains(QStringLiteral("%1:%2: tpe: ").arg(QFileInfo(path).fileName()).arg(badLine)) &&
                     text.contains(QStringLiteral("99999999999")),
                 qPrintable(text));
        QVERIFY(s->runs().isEmpty());
        QVERIFY(!s->run(QStringLiteral("late")));
    }

    // The file rewritten between the plan and the save is refused (size and time).
    void fileChangedSincePlanIsRefused() {
        const QString path = fresh(QStringLiteral(".jsonl"));
        Writer w(path);
        for (qint64 iter = 1; iter <= 50; ++iter)
            for (int layer = 0; layer < 3; ++layer)
                w.row(iter, layer);
        w.close();
        auto plan = planFile(path);
        QVERIFY2(plan, plan ? "" : qPrintable(errorsText(plan.error())));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::Append));
            f.write(tpeLine(51, 0, {QVector<quint32>(16, 1)}));
        }
        auto s = openProject(fresh(QStringLiteral(".moewb")));
        QVERIFY(s);
        const auto id = s->saveRun(runimport::toRunData(std::move(*plan), QStringLiteral("changed"), QStringLiteral("rec")));
        QVERIFY(!id);
        QVERIFY2(id.error().text().contains(QStringLiteral("has changed since the import was planned")),
                 qPrintable(id.error().text()));
        QVERIFY(s->runs().isEmpty());
    }

    // Cancelled through the save's progress in the middle of the stream: nothing stored.
    void cancelMidStreamLeavesNothing() {
        const QString path = fresh(QStringLiteral(".jsonl"));
        Writer w(path);
        w.experts = 8;
        for (qint64 iter = 1; iter <= 4000; ++iter)
            for (int layer = 0; layer < 4; ++layer)
                w.row(iter, layer);
        w.close();
        auto plan = planFile(path);
        QVERIFY2(plan, plan ? "" : qPrintable(errorsText(plan.error())));
        auto s = openProject(fresh(QStringLiteral(".moewb")));
        QVERIFY(s);
        double seen = 0;
        int calls = 0;
        const auto id = s->saveRun(runimport::toRunData(std::move(*plan), QStringLiteral("cancelled"), QStringLiteral("rec")),
                                   [&](double f) {
                                       ++calls;
                                       seen = std::max(seen, f);
                                       return f < 0.5;
                                   });
        QVERIFY(!id);
        QVERIFY2(id.error().text().contains(QStringLiteral("cancelled")), qPrintable(id.error().text()));
        QVERIFY2(seen >= 0.5 && seen < 0.6, qPrintable(QString::number(seen))); // stopped mid-stream, not at the end
        QVERIFY(calls > 2);
        QVERIFY(s->runs().isEmpty());
        // The project is whole and writable: the same file stores in full afterwards.
        auto again = planFile(path);
        QVERIFY(again);
        const auto id2 = s->saveRun(runimport::toRunData(std::move(*again), QStringLiteral("whole"), QStringLiteral("rec")));
        QVERIFY2(id2, id2 ? "" : qPrintable(id2.error().text()));
        QCOMPARE(s->run(QStringLiteral("whole"))->expertLoadBlocks, 16000);
    }

    // --into a stored run reads the streamed file whole and merges it as before.
    void intoAStoredRunMerges() {
        const QString path = fresh(QStringLiteral(".jsonl"));
        Writer w(path);
        for (qint64 iter = 1; iter <= 20; ++iter)
            for (int layer = 0; layer < 2; ++layer)
                w.row(iter, layer);
        w.close();
        auto s = openProject(fresh(QStringLiteral(".moewb")));
        QVERIFY(s);
        store::RunData base;
        base.name = QStringLiteral("base");
        base.recordName = QStringLiteral("rec");
        base.stepMetrics << store::StepMetric{1, QStringLiteral("lm_loss"), 2.5};
        QVERIFY(s->saveRun(base));
        auto plan = planFile(path);
        QVERIFY(plan && plan->streamedLoad);
        auto merged = runimport::mergeInto(*s, *s->run(QStringLiteral("base")), std::move(*plan));
        QVERIFY2(merged, merged ? "" : qPrintable(errorsText(merged.error())));
        QCOMPARE(merged->expertLoad.size(), qsizetype(w.expected.size()));
        const auto id = s->replaceRun(*merged);
        QVERIFY2(id, id ? "" : qPrintable(id.error().text()));
        compareStored(*s, *id, w.expected);
    }
};

QTEST_GUILESS_MAIN(TestStreamedImport)
#include "test_streamed_import.moc"
