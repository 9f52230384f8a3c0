#pragma once
// The fast path shared by the JSONL expert-load readers (Megatron tokens-per-expert
// and the generic jsonl-expert-load): one object per line, counts pulled straight
// from the text into ExpertLoadBlocks without building a document.
#include "importers/ImportSupport.h"

#include <QIODevice>

#include <string>
#include <string_view>

namespace moewb::importers {

struct ExpertLoadJsonlLayout {
    const char* format;              // ImportedData::format
    std::string_view stepKey;        // "iter" / "step"
    std::string_view countsKey;      // "tpe" / "tokens"
    bool allowNested = false;        // counts may be [[...], ...] (summed over the outer level)
    // Megatron-Core (core_v0.18+, activation_logging.py): "block" ("decoder" | "mtp", absent =
    // decoder) and "mtp_idx" (required for MTP records, refused otherwise) are read into
    // ExpertLoadBlock::mtpIndex, duplicates are keyed on (iter, block, mtp_idx, layer), the
    // rank is taken from a "rank{N}.jsonl" file name and environment.mtp is set. And as
    // save_tpe appends to its file, a resumed training's lines replace the earlier run's:
    // an iteration before the last one, or a block of the last one again, begins them,
    // and the blocks from that iteration on are dropped (environment.resumes).
    bool megatronBlocks = false;
};

// MTP block indices 0 .. kMaxMtpIndex (Megatron's --mtp-num-layers is 1 to a few).
inline constexpr int kMaxMtpIndex = 63;

// The N of a file whose base name is exactly `prefix` N `suffix` ("rank3.jsonl",
// "router_trace_rank12.jsonl"); -1 when the name is not of that shape or N is absurd
// (at least 2^20, ImportLimits.h kMaxRanks).
qint64 rankOfFileName(const QString& fileName, std::string_view prefix, std::string_view suffix);

// One 64-bit key per (step, MTP block or decoder, layer): step <= 10^12 < 2^40,
// mtpIndex + 1 <= 64 (6 bits), layer <= 10000 < 2^14.
inline qint64 expertLoadBlockKey(qint64 step, int mtpIndex, int layer) {
    return (step << 20) | (qint64(mtpIndex + 1) << 14) | qint64(layer);
}

class JsonCursor;
// Megatron-Core's record keys, read the same way by its tokens-per-expert files and its
// router traces: the value of "block" ("decoder" or "mtp": isMtp) and of "mtp_idx"
// (0 .. kMaxMtpIndex). False on a bad value, the cursor's error() saying why.
bool readMegatronBlock(JsonCursor& c, std::string& scratch, bool& isMtp);
bool readMtpIndex(JsonCursor& c, quint64& mtpIndex);

ImportResult parseExpertLoadJsonl(const QByteArray& bytes, const QString& file, const ExpertLoadJsonlLayout& layout);
// The same, reading `device` in blocks of blockBytes (the file is never held whole: the
// memory is one block, or the longest line, beside the counts read); `size` (the
// device's, when known) only sizes the result. Same results and messages as the above.
ImportResult parseExpertLoadJsonl(QIODevice& device, qint64 size, const QString& file,
                                  const ExpertLoadJsonlLayout& layout, qint64 blockBytes = qint64(16) << 20);

} // namespace moewb::importers
