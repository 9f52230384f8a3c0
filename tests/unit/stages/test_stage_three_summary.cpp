// Stage 3 reads the store's per-(step, layer) summary (schema 5) instead of the counts:
// on the demo project the verdict and every figure of every run are exactly those the
// gate computes from the counts themselves; the CLI's form (ExpertLoadCounts::Window)
// reads only the window's counts; a record whose EP size changed after the import
// falls back to the window's counts for the busiest-rank share.
#include "demo/DemoProject.h"
#include "stages/StageInputs.h"
#include "stages/StageThreeGate.h"
#include "store/ProjectStore.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace moewb;
using namespace moewb::stages;

namespace {

bool same(double a, double b) {
    return a == b || (std::isnan(a) && std::isnan(b));
}

// Every figure of two run summaries; empty when identical.
QString difference(const StageThreeRunSummary& a, const StageThreeRunSummary& b) {
    auto opt = [](const std::optional<double>& x) { return x ? QString::number(*x, 'g', 17) : QStringLiteral("-"); };
    QStringList d;
    if (a.runName != b.runName || a.experts != b.experts || a.layers != b.layers || a.stepsWithLoad != b.stepsWithLoad ||
        a.windowSteps != b.windowSteps || a.windowFirstStep != b.windowFirstStep || a.windowLastStep != b.windowLastStep)
        d << QStringLiteral("shape");
    if (a.worstLayer != b.worstLayer || !same(a.worstLayerFractionAbove, b.worstLayerFractionAbove))
        d << QStringLiteral("worst layer");
    if (!same(a.windowMaxRatio, b.windowMaxRatio) || !same(a.windowMeanRatio, b.windowMeanRatio))
        d << QStringLiteral("window ratios %1/%2 vs %3/%4")
                 .arg(a.windowMaxRatio, 0, 'g', 17)
                 .arg(a.windowMeanRatio, 0, 'g', 17)
                 .arg(b.windowMaxRatio, 0, 'g', 17)
                 .arg(b.windowMeanRatio, 0, 'g', 17);
    if (a.dropSource != b.dropSource || opt(a.dropRate) != opt(b.dropRate) ||
        opt(a.assignmentDropRate) != opt(b.assignmentDropRate))
        d << QStringLiteral("drop rate %1 vs %2").arg(opt(a.dropRate), opt(b.dropRate));
    if (opt(a.busiestDeviceShare) != opt(b.busiestDeviceShare) || a.busiestDeviceEstimated != b.busiestDeviceEstimated)
        d << QStringLiteral("busiest share %1 vs %2").arg(opt(a.busiestDeviceShare), opt(b.busiestDeviceShare));
    if (a.ratioOverSteps.size() != b.ratioOverSteps.size())
        d << QStringLiteral("curve length");
    else
        for (qsizetype i = 0; i < a.ratioOverSteps.size(); ++i)
            if (a.ratioOverSteps[i].step != b.ratioOverSteps[i].step ||
                !same(a.ratioOverSteps[i].maxRatio, b.ratioOverSteps[i].maxRatio) ||
                !same(a.ratioOverSteps[i].meanRatio, b.ratioOverSteps[i].meanRatio)) {
                d << QStringLiteral("curve at step %1").arg(a.ratioOverSteps[i].step);
                break;
            }
    if (a.loadRatioStops != b.loadRatioStops || a.dropRateStops != b.dropRateStops)
        d << QStringLiteral("stops");
    return d.join(QStringLiteral(", "));
}

} // namespace

class TestStageThreeSummary : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;

