// Level of detail (core/plotspec/Decimation): heatmap max-pooling and line min/max
// decimation, checked against brute force over the source data.
#include "plotspec/Decimation.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

using namespace moewb::plots;

namespace {


Heatmap randomHeatmap(int columns, int rows, std::mt19937& rng, double nanShare = 0.0)
{
    Heatmap h;
    h.columns = columns;
    h.rows = rows;
    h.xFirst = 100;
    h.xLast = 100 + 10.0 * (columns - 1); // 10 axis units per column
    h.yFirst = 0;
    h.yLast = rows - 1;
    std::uniform_real_distribution<double> value(0.0, 1.0);
    h.values.resize(qsizetype(columns) * rows);
    for (double& v : h.values)
        v = value(rng) < nanShare ? std::numeric_limits<double>::quiet_NaN() : value(rng);
    return h;
}

} // namespace

class TestDecimation : public QObject {
    Q_OBJECT
private slots:
    // Every pooled cell is the max (and the mean) of its block, found by brute force
    // over the source cells; the blocks tile the requested range exactly.
    void poolingIsTheMaxOfEachBlock_data()
    {
        QTest::addColumn<int>("columns");
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("c0");
        QTest::addColumn<int>("c1");
        QTest::addColumn<int>("r0");
        QTest::addColumn<int>("r1");
        QTest::addColumn<int>("maxColumns");
        QTest::addColumn<int>("maxRows");
        QTest::addColumn<double>("nanShare");
        QTest::newRow("fits: no pooling") << 40 << 12 << 0 << 40 << 0 << 12 << 100 << 100 << 0.0;
        QTest::newRow("2000 steps into 600") << 2000 << 256 << 0 << 2000 << 0 << 256 << 600 << 200 << 0.0;
        QTest::newRow("visible part, odd sizes") << 1999 << 97 << 313 << 1777 << 5 << 90 << 333 << 17 << 0.0;
        QTest::newRow("one pixel") << 500 << 30 << 0 << 500 << 0 << 30 << 1 << 1 << 0.0;
        QTest::newRow("with NaN cells") << 900 << 40 << 7 << 900 << 0 << 40 << 101 << 9 << 0.3;
        QTest::newRow("range past the edges") << 300 << 20 << -50 << 400 << -3 << 25 << 64 << 7 << 0.0;
    }
    void poolingIsTheMaxOfEachBlock()
    {
        QFETCH(int, columns);
        QFETCH(int, rows);
        QFETCH(int, c0);
        QFETCH(int, c1);
        QFETCH(int, r0);
        QFETCH(int, r1);
        QFETCH(int, maxColumns);
        QFETCH(int, maxRows);
        QFETCH(double, nanShare);
        std::mt19937 rng(7);
        const Heatmap h = randomHeatmap(columns, rows, rng, nanShare);
        const PooledHeatmap p = poolHeatmap(h, c0, c1, r0, r1, maxColumns, maxRows);
        QVERIFY(p.columns >= 1 && p.columns <= maxColumns);
        QVERIFY(p.rows >= 1 && p.rows <= maxRows);
        QCOMPARE(p.max.size(), qsizetype(p.columns) * p.rows);
        QCOMPARE(p.mean.size(), p.max.size());
        // The blocks cover the (clamped) range and start on a multiple of the block.
        const int cc0 = std::max(0, c0), cc1 = std::min(columns, c1), rr0 = std::max(0, r0), rr1 = std::min(rows, r1);
        QCOMPARE(p.firstColumn % p.columnBlock, 0);
        QCOMPARE(p.firstRow % p.rowBlock, 0);
        QVERIFY(p.firstColumn <= cc0 && p.columnFrom(p.columns) >= cc1);
        QVERIFY(p.firstRow <= rr0 && p.rowFrom(p.rows) >= rr1);
        QVERIFY(p.columnFrom(p.columns - 1) < cc1 && p.rowFrom(p.rows - 1) < rr1); // no empty block
        if (columns <= maxColumns && rows <= maxRows && c0 <= 0 && r0 <= 0)
            QVERIFY(p.columnBlock == 1 && p.rowBlock == 1);
        for (int pr = 0; pr < p.rows; ++pr)
            for (int pc = 0; pc < p.columns; ++pc) {
                double mx = -std::numeric_limits<double>::infinity(), sum = 0;
                int n = 0;
                for (int r = p.rowFrom(pr); r < std::min(rows, p.rowFrom(pr + 1)); ++r)
                    for (int c = p.columnFrom(pc); c < std::min(columns, p.columnFrom(pc + 1)); ++c) {
                        const double v = h.values[qsizetype(r) * columns + c];
                        if (std::isnan(v))
                            continue;
                        mx = std::max(mx, v);
                        sum += v;
                        ++n;
                    }
                const double gotMax = p.max[qsizetype(pr) * p.columns + pc];
                const double gotMean = p.mean[qsizetype(pr) * p.columns + pc];
                if (n == 0) {
                    QVERIFY(std::isnan(gotMax) && std::isnan(gotMean));
                    continue;
                }
                QCOMPARE(gotMax, mx);
                QVERIFY(std::fabs(gotMean - sum / n) < 1e-12);
            }
    }

