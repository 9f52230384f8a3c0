// The step-anatomy plots (plotspec/AnatomyPlots.h) and stacked bars (plotspec/Stacking.h)
// on a run anatomy built here: each rank's bar against the sum of its own fields, the
// segments against the fields they are read from, the busiest rank's label, the step
// time line; the rank × step busy-share heatmap against busy ÷ step computed here, gaps
// for ranks and steps not traced, and max-pooling of a long run keeping one straggling
// step (every pooled column against the brute-force maximum of its steps).
#include "plotspec/AnatomyPlots.h"
#include "plotspec/PlotCsv.h"
#include "plotspec/StagePlots.h"
#include "plotspec/Stacking.h"

#include <QtTest>

#include <cmath>

using namespace moewb;
using namespace moewb::plots;

namespace {

store::RankStepAnatomy row(qint64 step, int rank, double stepUs, double compute, double a2a, double a2aWait,
                           double other, double otherWait, double memcpy, double idle, double busy) {
    store::RankStepAnatomy r;
    r.step = step;
    r.rank = rank;
    r.stepUs = stepUs;
    r.computeUs = compute;
    r.a2aUs = a2a;
    r.a2aWaitUs = a2aWait;
    r.otherCommUs = other;
    r.otherCommWaitUs = otherWait;
    r.memcpyUs = memcpy;
    r.idleUs = idle;
    r.busyUs = busy;
    r.exposedCommUs = a2a + other;
    return r;
}

// Four ranks, steps 5–7; rank 2 is the slow one in step 6 (the others wait for it).
store::RunAnatomy fourRanks() {
    store::RunAnatomy a;
    a.worldSize = 4;
    a.ranksTraced = {0, 1, 2, 3};
    a.format = QStringLiteral("kineto-json");
    for (qint64 step : {5, 6, 7})
        for (int rank = 0; rank < 4; ++rank) {
            const bool slow = step == 6 && rank == 2;
            const double compute = slow ? 8100 : 6000 + 100 * rank;
            const double wait = slow ? 50 : 1900 - 100 * rank;
            a.rows << row(step, rank, 15000, compute, 2500 + wait, wait, 700, 200 + 10 * rank, 300, 400 + step,
                          compute + 2500 + 500 - 10 * rank);
        }
    return a;
}

int seriesIndex(const PlotSpec& spec, const QString& name) {
    for (int i = 0; i < spec.series.size(); ++i)
        if (spec.series[i].name == name)
            return i;
    return -1;
}

} // namespace

class TestAnatomyPlots : public QObject {
    Q_OBJECT
private slots:
    void stackBottomsSumTheSegmentsBelow() {
        PlotSpec spec;
        Series a, line, b;
        a.style = b.style = SeriesStyle::StackedBars;
        line.style = SeriesStyle::DashedLine;
        a.x = {0, 1};
        a.y = {2, std::nan("")};
        line.x = {0, 1};
        line.y = {100, 100};
        b.x = {1, 0};
        b.y = {3, 4};
        spec.series << a << line << b;
        QCOMPARE(stackBottoms(spec, 0), (QVector<double>{0, 0}));
        QCOMPARE(stackBottoms(spec, 1), (QVector<double>{0, 0})); // not stacked
        QCOMPARE(stackBottoms(spec, 2), (QVector<double>{0, 2})); // by x, NaN counts 0
        QCOMPARE(stackedMaximum(spec), 6.0);
    }

