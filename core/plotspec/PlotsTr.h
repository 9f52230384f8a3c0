#pragma once
// Translation context of the plot builders (Plots::tr("...")).
#include <QCoreApplication>

namespace moewb::plots {
class Plots {
    Q_DECLARE_TR_FUNCTIONS(Plots)
};
} // namespace moewb::plots
