#pragma once
// Megatron-LM and Megatron-DeepSpeed console logs: `iteration N/ M | key: value |`
// lines (with or without a timestamp or a pdsh "host: " prefix) and validation
// lines; every other line is noise and skipped.
#include "importers/ImportSupport.h"

namespace moewb::importers {

class MegatronLogImporter {
public:
    static constexpr const char* kFormat = "megatron-log";
    // Damaged lines keep their readable fields and are listed in
    // environment.damaged_lines (DamagedLines.h); the file is refused only when no
    // iteration or validation line remains. strict: the first damaged line refuses it.
    static ImportResult parseWith(const QByteArray& bytes, const QString& fileName, bool strict);
    static ImportResult parse(const QByteArray& bytes, const QString& fileName) {
        return parseWith(bytes, fileName, false);
    }
    static ImportResult parseStrict(const QByteArray& bytes, const QString& fileName) {
        return parseWith(bytes, fileName, true);
    }
    static ImportResult importFile(const QString& path) { return importWith(path, parse); }
    // True when the text holds an iteration line (used by format detection).
    static bool looksLikeMegatronLog(const QByteArray& head);
};

} // namespace moewb::importers
