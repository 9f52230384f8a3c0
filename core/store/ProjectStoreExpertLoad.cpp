// Expert load in chunks (schema version 5): the sink that writes them and the
// readers that decode them. docs/store.md, "Expert load".
#include "store/ExpertLoadSink.h"
#include "store/NameRules.h"
#include "store/ProjectStore.h"
#include "store/SqlSupport.h"

#include <QFuture>
#include <QHash>
#include <QSet>
#include <QSqlQuery>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <zstd.h>

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
    if (counts.size() > std::size_t(kMaxChunkExperts)) {
        d->error = StoreTr::tr("the expert load at step %1, layer %2 lists %3 experts (at most 65,536)")
                       .arg(step)
                       .arg(layer)
                       .arg(counts.size());
        return false;
    }
    // The readers refuse any other layer (ExpertLoadCodec.h, "Bounds on reading").
    if (layer < 0 || layer > kMaxLayer) {
        d->error = StoreTr::tr("the expert load at step %1 names layer %2 (layers are 0 to %3)")
                       .arg(step)
                       .arg(layer)
                       .arg(kMaxLayer);
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

// Decoded data beyond kInflationRatio times the stored bytes it came from: real counts
// compress a few times at most, so only data built to inflate (a bomb of legal shape:
// 256 steps × 65,536 experts of zeros in a few KB) or synthetic constant counts go past
// it. Over its life a ProjectStore keeps at most kKeptAllowance bytes of such data for
// its callers (memory) and inflates at most kInflatedAllowance bytes of it (time: about
// a second); beyond either, such a chunk is refused like a damaged one (docs/store.md,
// "Reading a project from someone else").
constexpr qint64 kInflationRatio = 64;
constexpr qint64 kKeptAllowance = qint64(256) << 20;
constexpr qint64 kInflatedAllowance = qint64(512) << 20;

// A store's allowances, set on its first read.
void startAllowances(bool& started, qint64& kept, qint64& inflated) {
    if (started)
        return;
    started = true;
    kept = kKeptAllowance;
    inflated = kInflatedAllowance;
}

// One row of expert_load_chunk, expert_load_summary or expert_load_totals: its key and
// shape as read, each checked before it is narrowed or used.
struct ChunkRow {
    int layer = 0;
    qint64 firstStep = 0;
    qint64 lastStep = 0;
    int rows = 0;
    int experts = 0;
};

// Columns at..at+4 of q: layer, first_step, last_step, steps, experts. nullopt (and
// why) when a value is not an integer or lies outside the format's bounds; `shown`
// then still holds what could be read, for the message.
std::optional<ChunkRow> chunkRow(const QSqlQuery& q, int at, ChunkRow* shown, QString* why) {
    qint64 v[5] = {};
    bool allIntegers = true;
    for (int i = 0; i < 5; ++i) {
        const QVariant value = q.value(at + i);
        bool ok = value.typeId() == QMetaType::LongLong || value.typeId() == QMetaType::Int ||
                  value.typeId() == QMetaType::ULongLong || value.typeId() == QMetaType::UInt;
        v[i] = ok ? value.toLongLong(&ok) : 0;
        allIntegers = allIntegers && ok;
    }
    shown->layer = int(std::clamp<qint64>(v[0], INT_MIN, INT_MAX));
    shown->firstStep = v[1];
    shown->lastStep = v[2];
    if (!allIntegers) {
        *why = StoreTr::tr("its row holds a value that is not a whole number");
        return std::nullopt;
    }
    if (const QString problem = chunkShapeProblem(v[0], v[3], v[4]); !problem.isEmpty()) {
        *why = problem;
        return std::nullopt;
    }
    qint64 span = 0;
    if (v[1] > v[2] || (!__builtin_sub_overflow(v[2], v[1], &span) && span < v[3] - 1)) {
        *why = StoreTr::tr("its row's steps %1–%2 cannot hold %3 steps").arg(v[1]).arg(v[2]).arg(v[3]);
        return std::nullopt;
    }
    return ChunkRow{int(v[0]), v[1], v[2], int(v[3]), int(v[4])};
}

// The row's codec and blob at `at`, `at + 1` (a blob that is not one: empty).
int codecAt(const QSqlQuery& q, int at) {
    bool ok = false;
    const qint64 codec = q.value(at).toLongLong(&ok);
    return ok && codec >= 0 && codec <= INT_MAX ? int(codec) : -1;
}
QByteArray blobAt(const QSqlQuery& q, int at) {
    const QVariant v = q.value(at);
    return v.typeId() == QMetaType::QByteArray ? v.toByteArray() : QByteArray();
}

// The steps a decoded chunk holds must be its row's.
QString stepsMismatch(const QVector<qint64>& steps, const ChunkRow& row) {
    if (!steps.isEmpty() && steps.first() == row.firstStep && steps.last() == row.lastStep)
        return {};
    return StoreTr::tr("its steps %1–%2 are not its row's")
        .arg(steps.isEmpty() ? 0 : steps.first())
        .arg(steps.isEmpty() ? 0 : steps.last());
}

enum class LoadTable { Chunk, Summary, Totals };

// What the readers could not read: one sentence per chunk naming the layer and the
// steps (the caller names the run); without a list to add them to, each is logged with
// the run's name.
class Problems {
public:
    Problems(QSqlDatabase db, qint64 runId, QStringList* out, const QString& file)
        : m_db(db), m_runId(runId), m_out(out), m_file(file) {}
    void add(LoadTable table, const ChunkRow& row, const QString& why) {
        QString text;
        switch (table) {
        case LoadTable::Chunk:
            text = StoreTr::tr("the expert load of layer %1, steps %2–%3 cannot be read: %4");
            break;
        case LoadTable::Summary:
            text = StoreTr::tr("the load summary of layer %1, steps %2–%3 cannot be read: %4");
            break;
        case LoadTable::Totals:
            text = StoreTr::tr("the expert totals of layer %1, steps %2–%3 cannot be read: %4");
            break;
        }
        addText(text.arg(row.layer).arg(row.firstStep).arg(row.lastStep).arg(why));
    }
    // A query that failed: SQLite's own words.
    void addQuery(const QString& sqlError) {
        addText(StoreTr::tr("the expert load cannot be read: %1").arg(sqlError));
    }

private:
    void addText(const QString& text) {
        if (m_out) {
            m_out->append(text);
            return;
        }
        QSqlQuery q(m_db);
        q.prepare(QStringLiteral("SELECT name FROM run WHERE id = ?"));
        q.bindValue(0, m_runId);
        const QString run =
            q.exec() && q.next() ? printableName(sql::nameFromDb(q.value(0))) : QStringLiteral("#%1").arg(m_runId);
        qWarning("%s: run %s: %s", qPrintable(m_file), qPrintable(run), qPrintable(text));
    }
    QSqlDatabase m_db;
    qint64 m_runId;
    QStringList* m_out;
    QString m_file;
};

// Charges `retained` decoded bytes, kept from `stored` bytes of blob, against a store's
// allowance for data that inflates past kInflationRatio. False (nothing charged) when
// it would run out; *why then says so.
bool chargeKept(qint64& left, qint64 retained, qint64 stored, QString* why) {
    const qint64 beyond = retained - kInflationRatio * stored;
    if (beyond <= 0)
        return true;
    if (beyond > left) {
        *why = StoreTr::tr("it inflates to %1 KiB from %2 bytes, more than %3 times, and this project has already "
                           "read its %4 MiB of such data (a decompression bomb?)")
                   .arg(retained >> 10)
                   .arg(stored)
                   .arg(kInflationRatio)
                   .arg(kKeptAllowance >> 20);
        return false;
    }
    left -= beyond;
    return true;
}

// The same for the bytes a blob's zstd frame declares, before it is inflated (the
// decoder then checks the frame against its row's shape and its declared size).
bool chargeInflating(qint64& left, const QByteArray& blob, QString* why) {
    const unsigned long long declared = ZSTD_getFrameContentSize(blob.constData(), std::size_t(blob.size()));
    if (declared == ZSTD_CONTENTSIZE_ERROR || declared == ZSTD_CONTENTSIZE_UNKNOWN || declared > kMaxStreamBytes)
        return true; // refused by the decoder, uninflated
    const qint64 beyond = qint64(declared) - kInflationRatio * blob.size();
    if (beyond <= 0)
        return true;
    if (beyond > left) {
        *why = StoreTr::tr("it would inflate to %1 KiB from %2 bytes, more than %3 times, and this project has "
                           "already inflated its %4 GiB of such data (a decompression bomb?)")
                   .arg(declared >> 10)
                   .arg(blob.size())
                   .arg(kInflationRatio)
                   .arg(kInflatedAllowance >> 30);
        return false;
    }
    left -= beyond;
    return true;
}

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

// Bytes a block of `experts` counts keeps (its QVector's header included).
constexpr qint64 blockBytes(int experts) {
    return qint64(sizeof(ExpertLoadBlock)) + 32 + 4 * qint64(experts);
}
} // namespace

