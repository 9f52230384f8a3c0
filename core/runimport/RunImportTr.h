#pragma once
// The translation context of core/runimport's messages.
#include <QCoreApplication>

namespace moewb::runimport {

class RunImportTr {
    Q_DECLARE_TR_FUNCTIONS(RunImport)
};

} // namespace moewb::runimport
