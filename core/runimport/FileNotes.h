#pragma once
// What the plan says about one file beyond its role: the tests of a multi-test
// nccl-tests log left out (file:lines, why), and the damaged lines of a console log
// (file:line, what was kept, why the rest was left out).
#include "importers/ImportedData.h"

#include <QStringList>

namespace moewb::runimport {

QStringList fileNotes(const importers::ImportedData& data, const QString& shown);

} // namespace moewb::runimport
