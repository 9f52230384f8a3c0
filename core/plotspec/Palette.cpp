#include "plotspec/Palette.h"

#include <algorithm>
#include <cmath>

namespace moewb::plots {

QVector<quint32> okabeItoPalette()
{
    // Okabe & Ito (2008), "Color Universal Design": orange, sky blue, bluish green,
    // yellow, blue, vermillion, reddish purple, black. Blue first: it reads best on
    // white and the single-series plots use it.
    return {0x0072B2, 0xE69F00, 0x009E73, 0xD55E00, 0x56B4E9, 0xCC79A7, 0xF0E442, 0x000000};
}

quint32 paletteColour(int index)
{
    if (index < 0)
        return referenceColour;
    static const QVector<quint32> colours = okabeItoPalette();
    // Black is reserved for reference lines: cycle over the seven colours.
    return colours[index % 7];
}

QVector<quint32> sequentialStops()
{
    // Viridis sampled at 0, 1/8, …, 1: perceptually uniform, monotonic lightness,
    // readable in grey scale and with colour blindness.
    return {0x440154, 0x472D7B, 0x3B528B, 0x2C728E, 0x21918C, 0x28AE80, 0x5EC962, 0xADDC30, 0xFDE725};
}

quint32 sequentialColour(double t)
{
    static const QVector<quint32> stops = sequentialStops();
    if (!std::isfinite(t))
        t = 0.0;
    t = std::clamp(t, 0.0, 1.0);
    const double pos = t * double(stops.size() - 1);
    const int i = std::min(int(pos), int(stops.size()) - 2);
    const double f = pos - i;
    auto channel = [&](int shift) {
        const double a = double((stops[i] >> shift) & 0xFF);
        const double b = double((stops[i + 1] >> shift) & 0xFF);
        return quint32(std::lround(a + (b - a) * f)) & 0xFF;
    };
    return (channel(16) << 16) | (channel(8) << 8) | channel(0);
}

} // namespace moewb::plots
