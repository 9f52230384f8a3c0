#pragma once
// The fast path shared by the JSONL expert-load readers (Megatron tokens-per-expert
// and the generic jsonl-expert-load): one object per line, counts pulled straight
// from the text into ExpertLoadBlocks without building a document.
#include "importers/ImportSupport.h"

#include <QIODevice>

#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

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

// How a pass over the file treats the counts (docs/formats.md, "Memory"):
//   Keep:   every row's counts are kept in ImportedData::expertLoad (today's import);
//   Scan:   the structure only: every key and check of a line except the counts'
//           values, which are skipped (their number taken from the commas); expertLoad
//           holds the kept rows with empty counts (the plan's figures), and rows,
//           experts, dropped and stepOrdered say what the Stream pass will give;
//   Stream: the counts parsed for real and handed to `row`, one kept row at a time,
//           lines a Megatron resume superseded (`dropped`, from the Scan) read and
//           checked but not handed on; nothing is kept. Same messages as Keep.
struct ExpertLoadJsonlPass {
    enum class Mode { Keep, Scan, Stream };
    Mode mode = Mode::Keep;
    // Stream: one kept row; false stops the pass (the callee knows why).
    std::function<bool(qint64 step, int layer, std::span<const quint32> counts)> row;
    // Filled by Scan; Stream checks the file against them.
    qint64 rows = 0;                                  // kept rows
    qint64 experts = 0;                               // counts per row
    std::vector<std::pair<qint64, qint64>> dropped;   // [first, end) lines superseded by a resume, sorted
    bool stepOrdered = true;                          // the kept rows' steps never go back, in file order
    bool anyMtp = false;                              // a Megatron MTP record was read
    bool stopped = false;                             // Stream: `row` returned false
};

ImportResult parseExpertLoadJsonl(const QByteArray& bytes, const QString& file, const ExpertLoadJsonlLayout& layout);
// The same, reading `device` in blocks of blockBytes (the file is never held whole: the
// memory is one block, or the longest line, beside the counts read); `size` (the
// device's, when known) only sizes the result. Same results and messages as the above.
ImportResult parseExpertLoadJsonl(QIODevice& device, qint64 size, const QString& file,
                                  const ExpertLoadJsonlLayout& layout, qint64 blockBytes = qint64(16) << 20);
ImportResult parseExpertLoadJsonl(QIODevice& device, qint64 size, const QString& file,
                                  const ExpertLoadJsonlLayout& layout, ExpertLoadJsonlPass& pass,
                                  qint64 blockBytes = qint64(16) << 20);

} // namespace moewb::importers
