#pragma once
// The view of a zoomed panel (PlotSpec::tailFraction): the last part of the data's
// x span, y fitted to the curves there. One computation for the window (PlotView)
// and the PDF report (renderPlot), so both show the same numbers.
#include "plotspec/PlotSpec.h"

#include <QSet>
#include <QString>

#include <optional>

namespace moewb::plots {

struct ViewRanges {
    double xLower = 0.0, xUpper = 0.0;
    double yLower = 0.0, yUpper = 0.0;
};

// The ranges for spec.tailFraction: x from the data's last x − fraction × (x span) to
// the last x (plus 2 % of the shown span), y from the lowest to the highest point of the
// series shown there (reference lines — colour < 0 — and the series named in `hidden`
// left out) padded by 8 %. Nothing when the spec has no tail, a log x axis, or no point
// in the tail.
std::optional<ViewRanges> tailViewRanges(const PlotSpec& spec, const QSet<QString>& hidden = {});

} // namespace moewb::plots
