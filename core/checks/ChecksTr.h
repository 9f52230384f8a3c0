#pragma once
// Translation context of the misjudgment checks: Checks::tr("...").
#include <QCoreApplication>

namespace moewb::checks {
class Checks {
    Q_DECLARE_TR_FUNCTIONS(Checks)
};
} // namespace moewb::checks
