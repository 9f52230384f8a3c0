#include "plotspec/TailView.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace moewb::plots {

std::optional<ViewRanges> tailViewRanges(const PlotSpec& spec, const QSet<QString>& hidden)
{
    const double fraction = spec.tailFraction;
    if (!(fraction > 0.0 && fraction < 1.0) || spec.x.scale != AxisScale::Linear)
        return std::nullopt;
    // The last part of the data's x span (not of the padded range).
    constexpr double inf = std::numeric_limits<double>::infinity();
    double xMin = inf, xMax = -inf;
    for (const Series& s : spec.series)
        for (double x : s.x)
            if (std::isfinite(x)) {
                xMin = std::min(xMin, x);
                xMax = std::max(xMax, x);
            }
    if (!(xMin < xMax))
        return std::nullopt;
    const double lower = xMax - (xMax - xMin) * fraction;
    double yMin = inf, yMax = -inf;
    for (const Series& s : spec.series) {
        if (hidden.contains(s.name) || s.colour < 0)
            continue; // reference lines (limits) do not set the zoom
        const qsizetype n = std::min(s.x.size(), s.y.size());
        for (qsizetype i = 0; i < n; ++i)
            if (s.x[i] >= lower && std::isfinite(s.y[i])) {
                yMin = std::min(yMin, s.y[i]);
                yMax = std::max(yMax, s.y[i]);
            }
    }
    if (!(yMin <= yMax))
        return std::nullopt;
    const double pad = yMax > yMin ? (yMax - yMin) * 0.08 : std::max(std::fabs(yMax) * 0.01, 1e-9);
    return ViewRanges{lower, xMax + (xMax - lower) * 0.02, yMin - pad, yMax + pad};
}

} // namespace moewb::plots
