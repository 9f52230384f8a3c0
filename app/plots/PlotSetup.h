#pragma once
// Internal: QCustomPlot pieces shared by PlotView and renderPlot — tickers per
// axis unit, colours, the gradient of heatmaps.
#include "plotspec/PlotSpec.h"

#include <QColor>
#include <QFont>
#include <QSharedPointer>

class QCPAxisTicker;
class QCPColorGradient;
class QCPColorMap;
class QCPGraph;
class QCPRange;

namespace moewb::plots {

// Level of detail (docs/plots.md, "Large data"): a heatmap is drawn with at most
// kHeatmapCells cells a side until the view pools it for its own size; a sorted line
// of more than kDecimateAbove points is drawn decimated (plotspec/Decimation.h) to
// kDecimateColumns columns until the view decimates it for its visible range.
inline constexpr int kHeatmapCells = 600;
inline constexpr qsizetype kDecimateAbove = 8192;
inline constexpr int kDecimateColumns = 2000;
// Puts `h`'s cells into `map` (size, range in axis units, values).
void setHeatmapCells(QCPColorMap* map, const Heatmap& h);
// Sets `graph`'s data to the points of `s` that decimateLine keeps for x ∈ [lower, upper].
void setDecimatedData(QCPGraph* graph, const Series& s, double lower, double upper, int columns, bool logX);

QColor qColour(quint32 rgb);
QColor seriesColour(int index);
// The perceptual sequential map as a QCustomPlot gradient.
QCPColorGradient sequentialGradient();
// A ticker labelling an axis in its unit (powers of two as B/KiB/MiB/GiB, GB/s,
// µs or ms, K/M/B). `range` is the data span (Microseconds chooses µs or ms by it).
QSharedPointer<QCPAxisTicker> makeTicker(const Axis& axis, double rangeUpper);
// The axis title with the unit the ticker shows ("Time (ms)").
QString axisTitleFor(const Axis& axis, double rangeUpper);
// `font` `factor` times as large (point or pixel sized).
QFont scaledFont(const QFont& font, double factor);
// Word-wraps `text` to lines of at most `width` pixels in `font`.
QString wrapText(const QString& text, const QFont& font, double width);
// The emptiest corner of the axis rect for the legend (PlotLegend.cpp); `crowded`: even
// that corner holds data.
Qt::Alignment legendCorner(const PlotSpec& spec, const QCPRange& xr, const QCPRange& yr, bool xLog,
                           bool* crowded);

} // namespace moewb::plots
