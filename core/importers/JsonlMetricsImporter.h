#pragma once
// docs/formats.md, "jsonl-metrics": one JSON object per line, {"step": N, "<metric>": value, ...};
// null is no value.
#include "importers/ImportSupport.h"

namespace moewb::importers {

class JsonlMetricsImporter {
public:
    static constexpr const char* kFormat = "jsonl-metrics";
    static ImportResult parse(const QByteArray& bytes, const QString& fileName);
    static ImportResult importFile(const QString& path) { return importWith(path, parse); }
};

} // namespace moewb::importers
