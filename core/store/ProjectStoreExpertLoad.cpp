// Expert load in chunks (schema version 5): the sink that writes them and the
// readers that decode them. docs/store.md, "Expert load".
#include "store/ExpertLoadSink.h"
#include "store/ProjectStore.h"
#include "store/SqlSupport.h"

#include <QFuture>
#include <QHash>
#include <QSqlQuery>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <QJsonObject>

#include <algorithm>
#include <atomic>
#include <climits>
#include <deque>
#include <queue>
#include <vector>

namespace moewb::store {

namespace {

// One layer's rows waiting to fill a chunk.
struct PendingRows {
    std::vector<qint64> steps;
    std::vector<quint32> counts; // row-major
    std::vector<std::optional<qint64>> dropped;
    int experts = 0;
    qint64 lastStep = 0;
    bool any = false;
};

struct EncodedChunk {
    int layer = 0;
    qint64 firstStep = 0;
    qint64 lastStep = 0;
    int rows = 0;
    int experts = 0;
    QByteArray counts;
    QByteArray summary;
    QByteArray totals; // empty when not written (a file of version 5, during the 4 -> 5 upgrade)
};

EncodedChunk encodeChunk(int layer, PendingRows rows, int expertParallel, bool withTotals) {
    EncodedChunk out;
    out.layer = layer;
    out.rows = int(rows.steps.size());
    out.experts = rows.experts;
    out.firstStep = rows.steps.front();
    out.lastStep = rows.steps.back();
    std::vector<LoadSummaryValues> summary(rows.steps.size());
    const auto e = std::size_t(rows.experts);
    for (std::size_t r = 0; r < rows.steps.size(); ++r) {
        summary[r] = summarizeCounts(rows.steps[r], std::span<const quint32>(rows.counts.data() + r * e, e),
                                     expertParallel);
        summary[r].droppedTokens = rows.dropped[r];
    }
    out.counts = encodeExpertLoadChunk(rows.steps, rows.counts, rows.experts);
    out.summary = encodeLoadSummary(summary);
    if (withTotals)
        out.totals = encodeExpertTotals(rows.steps, chunkTotals(rows.counts, rows.experts));
    return out;
}

// Rows read layer after layer, each layer's in step order (the chunk queries' ORDER BY
// layer, first_step), merged into (step, layer) order: a k-way merge of the layers'
// lists, no sort of the whole run. The lists are in ascending layer order.
template <typename Row>
QVector<Row> mergeLayers(std::vector<QVector<Row>>& perLayer, qsizetype total) {
    if (perLayer.empty())
        return {};
    if (perLayer.size() == 1)
        return std::move(perLayer.front());
    QVector<Row> out;
    out.reserve(total);
    using Head = std::pair<qint64, std::size_t>; // (step, list); ties go to the lower layer
    std::priority_queue<Head, std::vector<Head>, std::greater<Head>> heads;
    std::vector<qsizetype> next(perLayer.size(), 0);
    for (std::size_t i = 0; i < perLayer.size(); ++i)
        if (!perLayer[i].isEmpty())
            heads.push({perLayer[i].front().step, i});
    while (!heads.empty()) {
        const std::size_t i = heads.top().second;
        heads.pop();
        out.append(std::move(perLayer[i][next[i]]));
        if (++next[i] < perLayer[i].size())
            heads.push({perLayer[i][next[i]].step, i});
    }
    return out;
}

} // namespace

struct ExpertLoadSink::Impl {
    QSqlDatabase db;
    qint64 runId = 0;
    int expertParallel = 0;
    QSqlQuery insertChunk;
    QSqlQuery insertSummary;
    QSqlQuery insertTotals;
    bool withTotals = false;
    QHash<int, PendingRows> layers;
    std::deque<QFuture<EncodedChunk>> pending;
    qsizetype maxPending = 4;
    QString error;
    qint64 blocks = 0;
    qint64 chunks = 0;

    void submit(int layer, PendingRows& rows) {
        PendingRows taken;
        taken.experts = rows.experts;
        taken.lastStep = rows.lastStep;
        taken.any = true;
        std::swap(taken.steps, rows.steps);
        std::swap(taken.counts, rows.counts);
        std::swap(taken.dropped, rows.dropped);
        rows.steps.reserve(kChunkSteps);
        rows.dropped.reserve(kChunkSteps);
        rows.counts.reserve(std::size_t(kChunkSteps) * std::size_t(rows.experts));
        pending.push_back(QtConcurrent::run(&encodeChunk, layer, std::move(taken), expertParallel, withTotals));
    }

