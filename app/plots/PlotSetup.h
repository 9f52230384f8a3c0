#pragma once
// Internal: QCustomPlot pieces shared by PlotView and renderPlot — tickers per
// axis unit, colours, the gradient of heatmaps.
#include "plotspec/PlotSpec.h"

#include <QColor>
#include <QFont>
#include <QSharedPointer>

class QCPAxisTicker;
class QCPColorGradient;

namespace moewb::plots {

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

} // namespace moewb::plots
