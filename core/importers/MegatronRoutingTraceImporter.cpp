#include "importers/MegatronRoutingTraceImporter.h"

#include "importers/ExpertLoadJsonl.h"
#include "importers/ImportLimits.h"
#include "importers/JsonCursor.h"
#include "importers/MetricNames.h"
#include "importers/TextLines.h"

#include <QHash>
#include <QJsonArray>

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

namespace moewb::importers {

namespace {

// 2^27 counts (512 MiB): far above a real trace's (step, layer, expert) cells. The bound
// is on the padded result, blocks x (max expert index + 1), checked as the file is read.
constexpr qint64 kMaxTraceCounts = qint64(1) << 27;
// Expert indices 0 .. kMaxExperts - 1 (MetricNames.h); top-k 1 .. kMaxTopk per token.
constexpr quint64 kMaxTopk = 4096;
// Tokens in one router call (sequence x micro-batch on one rank).
constexpr quint64 kMaxTokensPerCall = quint64(1) << 31;
// Distinct "stage" values kept for environment.stages (the writer has one: "pre_dispatch").
constexpr size_t kMaxStages = 16;

struct Block {
    qint64 key = 0;
    qint64 step = 0;
    int layer = 0;
    int mtpIndex = -1;
    qint64 calls = 0; // records summed into it
    std::vector<quint32> counts;
};

} // namespace

ImportResult MegatronRoutingTraceImporter::parse(const QByteArray& bytes, const QString& file) {
    ImportedData data;
    data.format = QString::fromLatin1(kFormat);
    // The tracer writes DIR/router_trace_rank{rank}.jsonl.
    const qint64 fileRank = rankOfFileName(file, "router_trace_rank", ".jsonl");
    QHash<qint64, qsizetype> blockIndex; // expertLoadBlockKey -> index in blocks
    std::vector<Block> blocks;
    qint64 width = 0; // max expert index seen + 1
    qint64 rank = -1, rankLine = 0;
    qint64 topkAll = -1, topkLine = 0;
    qint64 tokens = 0;
    bool anyMtp = false;
    std::vector<std::string> stages;
    std::string scratch, valueScratch;
    std::vector<quint32> assignments; // this line's expert indices, row after row

    TextLines lines(bytes);
    std::string_view line;
    while (lines.next(line)) {
        const qint64 n = lines.lineNumber();
        JsonCursor c(line.data(), line.data() + line.size(), n);
        if (c.atEnd())
            continue; // blank line
        std::string_view field;
        quint64 step = 0, layer = 0, lineRank = 0, numTokens = 0, topk = 0, mtpIndex = 0;
        bool haveStep = false, haveLayer = false, haveRank = false, haveTokens = false, haveTopk = false,
             haveIndices = false, haveBlock = false, haveMtpIndex = false, isMtp = false;
        qint64 rows = 0, firstWidth = -1, badRow = -1, badWidth = 0;
        quint32 lineMax = 0;
        assignments.clear();
        const bool read = c.readLineObject(scratch, field, [&](std::string_view key) {
            auto once = [&](bool& have) {
                if (have)
                    return false;
                have = true;
                return true;
            };
            if (key == "step") {
                if (!once(haveStep))
                    return c.fail(ImportTr::tr("appears twice"), true);
                if (!c.readUnsigned(step))
                    return false;
                if (step > quint64(kMaxStep))
                    return c.fail(ImportTr::tr("is absurd: %1 (at most %2)").arg(step).arg(kMaxStep), true);
            } else if (key == "layer") {
                if (!once(haveLayer))
                    return c.fail(ImportTr::tr("appears twice"), true);
                if (!c.readUnsigned(layer))
                    return false;
                if (layer > quint64(kMaxLayer))
                    return c.fail(ImportTr::tr("is absurd: %1 (at most %2)").arg(layer).arg(kMaxLayer), true);
            } else if (key == "block") {
                if (!once(haveBlock))
                    return c.fail(ImportTr::tr("appears twice"), true);
                if (!readMegatronBlock(c, valueScratch, isMtp))
                    return false;
            } else if (key == "mtp_idx") {
                if (!once(haveMtpIndex))
                    return c.fail(ImportTr::tr("appears twice"), true);
                if (!readMtpIndex(c, mtpIndex))
                    return false;
            } else if (key == "rank") {
                if (!once(haveRank))
                    return c.fail(ImportTr::tr("appears twice"), true);
                if (!c.readUnsigned(lineRank))
                    return false;
                if (lineRank >= quint64(kMaxRanks))
                    return c.fail(ImportTr::tr("is absurd: %1 (at most %2)").arg(lineRank).arg(kMaxRanks - 1), true);
                if (fileRank >= 0 && lineRank != quint64(fileRank))
                    return c.fail(ImportTr::tr("is %1 but the file name says rank %2").arg(lineRank).arg(fileRank), true);
                if (rank >= 0 && lineRank != quint64(rank))
                    return c.fail(ImportTr::tr("is %1 but line %2 says %3 (one file is one rank's)")
                                    .arg(lineRank)
                                    .arg(rankLine)
                                    .arg(rank), true);
                if (rank < 0) {
                    rank = qint64(lineRank);
                    rankLine = n;
                }
            } else if (key == "num_tokens") {
                if (!once(haveTokens))
                    return c.fail(ImportTr::tr("appears twice"), true);
                if (!c.readUnsigned(numTokens))
                    return false;
                if (numTokens > kMaxTokensPerCall)
                    return c.fail(ImportTr::tr("is absurd: %1 (at most %2)").arg(numTokens).arg(kMaxTokensPerCall), true);
            } else if (key == "topk") {
                if (!once(haveTopk))
                    return c.fail(ImportTr::tr("appears twice"), true);
                if (c.peek() == '[')
                    return c.fail(ImportTr::tr("must be a number (the top-k of the router); per-token expert "
                                             "lists are the routing-trace-jsonl format"), true);
                if (!c.readUnsigned(topk))
                    return false;
                if (topk < 1 || topk > kMaxTopk)
                    return c.fail(ImportTr::tr("is absurd: %1 (1 to %2)").arg(topk).arg(kMaxTopk), true);
                if (topkAll >= 0 && qint64(topk) != topkAll)
                    return c.fail(ImportTr::tr("is %1 but line %2 says %3").arg(topk).arg(topkLine).arg(topkAll), true);
                if (topkAll < 0) {
                    topkAll = qint64(topk);
                    topkLine = n;
                }
            } else if (key == "stage") {
                std::string_view value;
                if (c.peek() != '"')
                    return c.fail(ImportTr::tr("must be a string"), true);
                if (!c.readString(value, valueScratch))
                    return false;
                if (std::find(stages.begin(), stages.end(), value) == stages.end()) {
                    if (stages.size() >= kMaxStages)
                        return c.fail(ImportTr::tr("more than %1 different stages in one file").arg(kMaxStages), true);
                    stages.emplace_back(value);
                }
            } else if (key == "top_indices") {
                if (!once(haveIndices))
                    return c.fail(ImportTr::tr("appears twice"), true);
                if (!c.consume('['))
                    return c.fail(ImportTr::tr("must be an array of arrays of expert indices, one per token"), true);
                if (!c.consume(']')) {
                    do {
                        if (!c.consume('['))
                            return c.fail(ImportTr::tr("must be an array of arrays of expert indices, one per token"), true);
                        const size_t before = assignments.size();
                        const bool ok = c.readUnsignedArrayRest([&](qint64, quint64 v) {
                            if (v >= quint64(kMaxExperts))
                                return c.fail(ImportTr::tr("expert index %1 is absurd (at most %2)")
                                                  .arg(v)
                                                  .arg(kMaxExperts - 1));
                            lineMax = std::max(lineMax, quint32(v));
                            assignments.push_back(quint32(v));
                            return true;
                        });
                        if (!ok)
                            return false;
                        const qint64 rowWidth = qint64(assignments.size() - before);
                        if (firstWidth < 0)
                            firstWidth = rowWidth;
                        else if (rowWidth != firstWidth && badRow < 0) {
                            badRow = rows;
                            badWidth = rowWidth;
                        }
                        ++rows;
                    } while (c.consume(','));
                    if (!c.consume(']'))
                        return c.fail(c.peek() ? ImportTr::tr("',' or ']' was expected")
                                             : ImportTr::tr("the line ends inside the array (truncated)"), true);
                }
            } else if (!c.skipValue()) {
                // hs_offset, hs_bytes, hs_shape, logit_offset, logit_bytes, logit_shape
                // (sidecar tensors) and anything else: skipped.
                return false;
            }
            return true;
        });
        if (!read)
            return importError(file, n, toQString(field), c.error());
        for (const auto& [have, name] :
             {std::pair{haveStep, "step"}, std::pair{haveBlock, "block"}, std::pair{haveLayer, "layer"},
              std::pair{haveRank, "rank"}, std::pair{haveTokens, "num_tokens"}, std::pair{haveTopk, "topk"},
              std::pair{haveIndices, "top_indices"}})
            if (!have)
                return importError(file, n, QLatin1String(name), ImportTr::tr("is missing"));
        if (isMtp && !haveMtpIndex)
            return importError(file, n, QStringLiteral("mtp_idx"), ImportTr::tr("is missing (block is \"mtp\")"));
        if (!isMtp && haveMtpIndex)
            return importError(file, n, QStringLiteral("mtp_idx"),
                               ImportTr::tr("is given but the block is \"decoder\" (mtp_idx belongs to MTP records)"));
        if (quint64(rows) != numTokens)
            return importError(file, n, QStringLiteral("top_indices"),
                               ImportTr::tr("has %1 rows but num_tokens is %2 (one row per token)").arg(rows).arg(numTokens));
        if (rows > 0 && firstWidth != qint64(topk))
            return importError(file, n, QStringLiteral("top_indices"),
                               ImportTr::tr("row 0 has %1 expert indices but topk is %2").arg(firstWidth).arg(topk));
        if (badRow >= 0)
            return importError(file, n, QStringLiteral("top_indices"),
                               ImportTr::tr("row %1 has %2 expert indices but topk is %3").arg(badRow).arg(badWidth).arg(topk));

        const int mtp = isMtp ? int(mtpIndex) : -1;
        anyMtp = anyMtp || isMtp;
        const qint64 key = expertLoadBlockKey(qint64(step), mtp, int(layer));
        auto it = blockIndex.constFind(key);
        const bool isNew = it == blockIndex.constEnd();
        const qint64 widthAfter = assignments.empty() ? width : std::max(width, qint64(lineMax) + 1);
        const qint64 blocksAfter = qint64(blocks.size()) + (isNew ? 1 : 0);
        // A short line can name expert 1048575: bound what the padded counts will take.
        if (blocksAfter * widthAfter > kMaxTraceCounts)
            return importError(file, n, QStringLiteral("top_indices"),
                               ImportTr::tr("is absurd here: %1 (step, layer) blocks of %2 expert indices exceed %3 "
                                            "counts in one file")
                                   .arg(blocksAfter)
                                   .arg(widthAfter)
                                   .arg(kMaxTraceCounts));
        width = widthAfter;
        qsizetype index;
        if (isNew) {
            index = qsizetype(blocks.size());
            blockIndex.insert(key, index);
            blocks.push_back(Block{key, qint64(step), int(layer), mtp, 0, {}});
        } else {
            index = *it;
        }
        Block& b = blocks[size_t(index)];
        ++b.calls;
        if (!assignments.empty() && b.counts.size() <= lineMax)
            b.counts.resize(size_t(lineMax) + 1, 0);
        quint32* counts = b.counts.data();
        for (quint32 e : assignments) {
            if (counts[e] == std::numeric_limits<quint32>::max())
                return importError(file, n, QStringLiteral("top_indices"),
                                   ImportTr::tr("is absurd: more than %1 assignments to expert %2")
                                       .arg(std::numeric_limits<quint32>::max())
                                       .arg(e));
            ++counts[e];
        }
        tokens += qint64(numTokens);
        ++data.rows;
    }
    if (data.rows == 0)
        return importError(file, 0, {}, ImportTr::tr("no routing-trace records found (the file is empty)"));
    if (width == 0)
        return importError(file, 0, {},
                           ImportTr::tr("no expert index in the file (every record has num_tokens 0)"));

    // One ExpertLoadBlock per (step, block, mtp_idx, layer), in that order, each padded
    // to the widest index of the file and allocated at its exact size.
    std::sort(blocks.begin(), blocks.end(), [](const Block& a, const Block& b) { return a.key < b.key; });
    data.expertLoad.reserve(qsizetype(blocks.size()));
    qint64 minCalls = std::numeric_limits<qint64>::max(), maxCalls = 0;
    for (Block& b : blocks) {
        store::ExpertLoadBlock out;
        out.step = b.step;
        out.layer = b.layer;
        out.mtpIndex = b.mtpIndex;
        out.tokensPerExpert.reserve(qsizetype(width));
        out.tokensPerExpert.resize(qsizetype(width));
        std::fill(out.tokensPerExpert.begin(), out.tokensPerExpert.end(), 0u);
        std::copy(b.counts.begin(), b.counts.end(), out.tokensPerExpert.begin());
        minCalls = std::min(minCalls, b.calls);
        maxCalls = std::max(maxCalls, b.calls);
        std::vector<quint32>().swap(b.counts);
        data.expertLoad.append(std::move(out));
    }
    QJsonArray stageNames;
    for (const std::string& s : stages)
        stageNames.append(QString::fromStdString(s));
    data.environment.insert(QStringLiteral("rank"), fileRank >= 0 ? fileRank : rank);
    data.environment.insert(QStringLiteral("topk"), topkAll);
    data.environment.insert(QStringLiteral("tokens"), tokens);
    data.environment.insert(QStringLiteral("records"), data.rows);
    data.environment.insert(QStringLiteral("stages"), stageNames);
    data.environment.insert(QStringLiteral("mtp"), anyMtp);
    data.environment.insert(QStringLiteral("max_expert_index_seen"), width - 1);
    // Records summed per (step, block, layer): the micro-batches, twice that where the
    // router was recomputed; min != max flags layers traced a different number of times.
    data.environment.insert(QStringLiteral("records_per_block_min"), minCalls);
    data.environment.insert(QStringLiteral("records_per_block_max"), maxCalls);
    return data;
}

} // namespace moewb::importers
