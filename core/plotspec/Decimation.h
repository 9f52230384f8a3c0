#pragma once
// Level of detail for plots with more data than pixels (docs/plots.md, "Large
// data"): heatmaps max-pooled in blocks, lines decimated to the first, lowest,
// highest and last point of each pixel column. Both keep the extremes: a single hot
// cell or a one-step spike is never pooled or sampled away. QtCore only.
#include "plotspec/PlotSpec.h"

#include <QVector>

namespace moewb::plots {

// Cells [firstColumn, firstColumn + columns·columnBlock) × [firstRow, …) of a heatmap
// pooled into columns × rows cells of columnBlock × rowBlock source cells each (the
// last block of a row or column may hold fewer: the heatmap's edge).
struct PooledHeatmap {
    int columns = 0;
    int rows = 0;
    int columnBlock = 1;
    int rowBlock = 1;
    int firstColumn = 0;
    int firstRow = 0;
    QVector<double> max;  // row-major, [row * columns + column]; NaN where no cell has data
    QVector<double> mean; // the mean of the block's cells that have data; NaN likewise

    // The source cells of pooled cell (column, row), as [from, to) on each axis.
    int columnFrom(int column) const { return firstColumn + column * columnBlock; }
    int rowFrom(int row) const { return firstRow + row * rowBlock; }
};

// Max-pools the source cells [column0, column1) × [row0, row1) of `h` (clamped to
// the heatmap) so that at most maxColumns × maxRows cells remain. The block sizes are
// the smallest that fit; blocks are aligned to multiples of the block size from cell
// 0, so panning at one zoom keeps the same blocks (the picture does not shimmer) and
// the visible range is widened to whole blocks. maxColumns/maxRows < 1 count as 1.
PooledHeatmap poolHeatmap(const Heatmap& h, int column0, int column1, int row0, int row1, int maxColumns,
                          int maxRows);

// The whole heatmap pooled to at most maxColumns × maxRows cells, as a Heatmap (same
// span in axis units; unchanged when it already fits).
Heatmap pooledHeatmap(const Heatmap& h, int maxColumns, int maxRows);

// The points a line of x-sorted points keeps when drawn into `columns` pixel columns
// spanning x ∈ [lower, upper] (logX: a logarithmic axis): per column, in x order, its
// first, lowest, highest and last point, and its first NaN (a gap in the line), plus
// the nearest point outside the span on each side (the line runs on to the edge).
// Points of the visible span number at most 5 × columns + 2. When the span holds at
// most 4 × columns points, they are all kept. Indices into x/y, ascending.
QVector<qsizetype> decimateLine(const QVector<double>& x, const QVector<double>& y, double lower, double upper,
                                int columns, bool logX);

} // namespace moewb::plots
