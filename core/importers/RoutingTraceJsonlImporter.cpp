#include "importers/RoutingTraceJsonlImporter.h"

#include "importers/JsonCursor.h"
#include "importers/MetricNames.h"
#include "importers/TextLines.h"

#include <QHash>
#include <QMap>

#include <limits>
#include <vector>

namespace moewb::importers {

namespace {


// 2^27 counts (512 MiB): far above a real trace's (iteration, layer, expert) cells.
constexpr qint64 kMaxTraceCounts = qint64(1) << 27;

// Reads [[a, b], [c, d], ...] of unsigned integers; calls row(i) at each inner start and
// value(v) per element. Returns the number of inner arrays.
template <typename OnRow, typename OnValue>
bool readNested(JsonCursor& c, OnRow onRow, OnValue onValue, qint64& rows) {
    rows = 0;
    if (!c.consume('['))
        return c.fail(ImportTr::tr("must be an array of arrays"));
    if (c.consume(']'))
        return true;
    do {
        if (!c.consume('['))
            return c.fail(ImportTr::tr("must be an array of arrays"));
        onRow(rows);
        qint64 k = 0;
        if (!c.consume(']')) {
            do {
                quint64 v = 0;
                if (c.peek() == 't' || c.peek() == 'f') {
                    const bool t = c.peek() == 't';
                    if (!c.readLiteral(t ? "true" : "false"))
                        return false;
                    v = t ? 1 : 0;
                } else if (!c.readUnsigned(v)) {
                    return false;
                }
                if (!onValue(rows, k, v))
                    return false;
                ++k;
            } while (c.consume(','));
            if (!c.consume(']'))
                return c.fail(ImportTr::tr("',' or ']' was expected"));
        }
        ++rows;
    } while (c.consume(','));
    return c.consume(']') || c.fail(ImportTr::tr("',' or ']' was expected"));
}

} // namespace

ImportResult RoutingTraceJsonlImporter::parse(const QByteArray& bytes, const QString& file) {
    ImportedData data;
    data.format = QString::fromLatin1(kFormat);
    QHash<qint64, qsizetype> blockIndex; // iter * 16384 + layer -> index in expertLoad
    // Per iteration, where "dropped" is given (seed 000: a token is dropped when every
    // one of its top-k assignments was dropped).
    struct Drops {
        quint64 droppedAssignments = 0, assignments = 0;
        quint64 tokens = 0, droppedTokens = 0, partlyDropped = 0;
    };
    QMap<qint64, Drops> drops;
    qint64 experts = 0, expertsLine = 0;
    bool anyDropped = false;
    qint64 cells = 0; // counts allocated so far
    std::string scratch;
    std::vector<int> rowWidths;
    std::vector<quint32> tokenExperts;

    TextLines lines(bytes);
    std::string_view line;
    while (lines.next(line)) {
        const qint64 n = lines.lineNumber();
        JsonCursor c(line.data(), line.data() + line.size(), n);
        if (c.atEnd())
            continue;
        std::string_view field;
        quint64 iter = 0, layer = 0, numExperts = 0;
        bool haveIter = false, haveLayer = false, haveExperts = false, haveTopk = false, haveDropped = false;
        qint64 topkRows = 0, droppedRows = 0;
        rowWidths.clear();
        tokenExperts.clear();
        quint64 dropped = 0, droppedCells = 0;
        quint64 tokens = 0, fullyDropped = 0, partlyDropped = 0;
        const bool read = c.readLineObject(scratch, field, [&](std::string_view key) {
            if (key == "iter") {
                if (!c.readUnsigned(iter))
                    return false;
                if (iter > quint64(kMaxStep))
                    return c.fail(ImportTr::tr("is absurd: %1 (at most %2)").arg(iter).arg(kMaxStep), true);
                haveIter = true;
            } else if (key == "layer") {
                if (!c.readUnsigned(layer))
                    return false;
                if (layer > quint64(kMaxLayer))
                    return c.fail(ImportTr::tr("is absurd: %1 (at most %2)").arg(layer).arg(kMaxLayer), true);
                haveLayer = true;
            } else if (key == "num_experts") {
                if (!c.readUnsigned(numExperts))
                    return false;
                if (numExperts < 1 || numExperts > quint64(kMaxExperts))
                    return c.fail(ImportTr::tr("is absurd: %1 (1 to %2)").arg(numExperts).arg(kMaxExperts), true);
                haveExperts = true;
            } else if (key == "topk") {
                haveTopk = true;
                const bool ok = readNested(
                    c, [&](qint64) { rowWidths.push_back(0); },
                    [&](qint64, qint64, quint64 v) {
                        if (v >= quint64(kMaxExperts))
                            return c.fail(ImportTr::tr("expert %1 is out of range").arg(v));
                        ++rowWidths.back();
                        tokenExperts.push_back(quint32(v));
                        return true;
                    },
                    topkRows);
                if (!ok)
                    return false;
            } else if (key == "dropped") {
                haveDropped = true;
                anyDropped = true;
                quint64 rowDropped = 0, rowCells = 0;
                auto endRow = [&] {
                    if (rowCells == 0)
                        return;
                    ++tokens;
                    if (rowDropped == rowCells)
                        ++fullyDropped;
                    else if (rowDropped > 0)
                        ++partlyDropped;
                    rowDropped = rowCells = 0;
                };
                const bool ok = readNested(
                    c, [&](qint64) { endRow(); },
                    [&](qint64, qint64, quint64 v) {
                        if (v > 1)
                            return c.fail(ImportTr::tr("must hold 0/1 or false/true, got %1").arg(v));
                        dropped += v;
                        ++droppedCells;
                        rowDropped += v;
                        ++rowCells;
                        return true;
                    },
                    droppedRows);
                if (!ok)
                    return false;
                endRow();
            } else if (!c.skipValue()) {
                return false;
            }
            return true;
        });
        if (!read)
            return importError(file, n, toQString(field), c.error());
        for (const auto& [have, name] : {std::pair{haveIter, "iter"}, std::pair{haveLayer, "layer"},
                                         std::pair{haveExperts, "num_experts"}, std::pair{haveTopk, "topk"}})
            if (!have)
                return importError(file, n, QLatin1String(name), ImportTr::tr("is missing"));
        if (experts == 0) {
            experts = qint64(numExperts);
            expertsLine = n;
        } else if (qint64(numExperts) != experts) {
            return importError(file, n, QStringLiteral("num_experts"),
                               ImportTr::tr("is %1 but line %2 says %3").arg(numExperts).arg(expertsLine).arg(experts));
        }
        if (haveDropped && (droppedRows != topkRows || droppedCells != tokenExperts.size()))
            return importError(file, n, QStringLiteral("dropped"),
                               ImportTr::tr("must have the shape of topk (%1 tokens, %2 assignments), got %3 and %4")
                                   .arg(topkRows)
                                   .arg(tokenExperts.size())
                                   .arg(droppedRows)
                                   .arg(droppedCells));
        const qint64 key = qint64(iter) * 16384 + qint64(layer);
        auto it = blockIndex.constFind(key);
        qsizetype index;
        if (it == blockIndex.constEnd()) {
            // A short line can name a million experts: bound what the counts may take.
            cells += qint64(numExperts);
            if (cells > kMaxTraceCounts)
                return importError(file, n, QStringLiteral("num_experts"),
                                   ImportTr::tr("is absurd here: %1 (iteration, layer) pairs of %2 experts exceed %3 "
                                                "counts in one file")
                                       .arg(data.expertLoad.size() + 1)
                                       .arg(numExperts)
                                       .arg(kMaxTraceCounts));
            index = data.expertLoad.size();
            blockIndex.insert(key, index);
            store::ExpertLoadBlock block{qint64(iter), int(layer), QVector<quint32>(qsizetype(numExperts), 0)};
            data.expertLoad.append(std::move(block));
        } else {
            index = *it;
        }
        QVector<quint32>& counts = data.expertLoad[index].tokensPerExpert;
        for (quint32 e : tokenExperts) {
            if (e >= quint32(numExperts))
                return importError(file, n, QStringLiteral("topk"),
                                   ImportTr::tr("expert %1 is out of range: num_experts is %2").arg(e).arg(numExperts));
            if (counts[e] == std::numeric_limits<quint32>::max())
                return importError(file, n, QStringLiteral("topk"),
                                   ImportTr::tr("is absurd: more than %1 tokens for expert %2")
                                       .arg(std::numeric_limits<quint32>::max())
                                       .arg(e));
            ++counts[e];
        }
        if (haveDropped) {
            Drops& d = drops[qint64(iter)];
            d.droppedAssignments += dropped;
            d.assignments += droppedCells;
            d.tokens += tokens;
            d.droppedTokens += fullyDropped;
            d.partlyDropped += partlyDropped;
        }
        ++data.rows;
    }
    if (data.expertLoad.isEmpty())
        return importError(file, 0, {}, ImportTr::tr("no routing-trace lines found (the file is empty)"));
    for (auto it = drops.cbegin(); it != drops.cend(); ++it) {
        auto add = [&](const char* name, double v) {
            data.stepMetrics.append(store::StepMetric{it.key(), QString::fromLatin1(name), v});
        };
        add("dropped_tokens", double(it->droppedTokens));
        add("dropped_assignments", double(it->droppedAssignments));
        if (it->tokens > 0) {
            add("drop_rate", double(it->droppedTokens) / double(it->tokens));
            add("partly_dropped_rate", double(it->partlyDropped) / double(it->tokens));
        }
        if (it->assignments > 0)
            add("assignment_drop_rate", double(it->droppedAssignments) / double(it->assignments));
    }
    data.environment.insert(QStringLiteral("experts"), experts);
    data.environment.insert(QStringLiteral("drop_information"), anyDropped);
    return data;
}

} // namespace moewb::importers
