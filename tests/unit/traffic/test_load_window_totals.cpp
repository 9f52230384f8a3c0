// A run's expert load summed over a window of steps, read from the project
// (traffic::sumLoadWindow(project, run, window) → ProjectStore::expertLoadTotals: the
// chunks inside the window from their stored totals, the chunks its edges cut
// decoded), against a brute-force sum over the rows the test wrote, for windows that
// are aligned with the chunks, cut inside one, one step, empty, past the end, open at
// either side; on consecutive and on gapped steps, layers that log different steps,
// counts near 2^32, and a layer whose width changes. Only the cut chunks are decoded.
#include "store/ProjectStore.h"
#include "traffic/LoadWindow.h"

#include <QJsonObject>
#include <QMap>
#include <QSet>
#include <QTemporaryDir>
#include <QtTest>

#include <atomic>

using namespace moewb;
using store::ExpertLoadBlock;
using store::ProjectStore;
using traffic::StepWindow;

namespace {

// Deterministic counts with a drift, a hot expert per layer and values near 2^32.
quint32 tokensAt(qint64 step, int layer, int expert) {
    if (layer == 2 && expert == 5 && step % 97 == 0)
        return 4294967295u - quint32(step % 13);
    const quint64 base = quint64(step * 131 + layer * 977 + expert * 7919) % 1000;
    return quint32(base + (expert == layer ? 20000 + step % 50 : 0));
}

// The brute-force sum: the rows the test wrote, filtered by the window.
struct Want {
    int experts = 0;
    qint64 firstStep = 0, lastStep = 0, steps = 0;
    QMap<int, std::vector<double>> perLayer;
};
Want bruteForce(const QVector<ExpertLoadBlock>& rows, const StepWindow& w) {
    Want out;
    QSet<qint64> steps;
    for (const ExpertLoadBlock& b : rows) {
        if ((w.first && b.step < *w.first) || (w.last && b.step > *w.last))
            continue;
        out.experts = int(b.tokensPerExpert.size());
        std::vector<double>& row = out.perLayer[b.layer];
        row.resize(std::size_t(b.tokensPerExpert.size()), 0.0);
        for (int e = 0; e < b.tokensPerExpert.size(); ++e)
            row[std::size_t(e)] += double(b.tokensPerExpert[e]);
        steps.insert(b.step);
    }
    out.steps = steps.size();
    if (!steps.isEmpty()) {
        out.firstStep = *std::min_element(steps.cbegin(), steps.cend());
        out.lastStep = *std::max_element(steps.cbegin(), steps.cend());
    }
    return out;
}

QString label(const StepWindow& w) {
    return QStringLiteral("%1-%2").arg(w.first ? QString::number(*w.first) : QString(),
                                       w.last ? QString::number(*w.last) : QString());
}

} // namespace

class TestLoadWindowTotals : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    std::unique_ptr<ProjectStore> m_store;

    // Saves a run (one transaction, through the store's sink) and returns its id.
    qint64 save(const QString& name, const QVector<ExpertLoadBlock>& rows) {
        store::RunData run;
        run.name = name;
        run.kind = store::RunKind::Imported;
        run.recordName = QStringLiteral("rec");
        run.expertLoad = rows;
        const auto id = m_store->saveRun(run);
        if (!id)
            qWarning("%s", qPrintable(id.error().text()));
        return id ? *id : -1;
    }

    // The reader against the brute force, and against summing the decoded blocks.
    void compare(qint64 runId, const QVector<ExpertLoadBlock>& rows, const StepWindow& w) {
        const Want want = bruteForce(rows, w);
        const auto got = traffic::sumLoadWindow(*m_store, runId, w);
        const auto old = traffic::sumLoadWindow(m_store->expertLoadRange(runId, w.first, w.last), w);
        const QString where = QStringLiteral("window %1").arg(label(w));
        if (want.perLayer.isEmpty()) {
            QVERIFY2(!got, qPrintable(where + QStringLiteral(": load found in an empty window")));
            QCOMPARE(got.error(), QStringLiteral("no expert load in the chosen steps"));
            QVERIFY(!old);
            return;
        }
        QVERIFY2(got, qPrintable(where + QStringLiteral(": ") + (got ? QString() : got.error())));
        QVERIFY2(got->experts == want.experts, qPrintable(where));
        QVERIFY2(got->steps == want.steps,
                 qPrintable(where + QStringLiteral(": %1 steps, want %2").arg(got->steps).arg(want.steps)));
        QVERIFY2(got->firstStep == want.firstStep && got->lastStep == want.lastStep,
                 qPrintable(where + QStringLiteral(": steps %1-%2").arg(got->firstStep).arg(got->lastStep)));
        QVERIFY2(got->perLayer == want.perLayer, qPrintable(where + QStringLiteral(": sums differ")));
        // The same as the blocks' sum (what the callers computed before), bit for bit.
        QVERIFY(old);
        QVERIFY2(got->perLayer == old->perLayer && got->steps == old->steps && got->firstStep == old->firstStep &&
                     got->lastStep == old->lastStep && got->experts == old->experts,
                 qPrintable(where + QStringLiteral(": differs from the blocks' sum")));
    }

