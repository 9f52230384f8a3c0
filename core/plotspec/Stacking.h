#pragma once
// Where the segments of stacked bars sit (SeriesStyle::StackedBars): each segment on
// the StackedBars series before it in the spec, at the same x. One definition for both
// renderers, the hover and the tests.
#include "plotspec/PlotSpec.h"

#include <QVector>

namespace moewb::plots {

// For each point of series `seriesIndex`, the sum of the earlier StackedBars series'
// values at the same x (non-finite and negative values count as 0): where its segment
// starts. All zeros for a series that is not StackedBars.
QVector<double> stackBottoms(const PlotSpec& spec, int seriesIndex);

// The top of the highest stack (0 when the spec has no stacked bars).
double stackedMaximum(const PlotSpec& spec);

} // namespace moewb::plots
