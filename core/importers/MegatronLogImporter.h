#pragma once
// Megatron-LM and Megatron-DeepSpeed console logs: `iteration N/ M | key: value |`
// lines (with or without a timestamp or a pdsh "host: " prefix) and validation
// lines; every other line is noise and skipped.
#include "importers/ImportSupport.h"

namespace moewb::importers {

class MegatronLogImporter {
public:
    static constexpr const char* kFormat = "megatron-log";
    static ImportResult parse(const QByteArray& bytes, const QString& fileName);
    static ImportResult importFile(const QString& path) { return importWith(path, parse); }
    // True when the text holds an iteration line (used by format detection).
    static bool looksLikeMegatronLog(const QByteArray& head);
};

} // namespace moewb::importers
