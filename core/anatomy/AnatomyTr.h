#pragma once
// The translation context of core/anatomy's messages ("Anatomy").
#include <QCoreApplication>

namespace moewb::anatomy {

class AnatomyTr {
    Q_DECLARE_TR_FUNCTIONS(Anatomy)
};

} // namespace moewb::anatomy
