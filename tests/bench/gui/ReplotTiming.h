#pragma once
// The timing harness of the plot benchmarks (bench_plot_replot, bench_heatmap_lod):
// median wall-clock and thread-CPU time of a QCustomPlot replot, at an unchanged view
// or after a zoom or pan. On a shared machine the CPU time is the fairer figure: wall
// time includes waiting for a core.
#include "plots/PlotView.h"

#include <QElapsedTimer>
#include <QList>
#include <QVector>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <ctime>

namespace moewb::bench {

inline double threadCpuMs() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

struct Timing {
    double wallMs = 0.0;
    double cpuMs = 0.0;
};

// Shows `view` at `size`, then gives it `spec`: the wall-clock milliseconds setSpec took.
inline double showAndSetSpec(plots::PlotView& view, QSize size, const plots::PlotSpec& spec) {
    view.resize(size);
    view.show();
    QElapsedTimer t;
    t.start();
    view.setSpec(spec);
    return t.nsecsElapsed() / 1e6;
}

// Each of `repeats`: `step(i)` (which may change the view), then the replot, timed together.
template <typename Step>
Timing medianReplot(QCustomPlot* plot, int repeats, Step step) {
    QVector<double> wall, cpu;
    for (int i = 0; i < repeats; ++i) {
        QElapsedTimer t;
        const double c0 = threadCpuMs();
        t.start();
        step(i);
        plot->replot(QCustomPlot::rpImmediateRefresh);
        wall << t.nsecsElapsed() / 1e6;
        cpu << threadCpuMs() - c0;
    }
    std::sort(wall.begin(), wall.end());
    std::sort(cpu.begin(), cpu.end());
    return {wall[wall.size() / 2], cpu[cpu.size() / 2]};
}

// Replots at the current view.
inline Timing medianReplot(QCustomPlot* plot, int repeats) {
    return medianReplot(plot, repeats, [](int) {});
}

// Zoom and pan, as a wheel or drag step does: each repeat sets a new x range (the
// whole [first, last], then each of `zooms` of it in turn: 4 is a quarter), panned by
// `pan` of the whole span per repeat, then replots.
inline Timing medianZoomPan(QCustomPlot* plot, int repeats, double first, double last, const QList<double>& zooms,
                            double pan) {
    const double all = last - first;
    return medianReplot(plot, repeats, [&](int i) {
        const int k = i % (int(zooms.size()) + 1);
        const double span = k == 0 ? all : all / zooms[k - 1];
        const double lower = first + std::fmod(i * pan * all, all - span + 1e-9);
        plot->xAxis->setRange(lower, lower + span);
    });
}

} // namespace moewb::bench
