// Replot time of a 1,000,000-point sorted line in PlotView, against a baseline
// measured in the same run: the same points in a bare QCustomPlot graph with its own
// adaptive sampling (how PlotView drew them before its per-pixel-column min/max
// decimation, plotspec/Decimation.h). Timed: a replot at an unchanged view, and a
// zoom or pan (new x range, then the replot, which decimates the visible points for
// the plot's width). Also the time setSpec takes (once per spec). Prints wall and
// thread-CPU milliseconds and the ratios. Target: zoom/pan replot < 30 ms (CPU time;
// exit status 1 when missed).
#include "ReplotTiming.h"
#include "plots/PlotView.h"

#include <QApplication>
#include <qcustomplot.h>

#include <cmath>
#include <cstdio>

using namespace moewb::plots;

namespace {

using moewb::bench::medianReplot;
using moewb::bench::Timing;

// Zoom and pan: each repeat a new x range (the whole line, halves, a tenth, panned),
// then the replot, as a wheel or drag step does.
Timing medianZoomPan(QCustomPlot* plot, int repeats, double points)
{
    return moewb::bench::medianZoomPan(plot, repeats, 0.0, points, {2.0, 10.0}, 0.137);
}

} // namespace

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    constexpr int points = 1'000'000;

    PlotSpec spec;
    spec.id = QStringLiteral("bench");
    spec.title = QStringLiteral("1,000,000-point loss curve");
    spec.x = {QStringLiteral("Step"), AxisScale::Linear, AxisUnit::Steps, {}};
    spec.y = {QStringLiteral("Loss"), AxisScale::Linear, AxisUnit::Loss, {}};
    Series s;
    s.name = QStringLiteral("lm_loss");
    s.x.resize(points);
    s.y.resize(points);
    for (int i = 0; i < points; ++i) {
        s.x[i] = i;
        s.y[i] = 2.0 + 3.0 * std::exp(-i / 2e5) + 0.05 * std::sin(i * 0.37) + 0.02 * std::sin(i * 0.0011);
    }
    spec.series << s;

    PlotView view;
    const double buildMs = moewb::bench::showAndSetSpec(view, QSize(1200, 700), spec);
    QCustomPlot* plot = view.customPlot();
    if (!plot->graph(0)) {
        std::fprintf(stderr, "no graph\n");
        return 1;
    }
    medianReplot(plot, 2); // warm-up
    const Timing still = medianReplot(plot, 9);
    const Timing moved = medianZoomPan(plot, 9, points);
    const int drawn = plot->graph(0)->dataCount();

    // Baseline: a bare QCustomPlot of the same size with every point, the same 2 px pen
    // and QCustomPlot's adaptive sampling.
    QCustomPlot bare;
    bare.resize(plot->size());
    bare.show();
    QCPGraph* g = bare.addGraph();
    g->setPen(QPen(QColor(0x00, 0x72, 0xB2), 2.0)); // PlotView's line
    g->setAdaptiveSampling(true);
    g->setData(s.x, s.y, true);
    bare.xAxis->setRange(0, points);
    bare.yAxis->setRange(1.9, 5.1);
    medianReplot(&bare, 2);
    const Timing baseStill = medianReplot(&bare, 9);
    const Timing baseMoved = medianZoomPan(&bare, 9, points);
    // The same with QCustomPlot's fast polylines (PlotView's plotting hint): what the
    // decimation adds on top of the hint.
    bare.setPlottingHint(QCP::phFastPolylines, true);
    medianReplot(&bare, 2);
    const Timing fastStill = medianReplot(&bare, 9);
    const Timing fastMoved = medianZoomPan(&bare, 9, points);

    std::printf("points: %d, plot %dx%d px, %d points drawn after the last zoom (median of 9)\n", points,
                plot->width(), plot->height(), drawn);
    std::printf("setSpec (build once):                      %8.1f ms wall\n", buildMs);
    std::printf("replot, PlotView, same view:               %8.1f ms wall  %8.1f ms CPU\n", still.wallMs, still.cpuMs);
    std::printf("zoom/pan + replot, PlotView:               %8.1f ms wall  %8.1f ms CPU   target < 30 ms: %s\n",
                moved.wallMs, moved.cpuMs, moved.cpuMs < 30.0 ? "yes" : "NO");
    std::printf("replot, baseline QCustomPlot adaptive:     %8.1f ms wall  %8.1f ms CPU\n", baseStill.wallMs,
                baseStill.cpuMs);
    std::printf("zoom/pan + replot, baseline:               %8.1f ms wall  %8.1f ms CPU\n", baseMoved.wallMs,
                baseMoved.cpuMs);
    std::printf("replot, baseline + fast polylines:         %8.1f ms wall  %8.1f ms CPU\n", fastStill.wallMs,
                fastStill.cpuMs);
    std::printf("zoom/pan + replot, baseline + fast poly.:  %8.1f ms wall  %8.1f ms CPU\n", fastMoved.wallMs,
                fastMoved.cpuMs);
    std::printf("ratio baseline / PlotView (CPU): same view %.1f x, zoom/pan %.1f x; "
                "with fast polylines: %.1f x, %.1f x\n",
                baseStill.cpuMs / still.cpuMs, baseMoved.cpuMs / moved.cpuMs, fastStill.cpuMs / still.cpuMs,
                fastMoved.cpuMs / moved.cpuMs);
    return moved.cpuMs < 30.0 ? 0 : 1;
}