qint64 ProjectStore::expertLoadChunksDecoded() {
    return s_chunksDecoded.load(std::memory_order_relaxed);
}

QVector<ExpertLoadBlock> ProjectStore::expertLoad(qint64 runId, std::optional<qint64> step, std::optional<int> layer,
                                                  QStringList* problems) const {
    return expertLoadRange(runId, step, step, layer, problems);
}

QVector<ExpertLoadBlock> ProjectStore::expertLoadRange(qint64 runId, std::optional<qint64> firstStep,
                                                       std::optional<qint64> lastStep, std::optional<int> layer,
                                                       QStringList* problems) const {
    startAllowances(m_inflationLeft.started, m_inflationLeft.kept, m_inflationLeft.inflated);
    QSqlDatabase db = QSqlDatabase::database(m_connectionName, false);
    Problems damage(db, runId, problems, m_path);
    QSqlQuery q(db);
    if (!selectChunkRows(q, "layer, first_step, last_step, steps, experts, codec, counts", "expert_load_chunk", runId,
                         layer, firstStep, lastStep))
        damage.addQuery(sql::errorText(q));
    std::vector<QVector<ExpertLoadBlock>> perLayer;
    qsizetype total = 0;
    int previousLayer = INT_MIN;
    while (q.next()) {
        ChunkRow row;
        QString why;
        const std::optional<ChunkRow> checked = chunkRow(q, 0, &row, &why);
        std::optional<DecodedChunk> chunk;
        if (checked) {
            row = *checked;
            const QByteArray blob = blobAt(q, 6);
            // The most this chunk can keep: its rows inside the window, at most one a step
            // (steps strictly increase). A chunk that would run out of the allowance even
            // so is refused before it is inflated.
            const qint64 from = firstStep ? std::max(row.firstStep, *firstStep) : row.firstStep;
            const qint64 to = lastStep ? std::min(row.lastStep, *lastStep) : row.lastStep;
            qint64 span = 0;
            const qint64 most = to < from ? 0
                                : __builtin_sub_overflow(to, from, &span) || span >= row.rows ? row.rows
                                                                                                : span + 1;
            qint64 wouldLeave = m_inflationLeft.kept;
            if (chargeKept(wouldLeave, most * blockBytes(row.experts), blob.size(), &why) &&
                chargeInflating(m_inflationLeft.inflated, blob, &why)) {
                chunk = decodeExpertLoadChunk(codecAt(q, 5), blob, row.rows, row.experts, &why);
                s_chunksDecoded.fetch_add(1, std::memory_order_relaxed);
            }
            if (chunk && !(why = stepsMismatch(chunk->steps, row)).isEmpty())
                chunk.reset();
            if (chunk) {
                qint64 kept = 0;
                for (qint64 s : std::as_const(chunk->steps))
                    kept += (firstStep && s < *firstStep) || (lastStep && s > *lastStep) ? 0 : 1;
                if (!chargeKept(m_inflationLeft.kept, kept * blockBytes(row.experts), blob.size(), &why))
                    chunk.reset();
            }
        }
        if (!chunk) {
            damage.add(LoadTable::Chunk, row, why);
            continue;
        }
        if (row.layer != previousLayer || perLayer.empty()) {
            perLayer.emplace_back();
            previousLayer = row.layer;
        }
        const int experts = row.experts;
        for (int r = 0; r < row.rows; ++r) {
            const qint64 s = chunk->steps[r];
            if ((firstStep && s < *firstStep) || (lastStep && s > *lastStep))
                continue;
            ++total;
            perLayer.back().append(
                ExpertLoadBlock{s, row.layer,
                                QVector<quint32>(chunk->counts.constBegin() + qsizetype(r) * experts,
                                                 chunk->counts.constBegin() + qsizetype(r + 1) * experts)});
        }
    }
    return mergeLayers(perLayer, total);
}

