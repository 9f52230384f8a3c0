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

} // namespace moewb::plots
