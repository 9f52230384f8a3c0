#pragma once
// What the plan says about one file beyond its role: the tests of a multi-test
// nccl-tests log left out (file:lines, why), and the damaged lines of a console log
// (file:line, what was kept, why the rest was left out).
#include "importers/ImportedData.h"

#include <QJsonObject>
#include <QStringList>

namespace moewb::runimport {

QStringList fileNotes(const importers::ImportedData& data, const QString& shown);

// The all-to-all tests (alltoall, alltoallv) of a multi-test nccl-tests log, as its run's
// environment names them: the one imported, then those left out (skipped_sections), each
// once. Two or more: the user chooses one (moewb import --collective; the import dialog).
QStringList allToAllTests(const QJsonObject& environment);

} // namespace moewb::runimport
