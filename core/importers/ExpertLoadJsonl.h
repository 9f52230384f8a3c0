#pragma once
// The fast path shared by the JSONL expert-load readers (Megatron tokens-per-expert
// and the generic jsonl-expert-load): one object per line, counts pulled straight
// from the text into ExpertLoadBlocks without building a document.
#include "importers/ImportSupport.h"

#include <string_view>

namespace moewb::importers {

struct ExpertLoadJsonlLayout {
    const char* format;              // ImportedData::format
    std::string_view stepKey;        // "iter" / "step"
    std::string_view countsKey;      // "tpe" / "tokens"
    bool allowNested = false;        // counts may be [[...], ...] (summed over the outer level)
};

ImportResult parseExpertLoadJsonl(const QByteArray& bytes, const QString& file, const ExpertLoadJsonlLayout& layout);

} // namespace moewb::importers