    void barsPerRankSumToTheRanksOwnTimes() {
        const store::RunAnatomy a = fourRanks();
        const PlotSpec spec = stepAnatomyBars(a, 6, 2, QStringLiteral("moe-run"));
        QCOMPARE(spec.id, QStringLiteral("anatomy-step-bars"));
        QCOMPARE(spec.y.unit, AxisUnit::Microseconds);
        QCOMPARE(spec.categoryLabels, (QStringList{"0", "1", "2\nbusiest", "3"}));
        QVERIFY(spec.title.contains(QStringLiteral("rank 2")));
        QVERIFY(spec.note.contains(QStringLiteral("Busiest rank 2")));
        const QStringList names = stepAnatomySegmentNames();
        QCOMPARE(names.size(), 7);
        QCOMPARE(spec.series.size(), 8);
        for (int k = 0; k < 7; ++k) {
            QCOMPARE(spec.series[k].name, names[k]);
            QCOMPARE(spec.series[k].style, SeriesStyle::StackedBars);
            QCOMPARE(spec.series[k].x, (QVector<double>{0, 1, 2, 3}));
        }
        // Every segment from the field it is read from, and each stack's top against an
        // independent sum of the rank's own times (transfer + waiting = the all-to-all).
        const QVector<double> topBottoms = stackBottoms(spec, 6);
        for (const store::RankStepAnatomy& r : a.rows) {
            if (r.step != 6)
                continue;
            const int i = r.rank;
            QCOMPARE(spec.series[0].y[i], r.computeUs);
            QCOMPARE(spec.series[1].y[i], r.a2aUs - r.a2aWaitUs);
            QCOMPARE(spec.series[2].y[i], r.a2aWaitUs);
            QCOMPARE(spec.series[3].y[i], r.otherCommUs - r.otherCommWaitUs);
            QCOMPARE(spec.series[4].y[i], r.otherCommWaitUs);
            QCOMPARE(spec.series[5].y[i], r.memcpyUs);
            QCOMPARE(spec.series[6].y[i], r.idleUs);
            const double independent = r.computeUs + r.a2aUs + r.otherCommUs + r.memcpyUs + r.idleUs;
            QCOMPARE(topBottoms[i] + spec.series[6].y[i], independent);
        }
        // Rank 2 in step 6, by hand: 8100 + 2550 + 700 + 300 + 406.
        QCOMPARE(topBottoms[2] + spec.series[6].y[2], 12056.0);
        const int stepLine = seriesIndex(spec, QStringLiteral("step time"));
        QVERIFY(stepLine >= 0);
        QCOMPARE(spec.series[stepLine].style, SeriesStyle::DashedLine);
        QCOMPARE(spec.series[stepLine].y, (QVector<double>{15000, 15000, 15000, 15000}));
        QCOMPARE(stackedMaximum(spec), 12056.0);
        // Another step gives other values; no busiest rank: no mark.
        const PlotSpec other = stepAnatomyBars(a, 5, -1, QStringLiteral("moe-run"));
        QCOMPARE(other.categoryLabels, (QStringList{"0", "1", "2", "3"}));
        QCOMPARE(other.series[0].y, (QVector<double>{6000, 6100, 6200, 6300}));
        QCOMPARE(other.series[2].y, (QVector<double>{1900, 1800, 1700, 1600}));
        // The CSV has one row per segment and rank, and the step times.
        const QStringList lines = toCsv(spec).split(QStringLiteral("\r\n"), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 1 + 8 * 4);
        QVERIFY2(lines.first().startsWith(QStringLiteral("series,run,category,")), qPrintable(lines.first()));
    }

    void aStepNobodyTracedIsEmpty() {
        const PlotSpec spec = stepAnatomyBars(fourRanks(), 99, -1, QStringLiteral("moe-run"));
        QVERIFY(isEmpty(spec));
        QVERIFY(spec.note.contains(QStringLiteral("99")));
        QVERIFY(isEmpty(busyShareHeatmap(store::RunAnatomy{}, QStringLiteral("x"))));
    }

    void ranksMissingFromAStepAreLeftOut() {
        store::RunAnatomy a = fourRanks();
        a.rows.removeIf([](const store::RankStepAnatomy& r) { return r.step == 7 && r.rank == 1; });
        const PlotSpec spec = stepAnatomyBars(a, 7, 3, QStringLiteral("moe-run"));
        QCOMPARE(spec.categoryLabels, (QStringList{"0", "2", "3\nbusiest"}));
        QCOMPARE(spec.series[0].y, (QVector<double>{6000, 6200, 6300}));
    }

    void nodesFromTheRecordOnlyWhenTheRanksFit() {
        const store::RunAnatomy a = fourRanks(); // ranks 0–3
        QCOMPARE(ranksPerNode(2, 4, a), 2);
        QCOMPARE(ranksPerNode(2, std::nullopt, a), 2);
        QCOMPARE(ranksPerNode(std::nullopt, 4, a), 0);
        QCOMPARE(ranksPerNode(0, 4, a), 0);
        QCOMPARE(ranksPerNode(1, 2, a), 0); // rank 3 on a 2-GPU world: the record is not this run's layout
    }