private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        auto opened = ProjectStore::open(m_dir.filePath(QStringLiteral("totals.moewb")));
        QVERIFY2(opened, qPrintable(opened ? QString() : opened.error().text()));
        m_store = std::move(*opened);
        QVERIFY(m_store->addConfigRecord(QStringLiteral("rec"), QJsonObject{{"experts", 16}}, true));
    }

    // Steps 0..599 of three layers × 16 experts: chunks 0-255, 256-511, 512-599 per layer.
    void consecutiveSteps() {
        QVector<ExpertLoadBlock> rows;
        for (qint64 step = 0; step < 600; ++step)
            for (int layer = 0; layer < 3; ++layer) {
                QVector<quint32> t(16);
                for (int e = 0; e < 16; ++e)
                    t[e] = tokensAt(step, layer, e);
                rows.append({step, layer, t});
            }
        const qint64 id = save(QStringLiteral("consecutive"), rows);
        QVERIFY(id > 0);
        const StepWindow windows[] = {
            {},                        // all
            {0, 255},                  // one whole chunk
            {256, 599},                // whole chunks to the end
            {100, 300},                // cut inside two chunks
            {255, 256},                // the two sides of a chunk boundary
            {10, 20},                  // inside one chunk
            {300, 300},                // one step
            {{}, 511},                 // open start, aligned end
            {257, {}},                 // open end, cut start
            {599, 10000},              // the last step and past the end
            {600, 10000},              // past the end: empty
            {-50, -1},                 // before the start: empty
        };
        for (const StepWindow& w : windows)
            compare(id, rows, w);

        // Only the chunks the window's edges cut are decoded: none for whole chunks,
        // one per layer and cut edge otherwise.
        qint64 before = ProjectStore::expertLoadChunksDecoded();
        QVERIFY(traffic::sumLoadWindow(*m_store, id, StepWindow{}));
        QCOMPARE(ProjectStore::expertLoadChunksDecoded() - before, 0);
        before = ProjectStore::expertLoadChunksDecoded();
        QVERIFY(traffic::sumLoadWindow(*m_store, id, StepWindow{0, 511}));
        QCOMPARE(ProjectStore::expertLoadChunksDecoded() - before, 0);
        before = ProjectStore::expertLoadChunksDecoded();
        QVERIFY(traffic::sumLoadWindow(*m_store, id, StepWindow{100, 300}));
        QCOMPARE(ProjectStore::expertLoadChunksDecoded() - before, 6);
        before = ProjectStore::expertLoadChunksDecoded();
        QVERIFY(traffic::sumLoadWindow(*m_store, id, StepWindow{10, 20}));
        QCOMPARE(ProjectStore::expertLoadChunksDecoded() - before, 3);

        // Cancelled before it starts: nothing read, an error back.
        std::atomic<bool> cancel{true};
        before = ProjectStore::expertLoadChunksDecoded();
        QVERIFY(!traffic::sumLoadWindow(*m_store, id, StepWindow{100, 300}, &cancel));
        QCOMPARE(ProjectStore::expertLoadChunksDecoded() - before, 0);
        QVERIFY(m_store->expertLoadTotals(id, {}, {}, &cancel).perLayer.isEmpty());
    }

    // Every 7th step in layer 0, every 5th from step 1000 in layer 1: chunks that are not
    // consecutive steps, and layers whose steps differ (the window's steps are their union).
    void gappedStepsAndLayersOfDifferentSteps() {
        QVector<ExpertLoadBlock> rows;
        for (qint64 step = 0; step < 4000; ++step) {
            for (int layer = 0; layer < 2; ++layer) {
                if (layer == 0 ? step % 7 != 0 : (step < 1000 || step % 5 != 0))
                    continue;
                QVector<quint32> t(8);
                for (int e = 0; e < 8; ++e)
                    t[e] = tokensAt(step, layer + 1, e);
                rows.append({step, layer, t});
            }
        }
        const qint64 id = save(QStringLiteral("gapped"), rows);
        QVERIFY(id > 0);
        const StepWindow windows[] = {{},          {0, 1791},   {1792, 3583}, {500, 2500}, {1000, 1000},
                                      {1001, 1004}, {995, 1010}, {3990, 9999}, {{}, 6},    {3999, {}}};
        for (const StepWindow& w : windows)
            compare(id, rows, w);
    }

    // `import --into` replaces a run's measurements in place (replaceRun): the totals
    // are those of the new rows only, also where a chunk of the old rows had no
    // counterpart (the new rows start later and end earlier).
    void replacedRunSumsItsNewRows() {
        QVector<ExpertLoadBlock> oldRows, newRows;
        for (qint64 step = 0; step < 700; ++step)
            oldRows.append({step, 0, QVector<quint32>(4, 1000)});
        for (qint64 step = 100; step < 400; ++step)
            newRows.append({step, 0, {quint32(step), 1, 2, 3}});
        const qint64 id = save(QStringLiteral("replaced"), oldRows);
        QVERIFY(id > 0);
        store::RunData run;
        run.name = QStringLiteral("replaced");
        run.kind = store::RunKind::Imported;
        run.recordName = QStringLiteral("rec");
        run.expertLoad = newRows;
        const auto replaced = m_store->replaceRun(run);
        QVERIFY2(replaced, qPrintable(replaced ? QString() : replaced.error().text()));
        QCOMPARE(*replaced, id);
        for (const StepWindow& w : {StepWindow{}, StepWindow{0, 355}, StepWindow{356, 699}, StepWindow{390, 600}})
            compare(id, newRows, w);
    }

    // A layer whose expert count changes: the error names the first block that differs,
    // as the sum of the blocks does.
    void aLayerOfAnotherWidth() {
        QVector<ExpertLoadBlock> rows;
        for (qint64 step = 0; step < 300; ++step) {
            rows.append({step, 0, QVector<quint32>(4, quint32(step))});
            rows.append({step, 1, QVector<quint32>(step < 280 ? 4 : 6, 1)});
        }
        const qint64 id = save(QStringLiteral("widths"), rows);
        QVERIFY(id > 0);
        const auto got = traffic::sumLoadWindow(*m_store, id, StepWindow{});
        QVERIFY(!got);
        QCOMPARE(got.error(), QStringLiteral("step 280, layer 1 has 6 experts, earlier blocks 4"));
        // A window before the change sums as usual.
        compare(id, rows, StepWindow{0, 279});
        compare(id, rows, StepWindow{100, 279});
        // A window after the change: layer 0 has 4 experts, layer 1 six.
        const auto after = traffic::sumLoadWindow(*m_store, id, StepWindow{285, 290});
        QVERIFY(!after);
        QCOMPARE(after.error(), QStringLiteral("step 285, layer 1 has 6 experts, earlier blocks 4"));
    }
};

QTEST_GUILESS_MAIN(TestLoadWindowTotals)
#include "test_load_window_totals.moc"
