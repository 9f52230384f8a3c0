#include "plotspec/Smoothing.h"

#include <algorithm>
#include <cmath>

namespace moewb::plots {

QVector<double> debiasedEma(const QVector<double>& values, double smoothing)
{
    if (!(smoothing > 0.0))
        return values;
    const double s = std::min(smoothing, 0.999);
    QVector<double> out;
    out.reserve(values.size());
    double last = 0.0;
    double weight = 1.0; // s^k
    for (double v : values) {
        if (!std::isfinite(v)) {
            out.append(v);
            continue;
        }
        last = last * s + (1.0 - s) * v;
        weight *= s;
        const double debias = 1.0 - weight;
        out.append(last / debias);
    }
    return out;
}

} // namespace moewb::plots
