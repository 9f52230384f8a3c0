// Redraw time of PlotView's heatmaps at DeepSeek-V3 size on zoom and pan (not a
// test): expert × step for one layer (256 experts × 20,000 steps, every step) and
// layer × expert at one step (58 × 256), with the max-pooling level of detail
// (plotspec/Decimation.h: the visible cells pooled to at most one per pixel on every
// zoom and pan). Baseline measured in the same run: the same 256 × 20,000 cells in a
// bare QCustomPlot colour map (its own image of every cell, scaled into the rect,
// which drops cells). Prints wall and thread-CPU milliseconds, the ratio, and whether
// the hot cells are still drawn. Target: zoom/pan redraw < 100 ms (CPU; exit status 1
// when missed).
//
//   QT_QPA_PLATFORM=offscreen build/tests/bench/gui/bench_heatmap_lod [--steps N] [--size WxH]
#include "ReplotTiming.h"
#include "plots/PlotView.h"

#include <QApplication>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>

using namespace moewb::plots;

namespace {

using moewb::bench::Timing;

// Each repeat: a new x range (whole, zoomed 4×, 40×, panned), then the replot.
Timing zoomPan(QCustomPlot* plot, int repeats, double first, double last)
{
    return moewb::bench::medianZoomPan(plot, repeats, first, last, {4.0, 40.0}, 0.213);
}

// Pixels of the plot in the hottest colour of its gradient (the hot cells drawn).
int hotPixels(QCustomPlot* plot, QColor hot)
{
    const QImage image = plot->toPixmap().toImage();
    int n = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
            const QColor c = image.pixelColor(x, y);
            n += std::abs(c.red() - hot.red()) + std::abs(c.green() - hot.green()) + std::abs(c.blue() - hot.blue()) <= 24;
        }
    return n;
}

} // namespace

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const QStringList args = app.arguments();
    int steps = 20000, experts = 256, layers = 58;
    QSize size(1200, 700);
    for (int i = 1; i + 1 < args.size(); ++i) {
        if (args[i] == QLatin1String("--steps"))
            steps = args[i + 1].toInt();
        if (args[i] == QLatin1String("--size")) {
            const QStringList wh = args[i + 1].split(QLatin1Char('x'));
            if (wh.size() == 2)
                size = QSize(wh[0].toInt(), wh[1].toInt());
        }
    }

    // Tokens per expert around 4096, skewed, with 5 single hot (step, expert) cells.
    std::mt19937 rng(5);
    std::gamma_distribution<double> skew(8.0, 512.0);
    Heatmap h;
    h.columns = steps;
    h.rows = experts;
    h.xFirst = 1;
    h.xLast = steps;
    h.yFirst = 0;
    h.yLast = experts - 1;
    h.colourLabel = QStringLiteral("tokens");
    h.values.resize(qsizetype(steps) * experts);
    for (double& v : h.values)
        v = std::min(skew(rng), 12000.0);
    for (int k = 0; k < 5; ++k)
        h.values[qsizetype(rng() % experts) * steps + rng() % steps] = 40000.0;
    PlotSpec spec;
    spec.id = QStringLiteral("bench-expert-step");
    spec.title = QStringLiteral("Expert load over steps");
    spec.x = {QStringLiteral("Step"), AxisScale::Linear, AxisUnit::Steps, {}};
    spec.y = {QStringLiteral("Expert"), AxisScale::Linear, AxisUnit::None, {}};
    spec.heatmap = h;

    PlotView view;
    const double buildMs = moewb::bench::showAndSetSpec(view, size, spec);
    QCustomPlot* plot = view.customPlot();
    QCPColorGradient gradient = qobject_cast<QCPColorMap*>(plot->plottable(0))->gradient();
    const QColor hot = QColor::fromRgb(gradient.color(1.0, QCPRange(0, 1)));
    zoomPan(plot, 2, h.xFirst - 0.5, h.xLast + 0.5); // warm-up
    const Timing lod = zoomPan(plot, 9, h.xFirst - 0.5, h.xLast + 0.5);
    view.resetView();
    const int lodHot = hotPixels(plot, hot);

    // layer × expert at one step (58 × 256): fits, no pooling needed.
    Heatmap le;
    le.columns = experts;
    le.rows = layers;
    le.xFirst = 0;
    le.xLast = experts - 1;
    le.yFirst = 0;
    le.yLast = layers - 1;
    le.values = QVector<double>(h.values.mid(0, qsizetype(experts) * layers));
    PlotSpec leSpec = spec;
    leSpec.id = QStringLiteral("bench-layer-expert");
    leSpec.heatmap = le;
    PlotView leView;
    leView.resize(size);
    leView.show();
    leView.setSpec(leSpec);
    const Timing small = zoomPan(leView.customPlot(), 9, -0.5, experts - 0.5);

    // Baseline: every cell in a bare QCustomPlot colour map.
    QCustomPlot bare;
    bare.resize(plot->size());
    bare.show();
    auto* map = new QCPColorMap(bare.xAxis, bare.yAxis);
    map->data()->setSize(h.columns, h.rows);
    map->data()->setRange(QCPRange(h.xFirst, h.xLast), QCPRange(h.yFirst, h.yLast));
    for (int r = 0; r < h.rows; ++r)
        for (int c = 0; c < h.columns; ++c)
            map->data()->setCell(c, r, h.values[qsizetype(r) * h.columns + c]);
    map->setGradient(gradient);
    map->setInterpolate(false);
    map->rescaleDataRange(true);
    bare.xAxis->setRange(h.xFirst - 0.5, h.xLast + 0.5);
    bare.yAxis->setRange(h.yFirst - 0.5, h.yLast + 0.5);
    bare.replot(QCustomPlot::rpImmediateRefresh); // builds its image of every cell
    zoomPan(&bare, 2, h.xFirst - 0.5, h.xLast + 0.5);
    const Timing base = zoomPan(&bare, 9, h.xFirst - 0.5, h.xLast + 0.5);
    bare.xAxis->setRange(h.xFirst - 0.5, h.xLast + 0.5);
    bare.replot(QCustomPlot::rpImmediateRefresh);
    const int baseHot = hotPixels(&bare, hot);

    std::printf("expert x step heatmap: %d experts x %d steps, plot %dx%d px (median of 9 zoom/pan steps)\n", experts,
                steps, plot->width(), plot->height());
    std::printf("setSpec (build once):                     %8.1f ms wall\n", buildMs);
    std::printf("zoom/pan redraw, PlotView (max-pooled):   %8.1f ms wall  %8.1f ms CPU   target < 100 ms: %s\n",
                lod.wallMs, lod.cpuMs, lod.cpuMs < 100.0 ? "yes" : "NO");
    std::printf("zoom/pan redraw, layer x expert (%dx%d):  %8.1f ms wall  %8.1f ms CPU\n", layers, experts,
                small.wallMs, small.cpuMs);
    std::printf("zoom/pan redraw, baseline QCPColorMap:    %8.1f ms wall  %8.1f ms CPU\n", base.wallMs, base.cpuMs);
    std::printf("ratio baseline / PlotView (CPU):          %8.1f x\n", base.cpuMs / lod.cpuMs);
    std::printf("hot-cell pixels in the whole view: PlotView %d, baseline %d (5 hot cells)\n", lodHot, baseHot);
    return lod.cpuMs < 100.0 && small.cpuMs < 100.0 ? 0 : 1;
}
