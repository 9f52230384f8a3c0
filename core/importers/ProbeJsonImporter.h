#pragma once
// moe-probe/1 reports (docs/probe-json.md): one CommSample per timed iteration when
// repeats carry samples_us, else one per repeat from its median (older reports).
#include "importers/ImportSupport.h"

namespace moewb::importers {

class ProbeJsonImporter {
public:
    static constexpr const char* kFormat = "probe-json";
    static ImportResult parse(const QByteArray& bytes, const QString& fileName);
    static ImportResult importFile(const QString& path) { return importWith(path, parse); }
};

} // namespace moewb::importers