    void heatmapIsBusyOverStepPerRankAndStep() {
        store::RunAnatomy a = fourRanks();
        a.rows.removeIf([](const store::RankStepAnatomy& r) { return r.step == 6 && r.rank == 1; });
        const PlotSpec spec = busyShareHeatmap(a, QStringLiteral("moe-run"));
        QCOMPARE(spec.id, QStringLiteral("anatomy-busy-share"));
        QVERIFY(spec.heatmap);
        const Heatmap& h = *spec.heatmap;
        QCOMPARE(h.columns, 3);
        QCOMPARE(h.rows, 4);
        QCOMPARE(h.xFirst, 5.0);
        QCOMPARE(h.xLast, 7.0);
        QCOMPARE(h.yFirst, 0.0);
        QCOMPARE(h.yLast, 3.0);
        for (const store::RankStepAnatomy& r : a.rows)
            QCOMPARE(h.values[r.rank * 3 + int(r.step - 5)], 100.0 * r.busyUs / r.stepUs);
        QVERIFY(std::isnan(h.values[1 * 3 + 1])); // rank 1 did not record step 6
        // Rank 2 in step 6 by hand: (8100 + 2500 + 500 − 20) / 15000.
        QCOMPARE(h.values[2 * 3 + 1], 100.0 * 11080 / 15000);
    }

    void stepsNotProfiledAreGaps() {
        store::RunAnatomy a;
        a.rows << row(10, 0, 1000, 500, 0, 0, 0, 0, 0, 500, 500) << row(10, 1, 1000, 600, 0, 0, 0, 0, 0, 400, 600)
               << row(14, 0, 1000, 700, 0, 0, 0, 0, 0, 300, 700) << row(14, 1, 1000, 800, 0, 0, 0, 0, 0, 200, 800);
        const Heatmap h = *busyShareHeatmap(a, QStringLiteral("r")).heatmap;
        QCOMPARE(h.columns, 5); // steps 10..14 on a linear axis
        QCOMPARE(h.xFirst, 10.0);
        QCOMPARE(h.xLast, 14.0);
        QCOMPARE(h.values[0], 50.0);
        QCOMPARE(h.values[4], 70.0);
        QCOMPARE(h.values[5 + 4], 80.0);
        for (int c = 1; c <= 3; ++c)
            QVERIFY(std::isnan(h.values[c]) && std::isnan(h.values[5 + c]));
    }

    void longRunsAreMaxPooledAndKeepTheStraggler() {
        store::RunAnatomy a;
        const int steps = 5000;
        const int hotStep = 3333;
        for (int s = 0; s < steps; ++s)
            for (int rank = 0; rank < 2; ++rank) {
                const double busy = s == hotStep && rank == 1 ? 990 : 500 + (s * 7 + rank * 3) % 100;
                a.rows << row(s, rank, 1000, busy, 0, 0, 0, 0, 0, 1000 - busy, busy);
            }
        const PlotSpec spec = busyShareHeatmap(a, QStringLiteral("long"));
        const Heatmap& h = *spec.heatmap;
        QCOMPARE(h.columns, maxHeatmapColumns);
        QVERIFY(spec.note.contains(QStringLiteral("max-pooled")));
        // Each pooled column against the brute-force maximum of the steps it covers:
        // column c spans steps [c·steps/columns, (c+1)·steps/columns) (AnatomyPlots.h).
        for (int rank = 0; rank < 2; ++rank)
            for (int c = 0; c < h.columns; ++c) {
                double expected = -1;
                for (int s = 0; s < steps; ++s) {
                    if (!(qint64(c) * steps <= qint64(s) * h.columns && qint64(s) * h.columns < qint64(c + 1) * steps))
                        continue;
                    const double busy = s == hotStep && rank == 1 ? 990 : 500 + (s * 7 + rank * 3) % 100;
                    expected = std::max(expected, 100.0 * busy / 1000);
                }
                QCOMPARE(h.values[rank * h.columns + c], expected);
            }
        const int hotColumn = int(qint64(hotStep) * h.columns / steps);
        QCOMPARE(h.values[h.columns + hotColumn], 99.0);
        QVERIFY(h.xFirst < 1.0 && h.xLast > steps - 2.0); // the columns' centres span the steps
    }
};

QTEST_APPLESS_MAIN(TestAnatomyPlots)
#include "test_anatomy_plots.moc"