    // Panning at one zoom keeps the same blocks: the block size depends on the span's
    // width, and blocks are aligned to multiples of it.
    void panningKeepsTheBlocks()
    {
        std::mt19937 rng(3);
        const Heatmap h = randomHeatmap(20000, 8, rng);
        const PooledHeatmap a = poolHeatmap(h, 1000, 5000, 0, 8, 500, 8);
        const PooledHeatmap b = poolHeatmap(h, 1000 + 3 * a.columnBlock, 5000 + 3 * a.columnBlock, 0, 8, 500, 8);
        QCOMPARE(a.columnBlock, b.columnBlock);
        QCOMPARE(b.firstColumn, a.firstColumn + 3 * a.columnBlock);
        for (int pc = 0; pc + 3 < a.columns; ++pc)
            QCOMPARE(b.max[pc], a.max[pc + 3]);
    }

    // The whole map pooled as a Heatmap: one hot cell among 256 × 20,000 survives at
    // its place (its pooled cell is the hottest, and covers the hot cell's centre).
    void hotCellSurvivesWholeMapPooling()
    {
        Heatmap h;
        h.columns = 20000;
        h.rows = 256;
        h.xFirst = 1;
        h.xLast = 20000; // steps 1 … 20000
        h.yFirst = 0;
        h.yLast = 255;   // experts
        h.values = QVector<double>(qsizetype(h.columns) * h.rows, 1.0);
        const int hotColumn = 12345, hotRow = 201;
        h.values[qsizetype(hotRow) * h.columns + hotColumn] = 9.0;
        const Heatmap p = pooledHeatmap(h, 600, 100);
        QVERIFY(p.columns <= 600 && p.rows <= 100);
        QCOMPARE(*std::max_element(p.values.begin(), p.values.end()), 9.0);
        const qsizetype at = std::max_element(p.values.begin(), p.values.end()) - p.values.begin();
        const int pc = int(at % p.columns), pr = int(at / p.columns);
        const double cellW = p.columns > 1 ? (p.xLast - p.xFirst) / (p.columns - 1) : 0;
        const double cellH = p.rows > 1 ? (p.yLast - p.yFirst) / (p.rows - 1) : 0;
        const double hotX = 1 + hotColumn, hotY = hotRow;
        QVERIFY2(std::fabs(p.xFirst + pc * cellW - hotX) <= cellW / 2,
                 qPrintable(QStringLiteral("pooled cell %1 at x %2, width %3; hot x %4")
                                .arg(pc)
                                .arg(p.xFirst + pc * cellW)
                                .arg(cellW)
                                .arg(hotX)));
        QVERIFY(std::fabs(p.yFirst + pr * cellH - hotY) <= cellH / 2);
        // Its left edge is the map's left edge.
        QCOMPARE(p.xFirst - cellW / 2, h.xFirst - 0.5);
        // A map that fits stays as it is.
        const Heatmap small = pooledHeatmap(h, 30000, 300);
        QCOMPARE(small.columns, h.columns);
        QCOMPARE(small.values, h.values);
    }