QVector<ExpertLoadSummaryRow> ProjectStore::expertLoadSummary(qint64 runId, std::optional<int> layer,
                                                              std::optional<qint64> firstStep,
                                                              QStringList* problems) const {
    startAllowances(m_inflationLeft.started, m_inflationLeft.kept, m_inflationLeft.inflated);
    QSqlDatabase db = QSqlDatabase::database(m_connectionName, false);
    Problems damage(db, runId, problems, m_path);
    QSqlQuery q(db);
    if (!selectChunkRows(q, "layer, first_step, last_step, steps, experts, ep, codec, data", "expert_load_summary",
                         runId, layer, firstStep, {}))
        damage.addQuery(sql::errorText(q));
    std::vector<QVector<ExpertLoadSummaryRow>> perLayer;
    qsizetype total = 0;
    int previousLayer = INT_MIN;
    while (q.next()) {
        ChunkRow row;
        QString why;
        const std::optional<ChunkRow> checked = chunkRow(q, 0, &row, &why);
        std::optional<QVector<LoadSummaryValues>> values;
        int ep = 0;
        if (checked) {
            row = *checked;
            bool epOk = true;
            const qint64 epValue = q.value(5).isNull() ? 0 : q.value(5).toLongLong(&epOk);
            if (!epOk || epValue < 0 || epValue > kMaxChunkExperts) {
                why = StoreTr::tr("its expert-parallel size %1 is outside 1 to %2")
                          .arg(q.value(5).toString().left(32))
                          .arg(kMaxChunkExperts);
            } else {
                ep = int(epValue);
                const QByteArray blob = blobAt(q, 7);
                if (chargeInflating(m_inflationLeft.inflated, blob, &why))
                    values = decodeLoadSummary(codecAt(q, 6), blob, row.rows, row.experts, &why);
                if (values) {
                    QVector<qint64> steps;
                    steps.reserve(values->size());
                    for (const LoadSummaryValues& v : std::as_const(*values))
                        steps.append(v.step);
                    if (!(why = stepsMismatch(steps, row)).isEmpty() ||
                        !chargeKept(m_inflationLeft.kept, qint64(values->size()) * qint64(sizeof(ExpertLoadSummaryRow)),
                                         blob.size(), &why))
                        values.reset();
                }
            }
        }
        if (!values) {
            damage.add(LoadTable::Summary, row, why);
            continue;
        }
        if (row.layer != previousLayer || perLayer.empty()) {
            perLayer.emplace_back();
            previousLayer = row.layer;
        }
        for (const LoadSummaryValues& v : std::as_const(*values)) {
            if (firstStep && v.step < *firstStep)
                continue;
            ++total;
            perLayer.back().append(ExpertLoadSummaryRow{v.step, row.layer, row.experts, v.sum, v.max, v.argmax,
                                                        v.busiestRankTokens ? ep : 0, v.busiestRankTokens,
                                                        v.droppedTokens});
        }
    }
    return mergeLayers(perLayer, total);
}

