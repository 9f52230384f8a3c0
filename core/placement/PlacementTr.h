#pragma once
// Translation context for expert placement and dispatch traffic: Placement::tr("...").
#include <QCoreApplication>

namespace moewb::placement {
class Placement {
    Q_DECLARE_TR_FUNCTIONS(Placement)
};
} // namespace moewb::placement
