#pragma once
// A plot drawn as vectors into any painter (the PDF report's QPdfWriter, an
// image, a printer): the same QCustomPlot configuration PlotView shows, laid out
// for `target` (in the painter's logical units). Needs a QApplication (works with
// QT_QPA_PLATFORM=offscreen); call on the GUI thread.
#include "plotspec/PlotSpec.h"

#include <QRectF>

class QPainter;
class QCustomPlot;

namespace moewb::plots {

void renderPlot(const PlotSpec& spec, QPainter* painter, const QRectF& target);

// Configures `plot` for `spec` (axes, tickers, series, heatmap, legend, note).
// Shared by PlotView and renderPlot. Returns false for an empty spec (then only
// the "No data" text is set up).
bool configurePlot(QCustomPlot* plot, const PlotSpec& spec);

// Puts a configured plot's legend where it covers no data, for the plot's viewport:
// inside the axis rect in a corner free of data (points and the lines between them,
// with a gap), else outside — below in as many columns as the width takes, or on
// the right when below would take over a fifth of the height and one column takes
// at most 45 % of the width. Lays the plot out to measure; returns whether the placement changed (then
// replot). The legend's "moewbPlace" property: 0 inside, 1 below, 2 right.
bool placeLegend(QCustomPlot* plot, const PlotSpec& spec);

} // namespace moewb::plots
