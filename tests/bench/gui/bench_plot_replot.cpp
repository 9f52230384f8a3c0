// Replot time of a 1,000,000-point sorted line in PlotView, against a baseline
// measured in the same run: the same graph with adaptive sampling off (every point
// drawn). Also the time setSpec takes to build the plot (once per spec, not per
// replot). Prints wall and thread-CPU milliseconds and the ratio. Target: replot
// < 100 ms (CPU time; exit status 1 when missed).
#include "plots/PlotView.h"

#include <QApplication>
#include <QElapsedTimer>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>

using namespace moewb::plots;

namespace {

double threadCpuMs()
{
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

// Median wall-clock and CPU time (this thread) of one replot. On a shared machine
// the CPU time is the fairer figure: wall time includes waiting for a core.
struct Timing {
    double wallMs = 0.0;
    double cpuMs = 0.0;
};

Timing medianReplot(QCustomPlot* plot, int repeats)
{
    QVector<double> wall, cpu;
    for (int i = 0; i < repeats; ++i) {
        QElapsedTimer t;
        const double c0 = threadCpuMs();
        t.start();
        plot->replot(QCustomPlot::rpImmediateRefresh);
        wall << t.nsecsElapsed() / 1e6;
        cpu << threadCpuMs() - c0;
    }
    std::sort(wall.begin(), wall.end());
    std::sort(cpu.begin(), cpu.end());
    return {wall[wall.size() / 2], cpu[cpu.size() / 2]};
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
    view.resize(1200, 700);
    view.show();
    QElapsedTimer build;
    build.start();
    view.setSpec(spec);
    const double buildMs = build.nsecsElapsed() / 1e6;
    QCustomPlot* plot = view.customPlot();
    QCPGraph* graph = plot->graph(0);
    if (!graph) {
        std::fprintf(stderr, "no graph\n");
        return 1;
    }

    medianReplot(plot, 2); // warm-up
    const Timing adaptive = medianReplot(plot, 9);
    graph->setAdaptiveSampling(false);
    const Timing baseline = medianReplot(plot, 3);
    graph->setAdaptiveSampling(true);

    std::printf("points: %d, plot %dx%d px (median of 9 replots; baseline median of 3)\n", points,
                plot->width(), plot->height());
    std::printf("setSpec (build once):                    %9.1f ms wall\n", buildMs);
    std::printf("replot, PlotView (adaptive sampling):    %9.1f ms wall  %9.1f ms CPU   target < 100 ms: %s\n",
                adaptive.wallMs, adaptive.cpuMs, adaptive.cpuMs < 100.0 ? "yes" : "NO");
    std::printf("replot, baseline (adaptive sampling off): %8.1f ms wall  %9.1f ms CPU\n", baseline.wallMs,
                baseline.cpuMs);
    std::printf("ratio baseline / PlotView (CPU):         %9.1f x\n", baseline.cpuMs / adaptive.cpuMs);
    return adaptive.cpuMs < 100.0 ? 0 : 1;
}
