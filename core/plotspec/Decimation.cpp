#include "plotspec/Decimation.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace moewb::plots {

namespace {
constexpr double nan = std::numeric_limits<double>::quiet_NaN();
}

PooledHeatmap poolHeatmap(const Heatmap& h, int column0, int column1, int row0, int row1, int maxColumns,
                          int maxRows)
{
    PooledHeatmap p;
    column0 = std::clamp(column0, 0, h.columns);
    column1 = std::clamp(column1, column0, h.columns);
    row0 = std::clamp(row0, 0, h.rows);
    row1 = std::clamp(row1, row0, h.rows);
    if (column0 == column1 || row0 == row1)
        return p;
    maxColumns = std::max(1, maxColumns);
    maxRows = std::max(1, maxRows);
    // The smallest block that fits, then the range widened to whole aligned blocks
    // (which may need one block more: grow the block until it fits).
    auto fit = [](int from, int to, int limit, int* first, int* count) {
        int block = std::max(1, (to - from + limit - 1) / limit);
        for (;;) {
            const int a = from / block * block;
            const int n = (to - a + block - 1) / block;
            if (n <= limit) {
                *first = a;
                *count = n;
                return block;
            }
            ++block;
        }
    };
    p.columnBlock = fit(column0, column1, maxColumns, &p.firstColumn, &p.columns);
    p.rowBlock = fit(row0, row1, maxRows, &p.firstRow, &p.rows);
    const qsizetype cells = qsizetype(p.columns) * p.rows;
    p.max = QVector<double>(cells, nan);
    p.mean = QVector<double>(cells, nan);
    QVector<double> sum(cells, 0.0);
    QVector<int> count(cells, 0);
    const int lastColumn = std::min(h.columns, p.firstColumn + p.columns * p.columnBlock);
    const int lastRow = std::min(h.rows, p.firstRow + p.rows * p.rowBlock);
    const double* values = h.values.constData();
    const qsizetype size = h.values.size();
    for (int r = p.firstRow; r < lastRow; ++r) {
        const qsizetype out = qsizetype((r - p.firstRow) / p.rowBlock) * p.columns;
        const qsizetype in = qsizetype(r) * h.columns;
        for (int c = p.firstColumn; c < lastColumn; ++c) {
            const qsizetype i = in + c;
            if (i >= size)
                break;
            const double v = values[i];
            if (std::isnan(v))
                continue;
            const qsizetype o = out + (c - p.firstColumn) / p.columnBlock;
            double& m = p.max[o];
            if (!(m >= v)) // NaN or smaller
                m = v;
            sum[o] += v;
            ++count[o];
        }
    }
    for (qsizetype i = 0; i < cells; ++i)
        if (count[i] > 0)
            p.mean[i] = sum[i] / count[i];
    return p;
}

Heatmap pooledHeatmap(const Heatmap& h, int maxColumns, int maxRows)
{
    if (h.columns <= std::max(1, maxColumns) && h.rows <= std::max(1, maxRows))
        return h;
    const PooledHeatmap p = poolHeatmap(h, 0, h.columns, 0, h.rows, maxColumns, maxRows);
    Heatmap out = h;
    out.columns = p.columns;
    out.rows = p.rows;
    out.values = p.max;
    // Cell widths in axis units; a pooled cell spans `block` of them, its centre in
    // the middle of its block (the last block may reach past the data by < 1 block).
    const double wx = h.columns > 1 ? (h.xLast - h.xFirst) / (h.columns - 1) : 1.0;
    const double wy = h.rows > 1 ? (h.yLast - h.yFirst) / (h.rows - 1) : 1.0;
    out.xFirst = h.xFirst - wx / 2 + wx * p.columnBlock / 2;
    out.xLast = out.xFirst + wx * p.columnBlock * (p.columns - 1);
    out.yFirst = h.yFirst - wy / 2 + wy * p.rowBlock / 2;
    out.yLast = out.yFirst + wy * p.rowBlock * (p.rows - 1);
    return out;
}

QVector<qsizetype> decimateLine(const QVector<double>& x, const QVector<double>& y, double lower, double upper,
                                int columns, bool logX)
{
    QVector<qsizetype> keep;
    const qsizetype n = std::min(x.size(), y.size());
    if (n == 0 || !(lower < upper))
        return keep;
    columns = std::max(1, columns);
    // The visible span and one point beyond it on each side.
    qsizetype from = std::lower_bound(x.begin(), x.begin() + n, lower) - x.begin();
    qsizetype to = std::upper_bound(x.begin(), x.begin() + n, upper) - x.begin();
    const qsizetype before = from > 0 ? from - 1 : -1;
    const qsizetype after = to < n ? to : -1;
    if (before >= 0)
        keep << before;
    if (to - from <= 4 * qsizetype(columns)) {
        for (qsizetype i = from; i < to; ++i)
            keep << i;
    } else {
        const bool log = logX && lower > 0;
        const double l0 = log ? std::log(lower) : lower;
        const double scale = columns / ((log ? std::log(upper) : upper) - l0);
        auto columnOf = [&](double v) {
            const double u = ((log ? (v > 0 ? std::log(v) : -std::numeric_limits<double>::infinity()) : v) - l0) *
                             scale;
            return u >= columns ? columns - 1 : u <= 0 ? 0 : int(u);
        };
        int column = -1;
        qsizetype first = -1, lowest = -1, highest = -1, last = -1, gap = -1;
        auto flush = [&] {
            if (first < 0)
                return;
            qsizetype picks[5] = {first, lowest, highest, last, gap};
            std::sort(picks, picks + 5);
            qsizetype previous = -1;
            for (qsizetype p : picks)
                if (p >= 0 && p != previous) {
                    keep << p;
                    previous = p;
                }
        };
        for (qsizetype i = from; i < to; ++i) {
            const int c = columnOf(x[i]);
            if (c != column) {
                flush();
                column = c;
                first = i;
                lowest = highest = gap = -1;
            }
            last = i;
            const double v = y[i];
            if (std::isnan(v)) {
                if (gap < 0)
                    gap = i;
                continue;
            }
            if (lowest < 0 || v < y[lowest])
                lowest = i;
            if (highest < 0 || v > y[highest])
                highest = i;
        }
        flush();
    }
    if (after >= 0)
        keep << after;
    return keep;
}

} // namespace moewb::plots
