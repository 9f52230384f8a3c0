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

QByteArray encodeExpertLoad(const QVector<quint32>& tokensPerExpert,
                            ExpertLoadCodec codec = ExpertLoadCodec::RawUInt32LE);
// nullopt for an unknown codec or a blob whose size does not fit the codec.
std::optional<QVector<quint32>> decodeExpertLoad(int codec, const QByteArray& blob);

// One chunk: `steps` strictly increasing, `counts` row-major (steps.size() × experts).
QByteArray encodeExpertLoadChunk(std::span<const qint64> steps, std::span<const quint32> counts, int experts);
struct DecodedChunk {
    QVector<qint64> steps;
    QVector<quint32> counts; // row-major: steps.size() × experts
    int experts = 0;
};
// nullopt for an unknown codec, a damaged blob, or one whose shape is not (rows, experts).
std::optional<DecodedChunk> decodeExpertLoadChunk(int codec, const QByteArray& blob, int rows, int experts);

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
std::optional<QVector<LoadSummaryValues>> decodeLoadSummary(int codec, const QByteArray& blob, int rows);

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
// nullopt for an unknown codec, a damaged blob, or one whose shape is not (rows, experts).
std::optional<DecodedTotals> decodeExpertTotals(int codec, const QByteArray& blob, int rows, int experts);

} // namespace moewb::store
