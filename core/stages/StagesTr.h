#pragma once
// Translation context of the stage gates: Stages::tr("...").
#include <QCoreApplication>

namespace moewb::stages {
class Stages {
    Q_DECLARE_TR_FUNCTIONS(Stages)
};
} // namespace moewb::stages
