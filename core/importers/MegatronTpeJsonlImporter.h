#pragma once
// docs/formats.md, "megatron-tpe-jsonl": one JSON object per line, {"iter": N, "layer": L, "tpe": [...]}.
#include "importers/ImportSupport.h"

namespace moewb::importers {

class MegatronTpeJsonlImporter {
public:
    static constexpr const char* kFormat = "megatron-tpe-jsonl";
    static ImportResult parse(const QByteArray& bytes, const QString& fileName);
    static ImportResult importFile(const QString& path) { return importWith(path, parse); }
};

} // namespace moewb::importers
