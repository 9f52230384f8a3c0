#pragma once
// Translation context of the demo generator (Demo::tr("...")).
#include <QCoreApplication>

namespace moewb::demo {
class Demo {
    Q_DECLARE_TR_FUNCTIONS(Demo)
};
} // namespace moewb::demo
