#include "plotspec/Stacking.h"

#include <QMap>

#include <algorithm>
#include <cmath>

namespace moewb::plots {

namespace {
double height(double v) {
    return std::isfinite(v) && v > 0.0 ? v : 0.0;
}
} // namespace

QVector<double> stackBottoms(const PlotSpec& spec, int seriesIndex) {
    if (seriesIndex < 0 || seriesIndex >= spec.series.size())
        return {};
    const Series& self = spec.series[seriesIndex];
    const qsizetype n = std::min(self.x.size(), self.y.size());
    QVector<double> out(n, 0.0);
    if (self.style != SeriesStyle::StackedBars)
        return out;
    QMap<double, double> below; // x -> sum of the segments under it
    for (int si = 0; si < seriesIndex; ++si) {
        const Series& s = spec.series[si];
        if (s.style != SeriesStyle::StackedBars)
            continue;
        const qsizetype m = std::min(s.x.size(), s.y.size());
        for (qsizetype i = 0; i < m; ++i)
            below[s.x[i]] += height(s.y[i]);
    }
    for (qsizetype i = 0; i < n; ++i)
        out[i] = below.value(self.x[i], 0.0);
    return out;
}

double stackedMaximum(const PlotSpec& spec) {
    QMap<double, double> total;
    for (const Series& s : spec.series) {
        if (s.style != SeriesStyle::StackedBars)
            continue;
        const qsizetype m = std::min(s.x.size(), s.y.size());
        for (qsizetype i = 0; i < m; ++i)
            total[s.x[i]] += height(s.y[i]);
    }
    double top = 0.0;
    for (double t : total)
        top = std::max(top, t);
    return top;
}

} // namespace moewb::plots
