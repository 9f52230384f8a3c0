#pragma once
// docs/formats.md, "jsonl-expert-load": one JSON object per line, {"step": N, "layer": L, "tokens": [...]}.
#include "importers/ImportSupport.h"

class QIODevice;

namespace moewb::importers {

class JsonlExpertLoadImporter {
public:
    static constexpr const char* kFormat = "jsonl-expert-load";
    static ImportResult parse(const QByteArray& bytes, const QString& fileName);
    // The same, the file read in blocks (never held whole): `size` only sizes the result.
    static ImportResult parseDevice(QIODevice& device, qint64 size, const QString& fileName);
    static ImportResult importFile(const QString& path) { return importWith(path, parse); }
};

} // namespace moewb::importers
