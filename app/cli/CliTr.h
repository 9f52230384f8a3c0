#pragma once
// Translation context for the command-line program: Cli::tr("...").
#include <QCoreApplication>

namespace moewb::cli {
class Cli {
    Q_DECLARE_TR_FUNCTIONS(Cli)
};
} // namespace moewb::cli
