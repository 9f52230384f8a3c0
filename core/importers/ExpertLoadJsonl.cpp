#include "importers/ExpertLoadJsonl.h"
#include "importers/TextLines.h"

#include "importers/ImportLimits.h"
#include "importers/JsonCursor.h"
#include "importers/MetricNames.h"

#include <QHash>
#include <QJsonArray>

#include <cstring>
#include <limits>
#include <vector>

namespace moewb::importers {

namespace {


constexpr quint64 kMaxCount = std::numeric_limits<quint32>::max();

} // namespace

qint64 rankOfFileName(const QString& fileName, std::string_view prefix, std::string_view suffix) {
    const qsizetype slash = std::max(fileName.lastIndexOf(QLatin1Char('/')), fileName.lastIndexOf(QLatin1Char('\\')));
    const QStringView base = QStringView(fileName).mid(slash + 1);
    const QLatin1String pre(prefix.data(), qsizetype(prefix.size()));
    const QLatin1String suf(suffix.data(), qsizetype(suffix.size()));
    if (base.size() <= pre.size() + suf.size() || !base.startsWith(pre) || !base.endsWith(suf))
        return -1;
    const QStringView digits = base.mid(pre.size(), base.size() - pre.size() - suf.size());
    if (digits.size() > 7 || (digits.size() > 1 && digits.front() == QLatin1Char('0')))
        return -1;
    qint64 n = 0;
    for (QChar ch : digits) {
        if (ch < QLatin1Char('0') || ch > QLatin1Char('9'))
            return -1;
        n = n * 10 + (ch.unicode() - '0');
    }
    return n < kMaxRanks ? n : -1;
}

ImportResult parseExpertLoadJsonl(const QByteArray& bytes, const QString& file, const ExpertLoadJsonlLayout& layout) {
    ImportedData data;
    data.format = QString::fromLatin1(layout.format);
    const char* pos = bytes.constData();
    const char* const end = pos + bytes.size();
    if (end - pos >= 3 && memcmp(pos, "\xEF\xBB\xBF", 3) == 0)
        pos += 3;
    // (step, block, layer) keys seen, for duplicates: files are normally in increasing
    // order (Megatron writes the decoder's layers, then the MTP blocks'), so the set is
    // only built once a key arrives out of order.
    QHash<qint64, qint64> seen; // expertLoadBlockKey -> line
    qint64 lastKey = -1;
    bool ordered = true;
    std::vector<qint64> lineOf; // line of each block, to name the first of a duplicate pair
    std::vector<quint64> sums;
    qint64 experts = 0, expertsLine = 0;
    qint64 lineNo = 0;
    qint64 rank = -1;
    bool mixedRanks = false;
    bool anyMtp = false;
    // "experts_scope": "all" (remote/collect's tokens-per-expert lines: counts over all
    // experts of this rank's routed tokens); every line of a file says the same.
    qint64 scopedLine = 0, unscopedLine = 0;
    // Megatron's save_tpe writes {save}/tokens_per_expert/rank{global_rank}.jsonl.
    const qint64 fileRank = layout.megatronBlocks ? rankOfFileName(file, "rank", ".jsonl") : -1;
    std::string scratch, valueScratch;
    const QString stepName = toQString(layout.stepKey);
    const QString countsName = toQString(layout.countsKey);

    while (pos < end) {
        ++lineNo;
        const char* lineStart = pos;
        JsonCursor c(pos, end, lineNo);
        c.setStopAtNewline(true);
        if (c.atEnd()) { // blank line
            pos = c.position() < end ? c.position() + 1 : end;
            continue;
        }
        std::string_view field; // the key being read
        auto failHere = [&](const QString& message) {
            return importError(file, lineNo, toQString(field), message.isEmpty() ? c.error() : message);
        };
        if (!c.consume('{'))
            return failHere(c.peek() ? ImportTr::tr("a JSON object was expected at the start of the line")
                                     : ImportTr::tr("the line is empty"));
        bool haveStep = false, haveLayer = false, haveCounts = false, haveBlock = false, haveMtpIndex = false,
             haveScope = false;
        bool isMtp = false;
        quint64 step = 0, layer = 0, mtpIndex = 0;
        qint64 count = 0;
        store::ExpertLoadBlock block;
        if (c.peek() != '}') {
            do {
                std::string_view key;
                field = {};
                if (c.peek() != '"')
                    return failHere(ImportTr::tr("a key (a string) was expected"));
                if (!c.readString(key, scratch))
                    return failHere({});
                field = key;
                if (!c.consume(':'))
                    return failHere(ImportTr::tr("':' was expected after the key"));
                if (key == layout.stepKey) {
                    if (haveStep)
                        return failHere(ImportTr::tr("appears twice"));
                    if (!c.readUnsigned(step))
                        return failHere({});
                    if (step > quint64(kMaxStep))
                        return failHere(ImportTr::tr("is absurd: %1 (at most %2)").arg(step).arg(kMaxStep));
                    haveStep = true;
                } else if (key == "layer") {
                    if (haveLayer)
                        return failHere(ImportTr::tr("appears twice"));
                    if (!c.readUnsigned(layer))
                        return failHere({});
                    if (layer > quint64(kMaxLayer))
                        return failHere(ImportTr::tr("is absurd: %1 (at most %2)").arg(layer).arg(kMaxLayer));
                    haveLayer = true;
                } else if (key == "rank") {
                    quint64 r = 0;
                    if (!c.readUnsigned(r))
                        return failHere({});
                    if (fileRank >= 0 && r != quint64(fileRank))
                        return failHere(ImportTr::tr("is %1 but the file name says rank %2").arg(r).arg(fileRank));
                    if (rank >= 0 && quint64(rank) != r)
                        mixedRanks = true;
                    rank = qint64(std::min<quint64>(r, quint64(std::numeric_limits<qint64>::max())));
                } else if (key == layout.countsKey) {
                    if (haveCounts)
                        return failHere(ImportTr::tr("appears twice"));
                    haveCounts = true;
                    if (!c.consume('['))
                        return failHere(ImportTr::tr("must be an array of token counts"));
                    const bool nested = c.peek() == '[';
                    if (nested && !layout.allowNested)
                        return failHere(ImportTr::tr("must be a flat array of token counts, one per expert"));
                    qint64 width = -1;
                    sums.clear();
                    auto readRow = [&]() -> bool {
                        // One array of counts, the '[' already consumed.
                        qint64 length = 0;
                        const bool ok = c.readUnsignedArrayRest([&](qint64 i, quint64 v) {
                            if (v > kMaxCount)
                                return c.fail(ImportTr::tr("is absurd: %1 tokens for one expert (at most %2)")
                                                  .arg(v)
                                                  .arg(kMaxCount));
                            if (i >= kMaxExperts)
                                return c.fail(ImportTr::tr("lists more than %1 experts").arg(kMaxExperts));
                            length = i + 1;
                            if (i >= qint64(sums.size())) {
                                if (width >= 0)
                                    return c.fail(ImportTr::tr("rows of different lengths (%1 and more)").arg(width));
                                sums.push_back(0);
                            }
                            sums[size_t(i)] += v;
                            if (sums[size_t(i)] > kMaxCount)
                                return c.fail(ImportTr::tr("is absurd: more than %1 tokens for expert %2")
                                                  .arg(kMaxCount)
                                                  .arg(i));
                            return true;
                        });
                        if (!ok)
                            return false;
                        if (width >= 0 && length != width)
                            return c.fail(ImportTr::tr("rows of different lengths (%1 and %2)").arg(width).arg(length));
                        width = length;
                        return true;
                    };
                    if (nested) {
                        do {
                            if (!c.consume('['))
                                return failHere(ImportTr::tr("must be an array of arrays of token counts"));
                            if (!readRow())
                                return failHere({});
                        } while (c.consume(','));
                        if (!c.consume(']'))
                            return failHere(ImportTr::tr("',' or ']' was expected"));
                    } else if (!readRow()) {
                        return failHere({});
                    }
                    // One allocation per block, exactly sized.
                    // reserve() allocates exactly; resize() alone would round the block up
                    // (Qt's growth policy), nearly doubling the memory of a 64-expert layer.
                    block.tokensPerExpert.reserve(qsizetype(sums.size()));
                    block.tokensPerExpert.resize(qsizetype(sums.size()));
                    quint32* out = block.tokensPerExpert.data();
                    for (size_t i = 0; i < sums.size(); ++i)
                        out[i] = quint32(sums[i]);
                    count = block.tokensPerExpert.size();
                    if (count == 0)
                        return failHere(ImportTr::tr("lists no experts"));
                } else if (layout.megatronBlocks && key == "block") {
                    if (haveBlock)
                        return failHere(ImportTr::tr("appears twice"));
                    haveBlock = true;
                    std::string_view value;
                    if (c.peek() != '"')
                        return failHere(ImportTr::tr("must be the string \"decoder\" or \"mtp\""));
                    if (!c.readString(value, valueScratch))
                        return failHere({});
                    if (value == "mtp")
                        isMtp = true;
                    else if (value != "decoder")
                        return failHere(ImportTr::tr("must be \"decoder\" or \"mtp\", not \"%1\"").arg(excerpt(value)));
                } else if (layout.megatronBlocks && key == "experts_scope") {
                    if (haveScope)
                        return failHere(ImportTr::tr("appears twice"));
                    haveScope = true;
                    std::string_view value;
                    if (c.peek() != '"')
                        return failHere(ImportTr::tr("must be the string \"all\""));
                    if (!c.readString(value, valueScratch))
                        return failHere({});
                    if (value != "all")
                        return failHere(ImportTr::tr("must be \"all\", not \"%1\"").arg(excerpt(value)));
                } else if (layout.megatronBlocks && key == "mtp_idx") {
                    if (haveMtpIndex)
                        return failHere(ImportTr::tr("appears twice"));
                    if (!c.readUnsigned(mtpIndex))
                        return failHere({});
                    if (mtpIndex > quint64(kMaxMtpIndex))
                        return failHere(ImportTr::tr("is absurd: %1 (at most %2)").arg(mtpIndex).arg(kMaxMtpIndex));
                    haveMtpIndex = true;
                } else if (!c.skipValue()) {
                    return failHere({});
                }
            } while (c.consume(','));
        }
        field = {};
        if (!c.consume('}'))
            return failHere(c.peek() ? ImportTr::tr("',' or '}' was expected")
                                     : ImportTr::tr("the line ends inside the object (truncated)"));
        if (!c.atEnd())
            return failHere(ImportTr::tr("unexpected text after the object"));
        pos = c.position() < end ? c.position() + 1 : end;
        if (data.expertLoad.isEmpty()) {
            const qsizetype estimate = qsizetype((end - lineStart) / std::max<qint64>(16, pos - lineStart)) + 16;
            data.expertLoad.reserve(estimate);
            lineOf.reserve(size_t(estimate));
        }
        if (!haveStep)
            return importError(file, lineNo, stepName, ImportTr::tr("is missing"));
        if (!haveLayer)
            return importError(file, lineNo, QStringLiteral("layer"), ImportTr::tr("is missing"));
        if (!haveCounts)
            return importError(file, lineNo, countsName, ImportTr::tr("is missing"));
        if (isMtp && !haveMtpIndex)
            return importError(file, lineNo, QStringLiteral("mtp_idx"), ImportTr::tr("is missing (block is \"mtp\")"));
        if (!isMtp && haveMtpIndex)
            return importError(file, lineNo, QStringLiteral("mtp_idx"),
                               ImportTr::tr("is given but the block is \"decoder\" (mtp_idx belongs to MTP records)"));
        if (haveScope && unscopedLine > 0)
            return importError(file, lineNo, QStringLiteral("experts_scope"),
                               ImportTr::tr("is \"all\" but line %1 has none: a file's lines count either all experts "
                                            "or the rank's local ones")
                                   .arg(unscopedLine));
        if (!haveScope && scopedLine > 0)
            return importError(file, lineNo, QStringLiteral("experts_scope"),
                               ImportTr::tr("is missing but line %1 has \"all\": a file's lines count either all "
                                            "experts or the rank's local ones")
                                   .arg(scopedLine));
        if (haveScope && scopedLine == 0)
            scopedLine = lineNo;
        if (!haveScope && unscopedLine == 0)
            unscopedLine = lineNo;
        const int blockMtp = isMtp ? int(mtpIndex) : -1;
        anyMtp = anyMtp || isMtp;
        if (experts == 0) {
            experts = count;
            expertsLine = lineNo;
        } else if (count != experts) {
            return importError(file, lineNo, countsName,
                               ImportTr::tr("has %1 experts but line %2 has %3").arg(count).arg(expertsLine).arg(experts));
        }
        const qint64 key = expertLoadBlockKey(qint64(step), blockMtp, int(layer));
        if (ordered && key <= lastKey) {
            ordered = false; // from here on, look every key up
            seen.reserve(data.expertLoad.size() * 2);
            for (qsizetype i = 0; i < data.expertLoad.size(); ++i) {
                const store::ExpertLoadBlock& b = data.expertLoad[i];
                seen.insert(expertLoadBlockKey(b.step, b.mtpIndex, b.layer), lineOf[i]);
            }
        }
        if (!ordered) {
            const auto previous = seen.constFind(key);
            if (previous != seen.constEnd()) {
                if (isMtp)
                    return importError(file, lineNo, stepName,
                                       ImportTr::tr("%1 %2, MTP block %3, layer %4 appears again (first on line %5)")
                                           .arg(stepName)
                                           .arg(step)
                                           .arg(mtpIndex)
                                           .arg(layer)
                                           .arg(*previous));
                return importError(file, lineNo, stepName,
                                   ImportTr::tr("%1 %2, layer %3 appears again (first on line %4)")
                                       .arg(stepName)
                                       .arg(step)
                                       .arg(layer)
                                       .arg(*previous));
            }
            seen.insert(key, lineNo);
        }
        lastKey = key;
        lineOf.push_back(lineNo);
        block.step = qint64(step);
        block.layer = int(layer);
        block.mtpIndex = blockMtp;
        data.expertLoad.append(std::move(block));
        ++data.rows;
    }
    if (data.expertLoad.isEmpty())
        return importError(file, 0, {}, ImportTr::tr("no expert-load lines found (the file is empty)"));
    data.environment.insert(QStringLiteral("experts"), experts);
    if (fileRank >= 0)
        data.environment.insert(QStringLiteral("rank"), fileRank);
    else if (rank >= 0 && !mixedRanks)
        data.environment.insert(QStringLiteral("rank"), rank);
    if (layout.megatronBlocks)
        data.environment.insert(QStringLiteral("mtp"), anyMtp);
    if (scopedLine > 0)
        data.environment.insert(QStringLiteral("experts_scope"), QStringLiteral("all"));
    return data;
}

} // namespace moewb::importers