ExpertLoadTotals ProjectStore::expertLoadTotals(qint64 runId, std::optional<qint64> firstStep,
                                                std::optional<qint64> lastStep, const std::atomic<bool>* cancel,
                                                QStringList* problems) const {
    ExpertLoadTotals out;
    const auto cancelled = [cancel] { return cancel && cancel->load(std::memory_order_relaxed); };
    const auto inside = [&](qint64 s) { return (!firstStep || s >= *firstStep) && (!lastStep || s <= *lastStep); };
    startAllowances(m_inflationLeft.started, m_inflationLeft.kept, m_inflationLeft.inflated);
    QSqlDatabase db = QSqlDatabase::database(m_connectionName, false);
    Problems damage(db, runId, problems, m_path);
    // The row every block of a layer is added to; nullptr once two expert counts meet,
    // or when the layer's new row would take more than the inflation allowance left.
    const auto rowOf = [&](const ChunkRow& chunk, qint64 stored, LoadTable table) -> std::vector<quint64>* {
        if (out.experts == 0)
            out.experts = chunk.experts;
        else if (chunk.experts != out.experts)
            out.mixedExperts = true;
        if (out.mixedExperts)
            return nullptr;
        if (!out.perLayer.contains(chunk.layer)) {
            QString why;
            if (!chargeKept(m_inflationLeft.kept, qint64(chunk.experts) * 8, stored, &why)) {
                damage.add(table, chunk, why);
                return nullptr;
            }
        }
        std::vector<quint64>& row = out.perLayer[chunk.layer];
        row.resize(std::size_t(chunk.experts), 0);
        return &row;
    };
    // Each expert's tokens added in 64 bits; a sum that would overflow is refused.
    bool overflow = false;
    const auto add = [&overflow](std::vector<quint64>& row, int e, quint64 v) {
        overflow = __builtin_add_overflow(row[std::size_t(e)], v, &row[std::size_t(e)]) || overflow;
    };
    std::vector<std::pair<qint64, qint64>> spans; // steps carrying load, as inclusive ranges
    // Chunks to decode: their key, and the steps their totals row claims (the first
    // step twice when there is none), to name a chunk that is missing.
    QList<ChunkRow> cut;

    {
        QSqlQuery q(db);
        if (!selectChunkRows(q, "layer, first_step, last_step, steps, experts, codec, totals", "expert_load_totals",
                             runId, {}, firstStep, lastStep))
            damage.addQuery(sql::errorText(q));
        while (q.next()) {
            if (cancelled())
                return {};
            ChunkRow row;
            QString why;
            const std::optional<ChunkRow> checked = chunkRow(q, 0, &row, &why);
            if (!checked) {
                cut.append(row); // its chunk is read instead
                continue;
            }
            row = *checked;
            std::optional<DecodedTotals> t;
            const QByteArray blob = blobAt(q, 6);
            if (inside(row.firstStep) && inside(row.lastStep) && chargeInflating(m_inflationLeft.inflated, blob, &why))
                t = decodeExpertTotals(codecAt(q, 5), blob, row.rows, row.experts, &why);
            // A chunk the window cuts, or whose totals cannot be read: its counts are decoded.
            if (!t || !stepsMismatch(t->steps, row).isEmpty()) {
                cut.append(row);
                continue;
            }
            std::vector<quint64>* sums = rowOf(row, blob.size(), LoadTable::Totals);
            if (!sums)
                continue;
            for (int e = 0; e < row.experts; ++e)
                add(*sums, e, t->totals[std::size_t(e)]);
            if (qint64(row.rows) == row.lastStep - row.firstStep + 1)
                spans.emplace_back(row.firstStep, row.lastStep);
            else
                for (qint64 s : std::as_const(t->steps))
                    spans.emplace_back(s, s);
        }
    }
    // Chunks without a totals row (a file whose totals were lost): their counts are
    // decoded, so that the sums never silently leave a chunk out. Keys only, from the
    // two tables' primary-key indexes: no blob is read.
    {
        QSet<QPair<int, qint64>> everyTotals;
        QSqlQuery keys(db);
        keys.setForwardOnly(true);
        keys.prepare(QStringLiteral("SELECT layer, first_step FROM expert_load_totals WHERE run_id = ?"));
        keys.bindValue(0, runId);
        if (keys.exec())
            while (keys.next())
                everyTotals.insert({keys.value(0).toInt(), keys.value(1).toLongLong()});
        QSet<QPair<int, qint64>> queued;
        for (const ChunkRow& c : std::as_const(cut))
            queued.insert({c.layer, c.firstStep});
        keys.prepare(QStringLiteral("SELECT layer, first_step FROM expert_load_chunk WHERE run_id = ?%1")
                         .arg(lastStep ? QStringLiteral(" AND first_step <= ?") : QString()));
        keys.bindValue(0, runId);
        if (lastStep)
            keys.bindValue(1, *lastStep);
        if (!keys.exec())
            damage.addQuery(sql::errorText(keys));
        while (keys.next()) {
            const QPair<int, qint64> key{keys.value(0).toInt(), keys.value(1).toLongLong()};
            if (!everyTotals.contains(key) && !queued.contains(key))
                cut.append(ChunkRow{key.first, key.second, key.second, 0, 0});
        }
    }
    if (!cut.isEmpty()) {
        QSqlQuery q(db);
        q.setForwardOnly(true);
        q.prepare(QStringLiteral("SELECT layer, first_step, last_step, steps, experts, codec, counts FROM "
                                 "expert_load_chunk WHERE run_id = ? AND layer = ? AND first_step = ?"));
        for (const ChunkRow& key : std::as_const(cut)) {
            if (cancelled())
                return {};
            q.bindValue(0, runId);
            q.bindValue(1, key.layer);
            q.bindValue(2, key.firstStep);
            if (!q.exec()) {
                damage.addQuery(sql::errorText(q));
                continue;
            }
            if (!q.next()) {
                // A totals row without its chunk: the counts it stands for are gone.
                if ((!firstStep || key.lastStep >= *firstStep) && (!lastStep || key.firstStep <= *lastStep))
                    damage.add(LoadTable::Chunk, key, StoreTr::tr("it is missing (its totals row is there)"));
                continue;
            }
            ChunkRow row;
            QString why;
            const std::optional<ChunkRow> checked = chunkRow(q, 0, &row, &why);
            std::optional<DecodedChunk> chunk;
            const QByteArray blob = blobAt(q, 6);
            if (checked) {
                row = *checked;
                if ((firstStep && row.lastStep < *firstStep) || (lastStep && row.firstStep > *lastStep)) {
                    q.finish();
                    continue; // outside the window
                }
                if (chargeInflating(m_inflationLeft.inflated, blob, &why)) {
                    chunk = decodeExpertLoadChunk(codecAt(q, 5), blob, row.rows, row.experts, &why);
                    s_chunksDecoded.fetch_add(1, std::memory_order_relaxed);
                }
                if (chunk && !(why = stepsMismatch(chunk->steps, row)).isEmpty())
                    chunk.reset();
            }
            q.finish();
            if (!chunk) {
                damage.add(LoadTable::Chunk, row, why);
                continue;
            }
            std::vector<quint64>* sums = nullptr;
            for (int r = 0; r < row.rows; ++r) {
                const qint64 s = chunk->steps[r];
                if (!inside(s))
                    continue;
                if (!sums && !(sums = rowOf(row, blob.size(), LoadTable::Chunk)))
                    break;
                const quint32* counts = chunk->counts.constData() + qsizetype(r) * row.experts;
                for (int e = 0; e < row.experts; ++e)
                    add(*sums, e, counts[e]);
                spans.emplace_back(s, s);
            }
        }
    }
    if (overflow) {
        // Not one figure of a run can be trusted once a sum ran past 2^64 − 1 tokens.
        damage.addQuery(StoreTr::tr("its tokens per expert add up to more than 2^64 − 1"));
        out.perLayer.clear();
        out.experts = 0;
        return out;
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