    // Min/max decimation keeps, in every pixel column, the lowest and the highest
    // point (brute force over the points that fall in the column), only points of the
    // line, in x order, plus one point beyond each edge of the view.
    void decimationKeepsEachColumnsExtremes_data()
    {
        QTest::addColumn<int>("points");
        QTest::addColumn<double>("lower");
        QTest::addColumn<double>("upper");
        QTest::addColumn<int>("columns");
        QTest::addColumn<bool>("logX");
        QTest::newRow("1M points, all in view") << 1'000'000 << 0.0 << 999'999.0 << 1200 << false;
        QTest::newRow("zoomed in, odd width") << 1'000'000 << 123'456.5 << 400'000.25 << 777 << false;
        QTest::newRow("few points: all kept") << 3000 << 0.0 << 2999.0 << 1000 << false;
        QTest::newRow("logarithmic x") << 200'000 << 10.0 << 150'000.0 << 500 << true;
    }
    void decimationKeepsEachColumnsExtremes()
    {
        QFETCH(int, points);
        QFETCH(double, lower);
        QFETCH(double, upper);
        QFETCH(int, columns);
        QFETCH(bool, logX);
        std::mt19937 rng(11);
        std::normal_distribution<double> noise(0.0, 0.05);
        QVector<double> x(points), y(points);
        for (int i = 0; i < points; ++i) {
            x[i] = i;
            y[i] = 2.0 + 3.0 * std::exp(-i / 2e5) + noise(rng);
        }
        // One-point spikes the line must keep, and a NaN gap.
        y[points / 3] = 50.0;
        y[points / 3 + 7] = -40.0;
        y[points / 2] = std::numeric_limits<double>::quiet_NaN();
        const QVector<qsizetype> keep = decimateLine(x, y, lower, upper, columns, logX);
        QVERIFY(std::is_sorted(keep.begin(), keep.end()));
        QVERIFY(std::adjacent_find(keep.begin(), keep.end()) == keep.end());
        // Pixel column of x: the span split into `columns` equal parts (of log x on a
        // logarithmic axis), written as offset × (columns / span).
        auto columnOf = [&](double v) {
            const double u = logX ? (std::log(v) - std::log(lower)) * (columns / (std::log(upper) - std::log(lower)))
                                  : (v - lower) * (columns / (upper - lower));
            return std::clamp(int(std::floor(u)), 0, columns - 1);
        };
        const qsizetype from = std::lower_bound(x.begin(), x.end(), lower) - x.begin();
        const qsizetype to = std::upper_bound(x.begin(), x.end(), upper) - x.begin();
        // The neighbours beyond the view.
        if (from > 0)
            QCOMPARE(keep.first(), from - 1);
        if (to < points)
            QCOMPARE(keep.last(), to);
        qsizetype inView = 0;
        for (qsizetype i : keep)
            inView += i >= from && i < to;
        if (to - from <= 4 * columns) {
            QCOMPARE(inView, to - from); // everything kept
            return;
        }
        QVERIFY2(inView <= 5 * qsizetype(columns), qPrintable(QString::number(inView)));
        QVERIFY(inView < (to - from) / 10); // it does thin the line
        // Brute force per column: min, max, a NaN if any, over all points vs kept ones.
        QVector<double> lo(columns, INFINITY), hi(columns, -INFINITY), keptLo(columns, INFINITY),
            keptHi(columns, -INFINITY);
        QVector<bool> gap(columns, false), keptGap(columns, false);
        for (qsizetype i = from; i < to; ++i) {
            const int c = columnOf(x[i]);
            if (std::isnan(y[i]))
                gap[c] = true;
            else {
                lo[c] = std::min(lo[c], y[i]);
                hi[c] = std::max(hi[c], y[i]);
            }
        }
        for (qsizetype i : keep) {
            if (i < from || i >= to)
                continue;
            const int c = columnOf(x[i]);
            if (std::isnan(y[i]))
                keptGap[c] = true;
            else {
                keptLo[c] = std::min(keptLo[c], y[i]);
                keptHi[c] = std::max(keptHi[c], y[i]);
            }
        }
        for (int c = 0; c < columns; ++c) {
            QVERIFY2(lo[c] == keptLo[c] && hi[c] == keptHi[c],
                     qPrintable(QStringLiteral("column %1: min %2 max %3, kept %4 %5")
                                    .arg(c)
                                    .arg(lo[c])
                                    .arg(hi[c])
                                    .arg(keptLo[c])
                                    .arg(keptHi[c])));
            QCOMPARE(keptGap[c], gap[c]);
        }
        // The spikes are there when in view.
        for (qsizetype spike : {qsizetype(points / 3), qsizetype(points / 3 + 7)})
            if (spike >= from && spike < to)
                QVERIFY(std::binary_search(keep.begin(), keep.end(), spike));
    }

    void decimationEdgeCases()
    {
        QVector<double> x{0, 1, 2}, y{5, 6, 7};
        QVERIFY(decimateLine({}, {}, 0, 1, 10, false).isEmpty());
        QVERIFY(decimateLine(x, y, 1, 1, 10, false).isEmpty()); // empty span
        // The view between two points: the two neighbours, nothing else.
        QCOMPARE(decimateLine(x, y, 1.2, 1.8, 10, false), (QVector<qsizetype>{1, 2}));
        // The view past the data: the last point only.
        QCOMPARE(decimateLine(x, y, 5, 9, 10, false), (QVector<qsizetype>{2}));
    }
};

QTEST_GUILESS_MAIN(TestDecimation)
#include "test_decimation.moc"