    // Writes finished chunks in the order they were cut; with `all`, waits for every one.
    bool drain(bool all) {
        while (!pending.empty()) {
            if (!all && qsizetype(pending.size()) <= maxPending && !pending.front().isFinished())
                return true;
            const EncodedChunk c = pending.front().result();
            pending.pop_front();
            if (!error.isEmpty())
                continue; // failed before: only wait for the workers
            if (c.counts.isEmpty() || c.summary.isEmpty() || (withTotals && c.totals.isEmpty())) {
                error = StoreTr::tr("expert load of layer %1 from step %2 could not be compressed")
                            .arg(c.layer)
                            .arg(c.firstStep);
                continue;
            }
            insertChunk.bindValue(0, runId);
            insertChunk.bindValue(1, c.layer);
            insertChunk.bindValue(2, c.firstStep);
            insertChunk.bindValue(3, c.lastStep);
            insertChunk.bindValue(4, c.rows);
            insertChunk.bindValue(5, c.experts);
            insertChunk.bindValue(6, c.counts);
            insertSummary.bindValue(0, runId);
            insertSummary.bindValue(1, c.layer);
            insertSummary.bindValue(2, c.firstStep);
            insertSummary.bindValue(3, c.lastStep);
            insertSummary.bindValue(4, c.rows);
            insertSummary.bindValue(5, c.experts);
            insertSummary.bindValue(6, expertParallel > 0 ? QVariant(expertParallel) : QVariant(QMetaType(QMetaType::Int)));
            insertSummary.bindValue(7, c.summary);
            if (withTotals) {
                insertTotals.bindValue(0, runId);
                insertTotals.bindValue(1, c.layer);
                insertTotals.bindValue(2, c.firstStep);
                insertTotals.bindValue(3, c.lastStep);
                insertTotals.bindValue(4, c.rows);
                insertTotals.bindValue(5, c.experts);
                insertTotals.bindValue(6, c.totals);
            }
            QString err;
            if (!sql::exec(insertChunk, &err) || !sql::exec(insertSummary, &err) ||
                (withTotals && !sql::exec(insertTotals, &err))) {
                error = StoreTr::tr("expert load of layer %1 from step %2: %3").arg(c.layer).arg(c.firstStep).arg(err);
                continue;
            }
            ++chunks;
        }
        return error.isEmpty();
    }
};

ExpertLoadSink::ExpertLoadSink(QSqlDatabase db, qint64 runId, int expertParallel) : d(std::make_unique<Impl>()) {
    d->db = db;
    d->runId = runId;
    d->expertParallel = std::max(0, expertParallel);
    d->insertChunk = QSqlQuery(db);
    d->insertChunk.prepare(QStringLiteral("INSERT INTO expert_load_chunk (run_id, layer, first_step, last_step, steps, "
                                          "experts, codec, counts) VALUES (?, ?, ?, ?, ?, ?, 1, ?)"));
    d->insertSummary = QSqlQuery(db);
    d->insertSummary.prepare(QStringLiteral("INSERT INTO expert_load_summary (run_id, layer, first_step, last_step, "
                                            "steps, experts, ep, codec, data) VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?)"));
    // Each chunk's totals (schema version 6). The 4 -> 5 upgrade writes through a sink
    // into a file that has no such table yet: the 5 -> 6 step computes them after it.
    QSqlQuery hasTotals(db);
    d->withTotals = hasTotals.exec(QStringLiteral("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND "
                                                  "name = 'expert_load_totals'")) &&
                    hasTotals.next() && hasTotals.value(0).toInt() > 0;
    hasTotals.finish();
    if (d->withTotals) {
        d->insertTotals = QSqlQuery(db);
        d->insertTotals.prepare(QStringLiteral("INSERT INTO expert_load_totals (run_id, layer, first_step, "
                                               "last_step, steps, experts, codec, totals) VALUES (?, ?, ?, ?, ?, "
                                               "?, 1, ?)"));
    }
    // Enough chunks in flight to keep every worker busy while this thread parses and writes.
    d->maxPending = std::max(2, 2 * QThreadPool::globalInstance()->maxThreadCount());
}

ExpertLoadSink::~ExpertLoadSink() {
    for (auto& f : d->pending)
        f.waitForFinished();
}

bool ExpertLoadSink::add(qint64 step, int layer, std::span<const quint32> counts, std::optional<qint64> droppedTokens) {
    if (!d->error.isEmpty())
        return false;
    if (counts.empty()) {
        d->error = StoreTr::tr("the expert load at step %1, layer %2 lists no experts").arg(step).arg(layer);
        return false;
    }
    if (counts.size() > 65536) {
        d->error = StoreTr::tr("the expert load at step %1, layer %2 lists %3 experts (at most 65,536)")
                       .arg(step)
                       .arg(layer)
                       .arg(counts.size());
        return false;
    }
    PendingRows& rows = d->layers[layer];
    if (rows.any && step <= rows.lastStep) {
        d->error = step == rows.lastStep
                       ? StoreTr::tr("the expert load at step %1, layer %2 is given twice").arg(step).arg(layer)
                       : StoreTr::tr("the expert load of layer %1 goes back from step %2 to step %3")
                             .arg(layer)
                             .arg(rows.lastStep)
                             .arg(step);
        return false;
    }
    // A chunk holds one expert count; a layer whose width changes starts a new one.
    if (!rows.steps.empty() && rows.experts != int(counts.size()))
        d->submit(layer, rows);
    if (rows.steps.empty() && rows.counts.capacity() == 0) {
        rows.steps.reserve(kChunkSteps);
        rows.dropped.reserve(kChunkSteps);
        rows.counts.reserve(std::size_t(kChunkSteps) * counts.size());
    }
    rows.experts = int(counts.size());
    rows.any = true;
    rows.lastStep = step;
    rows.steps.push_back(step);
    rows.dropped.push_back(droppedTokens);
    rows.counts.insert(rows.counts.end(), counts.begin(), counts.end());
    ++d->blocks;
    if (rows.steps.size() >= std::size_t(kChunkSteps)) {
        d->submit(layer, rows);
        return d->drain(false);
    }
    return true;
}

bool ExpertLoadSink::finish() {
    QList<int> layers = d->layers.keys();
    std::sort(layers.begin(), layers.end());
    for (int layer : layers) {
        PendingRows& rows = d->layers[layer];
        if (!rows.steps.empty())
            d->submit(layer, rows);
    }
    return d->drain(true);
}

QString ExpertLoadSink::error() const {
    return d->error;
}

qint64 ExpertLoadSink::blocks() const {
    return d->blocks;
}

qint64 ExpertLoadSink::chunks() const {
    return d->chunks;
}

namespace {
std::atomic<qint64> s_chunksDecoded{0};

// SELECT `columns` FROM `table` — expert_load_chunk, expert_load_summary or
// expert_load_totals, each keyed by (run, layer, first step) with the chunk's last
// step beside it — for one run, one layer when given, and the chunks whose steps
// reach into firstStep..lastStep (each bound optional), ordered by layer, then first
// step. False when the query fails (q holds the error).
bool selectChunkRows(QSqlQuery& q, const char* columns, const char* table, qint64 runId, std::optional<int> layer,
                     std::optional<qint64> firstStep, std::optional<qint64> lastStep) {
    q.setForwardOnly(true);
    QString statement = QStringLiteral("SELECT %1 FROM %2 WHERE run_id = ?")
                            .arg(QLatin1String(columns), QLatin1String(table));
    if (layer)
        statement += QStringLiteral(" AND layer = ?");
    if (firstStep)
        statement += QStringLiteral(" AND last_step >= ?");
    if (lastStep)
        statement += QStringLiteral(" AND first_step <= ?");
    if (!q.prepare(statement + QStringLiteral(" ORDER BY layer, first_step")))
        return false;
    int i = 0;
    q.bindValue(i++, runId);
    if (layer)
        q.bindValue(i++, *layer);
    if (firstStep)
        q.bindValue(i++, *firstStep);
    if (lastStep)
        q.bindValue(i++, *lastStep);
    return q.exec();
}

QString undecodableChunk(int layer, qint64 firstStep) {
    return StoreTr::tr("expert load of layer %1 from step %2 cannot be decoded (damaged, or an unknown encoding)")
        .arg(layer)
        .arg(firstStep);
}
} // namespace

qint64 ProjectStore::expertLoadChunksDecoded() {
    return s_chunksDecoded.load(std::memory_order_relaxed);
}

QVector<ExpertLoadBlock> ProjectStore::expertLoad(qint64 runId, std::optional<qint64> step,
                                                  std::optional<int> layer) const {
    return expertLoadRange(runId, step, step, layer);
}

QVector<ExpertLoadBlock> ProjectStore::expertLoadRange(qint64 runId, std::optional<qint64> firstStep,
                                                       std::optional<qint64> lastStep, std::optional<int> layer) const {
    QSqlQuery q(QSqlDatabase::database(m_connectionName, false));
    if (!selectChunkRows(q, "layer, first_step, steps, experts, codec, counts", "expert_load_chunk", runId, layer,
                         firstStep, lastStep))
        qWarning("%s", qPrintable(error(sql::errorText(q)).text()));
    std::vector<QVector<ExpertLoadBlock>> perLayer;
    qsizetype total = 0;
    int previousLayer = INT_MIN;
    while (q.next()) {
        const int l = q.value(0).toInt();
        const int rows = q.value(2).toInt(), experts = q.value(3).toInt();
        auto chunk = decodeExpertLoadChunk(q.value(4).toInt(), q.value(5).toByteArray(), rows, experts);
        s_chunksDecoded.fetch_add(1, std::memory_order_relaxed);
        if (!chunk) {
            qWarning("%s", qPrintable(error(undecodableChunk(l, q.value(1).toLongLong())).text()));
            continue;
        }
        if (l != previousLayer || perLayer.empty()) {
            perLayer.emplace_back();
            previousLayer = l;
        }
        for (int r = 0; r < rows; ++r) {
            const qint64 s = chunk->steps[r];
            if ((firstStep && s < *firstStep) || (lastStep && s > *lastStep))
                continue;
            ++total;
            perLayer.back().append(ExpertLoadBlock{s, l, QVector<quint32>(chunk->counts.constBegin() + qsizetype(r) * experts,
                                                                 chunk->counts.constBegin() + qsizetype(r + 1) * experts)});
        }
    }
    return mergeLayers(perLayer, total);
}

QVector<ExpertLoadSummaryRow> ProjectStore::expertLoadSummary(qint64 runId, std::optional<int> layer,
                                                              std::optional<qint64> firstStep) const {
    QSqlQuery q(QSqlDatabase::database(m_connectionName, false));
    if (!selectChunkRows(q, "layer, first_step, steps, experts, ep, codec, data", "expert_load_summary", runId, layer,
                         firstStep, {}))
        qWarning("%s", qPrintable(error(sql::errorText(q)).text()));
    std::vector<QVector<ExpertLoadSummaryRow>> perLayer;
    qsizetype total = 0;
    int previousLayer = INT_MIN;
    while (q.next()) {
        const int l = q.value(0).toInt();
        const int rows = q.value(2).toInt(), experts = q.value(3).toInt();
        const int ep = q.value(4).isNull() ? 0 : q.value(4).toInt();
        auto values = decodeLoadSummary(q.value(5).toInt(), q.value(6).toByteArray(), rows);
        if (!values) {
            qWarning("%s", qPrintable(error(undecodableChunk(l, q.value(1).toLongLong())).text()));
            continue;
        }
        if (l != previousLayer || perLayer.empty()) {
            perLayer.emplace_back();
            previousLayer = l;
        }
        for (const LoadSummaryValues& v : *values) {
            if (firstStep && v.step < *firstStep)
                continue;
            ++total;
            perLayer.back().append(ExpertLoadSummaryRow{v.step, l, experts, v.sum, v.max, v.argmax, v.busiestRankTokens ? ep : 0,
                                            v.busiestRankTokens, v.droppedTokens});
        }
    }
    return mergeLayers(perLayer, total);
}

ExpertLoadTotals ProjectStore::expertLoadTotals(qint64 runId, std::optional<qint64> firstStep,
                                                std::optional<qint64> lastStep, const std::atomic<bool>* cancel) const {
    ExpertLoadTotals out;
    const auto cancelled = [cancel] { return cancel && cancel->load(std::memory_order_relaxed); };
    const auto inside = [&](qint64 s) { return (!firstStep || s >= *firstStep) && (!lastStep || s <= *lastStep); };
    // The row every block of a layer is added to; nullptr once two expert counts meet.
    const auto rowOf = [&out](int layer, int experts) -> std::vector<quint64>* {
        if (out.experts == 0)
            out.experts = experts;
        else if (experts != out.experts)
            out.mixedExperts = true;
        if (out.mixedExperts)
            return nullptr;
        std::vector<quint64>& row = out.perLayer[layer];
        row.resize(std::size_t(experts), 0);
        return &row;
    };
    std::vector<std::pair<qint64, qint64>> spans; // steps carrying load, as inclusive ranges
    QList<QPair<int, qint64>> cut;                 // (layer, first step): chunks to decode

    QSqlDatabase db = QSqlDatabase::database(m_connectionName, false);
    {
        QSqlQuery q(db);
        if (!selectChunkRows(q, "layer, first_step, last_step, steps, experts, codec, totals", "expert_load_totals",
                             runId, {}, firstStep, lastStep))
            qWarning("%s", qPrintable(error(sql::errorText(q)).text()));
        while (q.next()) {
            if (cancelled())
                return {};
            const int layer = q.value(0).toInt();
            const qint64 first = q.value(1).toLongLong(), last = q.value(2).toLongLong();
            const int rows = q.value(3).toInt(), experts = q.value(4).toInt();
            std::optional<DecodedTotals> t;
            if (inside(first) && inside(last))
                t = decodeExpertTotals(q.value(5).toInt(), q.value(6).toByteArray(), rows, experts);
            // A chunk the window cuts, or whose totals cannot be read: its counts are decoded.
            if (!t || t->steps.isEmpty() || t->steps.first() != first || t->steps.last() != last) {
                cut.append({layer, first});
                continue;
            }
            std::vector<quint64>* row = rowOf(layer, experts);
            if (!row)
                continue;
            for (int e = 0; e < experts; ++e)
                (*row)[std::size_t(e)] += t->totals[std::size_t(e)];
            if (qint64(rows) == last - first + 1)
                spans.emplace_back(first, last);
            else
                for (qint64 s : t->steps)
                    spans.emplace_back(s, s);
        }
    }
    if (!cut.isEmpty()) {
        QSqlQuery q(db);
        q.setForwardOnly(true);
        q.prepare(QStringLiteral("SELECT steps, experts, codec, counts FROM expert_load_chunk WHERE run_id = ? AND "
                                 "layer = ? AND first_step = ?"));
        for (const auto& [layer, first] : cut) {
            if (cancelled())
                return {};
            q.bindValue(0, runId);
            q.bindValue(1, layer);
            q.bindValue(2, first);
            if (!q.exec()) {
                qWarning("%s", qPrintable(error(sql::errorText(q)).text()));
                continue;
            }
            if (!q.next())
                continue;
            const int rows = q.value(0).toInt(), experts = q.value(1).toInt();
            const auto chunk = decodeExpertLoadChunk(q.value(2).toInt(), q.value(3).toByteArray(), rows, experts);
            q.finish();
            s_chunksDecoded.fetch_add(1, std::memory_order_relaxed);
            if (!chunk) {
                qWarning("%s", qPrintable(error(undecodableChunk(layer, first)).text()));
                continue;
            }
            std::vector<quint64>* row = nullptr;
            for (int r = 0; r < rows; ++r) {
                const qint64 s = chunk->steps[r];
                if (!inside(s))
                    continue;
                if (!row && !(row = rowOf(layer, experts)))
                    break;
                const quint32* counts = chunk->counts.constData() + qsizetype(r) * experts;
                for (int e = 0; e < experts; ++e)
                    (*row)[std::size_t(e)] += counts[e];
                spans.emplace_back(s, s);
            }
        }
    }
    if (out.mixedExperts) {
        out.perLayer.clear();
        return out;
    }
    // The steps that carried load in any layer: the union of the ranges.
    std::sort(spans.begin(), spans.end());
    qint64 covered = 0, from = 0, to = -1;
    bool open = false;
    for (const auto& [a, b] : spans) {
        if (open && a <= to + 1) {
            to = std::max(to, b);
            continue;
        }
        if (open)
            covered += to - from + 1;
        from = a, to = b, open = true;
    }
    if (open) {
        covered += to - from + 1;
        out.firstStep = spans.front().first;
        out.lastStep = to;
    }
    out.steps = covered;
    return out;
}

} // namespace moewb::store

namespace moewb::store::sql {

int expertParallelOfRecord(QSqlDatabase& db, qint64 recordId) {
    QSqlQuery q(db);
    q.prepare(QStringLiteral("SELECT json FROM config_record WHERE id = ?"));
    q.bindValue(0, recordId);
    if (!q.exec() || !q.next())
        return 0;
    const QJsonObject json = sql::objectFromDb(q.value(0));
    const QJsonValue ep = json.value(QLatin1String("parallelism")).toObject().value(QLatin1String("ep"));
    return ep.isDouble() && ep.toDouble() >= 1 && ep.toDouble() <= 65536 ? int(ep.toDouble()) : 0;
}

} // namespace moewb::store::sql
