#pragma once
// docs/formats.md, "csv-expert-load": step,layer,<expert 0>,<expert 1>,... one row per
// (step, layer) with the tokens routed to each expert.
#include "importers/ImportSupport.h"

namespace moewb::importers {

class CsvExpertLoadImporter {
public:
    static constexpr const char* kFormat = "csv-expert-load";
    static ImportResult parse(const QByteArray& bytes, const QString& fileName);
    static ImportResult importFile(const QString& path) { return importWith(path, parse); }
};

} // namespace moewb::importers
