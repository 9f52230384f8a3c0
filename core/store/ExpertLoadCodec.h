#pragma once
// Expert load on disk (schema version 5, docs/store.md): one chunk per (run, layer) of
// up to kChunkSteps consecutive logged steps. A chunk's counts are stored column by
// column (one expert's counts over the chunk's steps), each count as the zigzag varint
// of its difference from the same expert's count at the previous step, and the whole
// chunk zstd-compressed. Beside each chunk, its per-(step, layer) summary (sum, max,
// argmax, busiest EP rank's tokens, dropped tokens) is stored the same way, so stage 3
// reads figures without decoding counts.
//
// Version 2–4 files held one blob per (step, layer) (codec 0, raw little-endian
// uint32); encodeExpertLoad/decodeExpertLoad read and write that form (the 4 → 5
// migration reads it).
#include <QByteArray>
#include <QString>
#include <QVector>

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace moewb::store {

enum class ExpertLoadCodec : int {
    RawUInt32LE = 0,     // schema 2–4 blob: E little-endian uint32 counts, 4·E bytes
    DeltaVarintZstd = 1, // schema 5 chunk and summary: delta columns, zigzag varints, zstd
};

// Steps per chunk: a chunk of 256 steps × 256 experts is 256 KiB of raw counts.
constexpr int kChunkSteps = 256;

// Bounds on reading (docs/store.md, "Reading a project from someone else"). A project
// file is input from someone else: every figure a chunk, summary or totals row or its
// blob claims is checked against these before anything is allocated for it. They are
// the writer's own limits: ExpertLoadSink cuts a layer's rows into chunks of at most
// kChunkSteps steps and refuses a row of more than kMaxChunkExperts experts or a layer
// outside 0..kMaxLayer.
constexpr int kMaxChunkExperts = 65536;
constexpr int kMaxLayer = 65535;
// A chunk's uncompressed stream for (rows, experts) is at least 2 + rows + rows ×
// experts bytes (one byte per varint) and at most 20 + 10 · rows + 5 · rows × experts
// (a step difference takes up to 10 bytes, a count's difference up to 5); a summary's
// at most 2 + 60 · rows (six 10-byte varints a row); a totals blob's at most 20 + 10 ·
// rows + 10 · experts. A zstd frame whose declared content size falls outside its
// row's range is refused without being inflated, and one that inflates to anything but
// its declared size is refused too. The largest legal frame (256 × 65,536) inflates to
// 80 MiB: the hard cap.
std::size_t maxChunkStreamBytes(int rows, int experts);
constexpr std::size_t kMaxStreamBytes = 20 + 10 * std::size_t(kChunkSteps) +
                                        5 * std::size_t(kChunkSteps) * std::size_t(kMaxChunkExperts);
// Empty when a chunk, summary or totals row of `rows` steps and `experts` experts at
// `layer` fits the bounds above (rows and experts as read from the file, before any
// narrowing); else why not ("it claims 2147483647 steps (1 to 256)").
QString chunkShapeProblem(qint64 layer, qint64 rows, qint64 experts);

QByteArray encodeExpertLoad(const QVector<quint32>& tokensPerExpert,
                            ExpertLoadCodec codec = ExpertLoadCodec::RawUInt32LE);
// nullopt for an unknown codec or a blob whose size does not fit the codec (or holds
// more than kMaxChunkExperts counts).
std::optional<QVector<quint32>> decodeExpertLoad(int codec, const QByteArray& blob);

// One chunk: `steps` strictly increasing, `counts` row-major (steps.size() × experts).
QByteArray encodeExpertLoadChunk(std::span<const qint64> steps, std::span<const quint32> counts, int experts);
struct DecodedChunk {
    QVector<qint64> steps;
    QVector<quint32> counts; // row-major: steps.size() × experts
    int experts = 0;
};
// nullopt for an unknown codec, a shape outside the bounds above, a damaged blob, one
// whose shape is not (rows, experts), steps that do not strictly increase, or a count
// outside 0..2^32 − 1; `why` (optional) then says which, in a few words. Nothing is
// allocated for the counts before the frame has inflated to its checked size.
std::optional<DecodedChunk> decodeExpertLoadChunk(int codec, const QByteArray& blob, int rows, int experts,
                                                  QString* why = nullptr);

// The summary of one (step, layer): what stage 3's gate and curves need.
struct LoadSummaryValues {
    qint64 step = 0;
    std::uint64_t sum = 0;
    std::uint32_t max = 0;
    int argmax = 0;                              // the first expert with the max
    std::optional<std::uint64_t> busiestRankTokens; // when the EP size is known
    std::optional<qint64> droppedTokens;         // when the source says
};
// Sum, max and argmax of one block, and the busiest of `expertParallel` contiguous
// rank groups (stats::busiestRankLoad's placement) when expertParallel > 0.
LoadSummaryValues summarizeCounts(qint64 step, std::span<const quint32> counts, int expertParallel);

QByteArray encodeLoadSummary(std::span<const LoadSummaryValues> rows);
// nullopt, with `why`, as for a chunk; besides, each row's figures must be ones counts
// of `experts` experts can give: max ≤ sum ≤ experts × (2^32 − 1), argmax < experts,
// busiest rank's tokens ≤ sum, and the steps strictly increase.
std::optional<QVector<LoadSummaryValues>> decodeLoadSummary(int codec, const QByteArray& blob, int rows,
                                                            int experts = kMaxChunkExperts, QString* why = nullptr);

// A chunk's per-expert totals (schema version 6, `expert_load_totals.totals`): each
// expert's count summed over the chunk's steps, with the steps, so that a sum over a
// window of steps reads whole chunks without decoding their counts. Codec 1: a zstd
// frame of varints — the row count, the expert count, the steps as in the chunk, then
// each expert's total.
QByteArray encodeExpertTotals(std::span<const qint64> steps, std::span<const std::uint64_t> totals);
// Each expert's total over the chunk's rows (row-major counts, rows × experts).
std::vector<std::uint64_t> chunkTotals(std::span<const quint32> counts, int experts);
struct DecodedTotals {
    QVector<qint64> steps;
    std::vector<std::uint64_t> totals; // one per expert
};
// nullopt, with `why`, as for a chunk; a total above rows × (2^32 − 1) is refused.
std::optional<DecodedTotals> decodeExpertTotals(int codec, const QByteArray& blob, int rows, int experts,
                                                QString* why = nullptr);

} // namespace moewb::store