private slots:
    void demoVerdictIsTheSameFromTheSummary() {
        QVERIFY(m_dir.isValid());
        const QString path = m_dir.filePath(QStringLiteral("demo.moewb"));
        const auto written = demo::writeDemoProject(path);
        QVERIFY2(written, qPrintable(written ? QString() : written.error().text()));
        auto opened = store::ProjectStore::open(path, store::OpenMode::MustExist);
        QVERIFY(opened);
        const store::ProjectStore& p = **opened;
        const ThresholdSet thresholds = loadThresholds(p);

        auto all = loadStageThreeInputs(p, {}, ExpertLoadCounts::All);
        QVERIFY(all);
        QVERIFY(!all->isEmpty());
        QList<ExpertLoadRunInput> fromCounts = *all;
        qsizetype allBlocks = 0;
        for (ExpertLoadRunInput& in : fromCounts) {
            QVERIFY(!in.summary.isEmpty());
            QCOMPARE(in.summary.size(), in.blocks.size());
            allBlocks += in.blocks.size();
            in.summary.clear(); // the gate as before: every figure from the counts
        }
        auto window = loadStageThreeInputs(p, {}, ExpertLoadCounts::Window);
        QVERIFY(window);
        qsizetype windowBlocks = 0;
        for (const ExpertLoadRunInput& in : *window)
            windowBlocks += in.blocks.size();
        QVERIFY2(windowBlocks < allBlocks / 2, qPrintable(QStringLiteral("%1 of %2").arg(windowBlocks).arg(allBlocks)));

        const StageThreeResult expected = evaluateStageThree(fromCounts, thresholds);
        for (const auto* inputs : {&*all, &*window}) {
            const StageThreeResult got = evaluateStageThree(*inputs, thresholds);
            QCOMPARE(got.verdict.status, expected.verdict.status);
            QCOMPARE(got.verdict.reasons, expected.verdict.reasons);
            QCOMPARE(got.verdict.notes, expected.verdict.notes);
            QCOMPARE(got.runs.size(), expected.runs.size());
            for (qsizetype i = 0; i < got.runs.size(); ++i)
                QVERIFY2(difference(got.runs[i], expected.runs[i]).isEmpty(),
                         qPrintable(got.runs[i].runName + QStringLiteral(": ") +
                                    difference(got.runs[i], expected.runs[i])));
        }
    }

    void busiestShareFollowsAChangedEpSize() {
        // Imported under EP 2, the record then says EP 4: the summary's busiest-rank
        // tokens are for EP 2, so the share comes from the window's counts under EP 4.
        const QString path = m_dir.filePath(QStringLiteral("ep.moewb"));
        auto opened = store::ProjectStore::open(path);
        QVERIFY(opened);
        store::ProjectStore& p = **opened;
        auto recordJson = [](int ep) {
            return QJsonObject{{"name", "ep"},
                               {"model", QJsonObject{{"kind", "moe"}, {"layers", 2}, {"moe_layers", 2}}},
                               {"moe", QJsonObject{{"experts", 8}, {"top_k", 2}, {"overflow_policy", "dropless"}}},
                               {"parallelism", QJsonObject{{"ep", ep}, {"dp", 8}, {"tp", 1}, {"pp", 1}}}};
        };
        QVERIFY(p.addConfigRecord(QStringLiteral("ep"), recordJson(2), false));
        store::RunData run;
        run.name = QStringLiteral("r");
        run.recordName = QStringLiteral("ep");
        for (qint64 s = 1; s <= 40; ++s)
            for (int l = 0; l < 2; ++l) {
                QVector<quint32> c(8);
                for (int e = 0; e < 8; ++e)
                    c[e] = quint32(10 + (s * 3 + l * 5 + e * 7) % 13 + (e == 5 ? 20 : 0));
                run.expertLoad.append({s, l, c});
            }
        QVERIFY(p.saveRun(run));
        QVERIFY(p.updateConfigRecord(QStringLiteral("ep"), recordJson(4), false));

        auto window = loadStageThreeInputs(p, {}, ExpertLoadCounts::Window);
        QVERIFY(window);
        QCOMPARE(window->size(), 1);
        const ExpertLoadRunInput& in = window->first();
        QCOMPARE(in.record.parallelism.ep.value_or(0), 4);
        QVERIFY(!in.summary.isEmpty());
        QCOMPARE(in.summary.first().expertParallel, 2);
        ThresholdSet thresholds = loadThresholds(p);
        const StageThreeRunSummary s = summarizeStageThreeRun(in, thresholds);
        // Independent: the window's mean of (busiest pair of experts / layer total).
        const qint64 windowSteps = std::max<qint64>(1, qint64(thresholds.get(QStringLiteral("stage3.window_steps")).value));
        double sum = 0;
        int n = 0;
        for (const store::ExpertLoadBlock& b : run.expertLoad) {
            if (b.step <= 40 - windowSteps)
                continue;
            quint64 total = 0, best = 0;
            for (int r = 0; r < 4; ++r) {
                const quint64 pair = quint64(b.tokensPerExpert[2 * r]) + b.tokensPerExpert[2 * r + 1];
                best = std::max(best, pair);
                total += pair;
            }
            sum += double(best) / double(total);
            ++n;
        }
        QVERIFY(s.busiestDeviceShare);
        QCOMPARE(*s.busiestDeviceShare, sum / n);
        QCOMPARE(s.expertParallel, 4);
    }
};

QTEST_GUILESS_MAIN(TestStageThreeSummary)
#include "test_stage_three_summary.moc"
