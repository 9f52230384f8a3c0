#pragma once
// Colours of every plot: the Okabe–Ito palette (distinguishable with the common
// forms of colour blindness) for series, and a perceptual sequential map
// (viridis-like: lightness rises monotonically) for heatmaps. Colours are
// 0xRRGGBB integers so specs and the core stay free of QtGui.
#include <QVector>
#include <QtGlobal>

namespace moewb::plots {

// The eight Okabe–Ito colours, black last (used for reference lines).
QVector<quint32> okabeItoPalette();
// Series colour `index` (cycles over the first seven; negative indices give black).
quint32 paletteColour(int index);
// The colour of reference lines (limits, ideal values): Okabe–Ito black.
inline constexpr quint32 referenceColour = 0x000000;
// Stops of the heatmap map, evenly spaced from low (dark violet) to high (yellow).
QVector<quint32> sequentialStops();
// The sequential map at t in [0,1] (clamped), linear between stops.
quint32 sequentialColour(double t);

} // namespace moewb::plots
