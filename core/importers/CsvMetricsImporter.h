#pragma once
// docs/formats.md, "csv-metrics": step metrics as CSV, wide (step,<metric>,<metric>,...)
// or long (step,metric,value). Empty cells are no value.
#include "importers/ImportSupport.h"

namespace moewb::importers {

class CsvMetricsImporter {
public:
    static constexpr const char* kFormat = "csv-metrics";
    static ImportResult parse(const QByteArray& bytes, const QString& fileName);
    static ImportResult importFile(const QString& path) { return importWith(path, parse); }
};

} // namespace moewb::importers
