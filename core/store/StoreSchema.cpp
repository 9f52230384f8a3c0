#include "store/StoreSchema.h"

#include "store/ExpertLoadCodec.h"
#include "store/ExpertLoadSink.h"
#include "store/ProjectStore.h"
#include "store/SqlSupport.h"

#include <QPair>
#include <QSqlQuery>
#include <QStringList>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentMap>

#include <algorithm>

#include <span>

namespace moewb::store {

QList<ThresholdRow> placeholderThresholds() {
    using S = ThresholdSource;
    // Placeholders until the team sets its own; docs/store.md explains each.
    return {
        {QStringLiteral("stage1.cv_max"),
         0.10,
         S::Placeholder,
         StoreTr::tr("coefficient of variation of time across repeats, per message size"),
         {}},
        {QStringLiteral("stage1.p99_over_median_max"),
         2.0,
         S::Placeholder,
         StoreTr::tr("P99 latency over median latency, per message size"),
         {}},
        {QStringLiteral("stage3.load_ratio_max"),
         1.5,
         S::Placeholder,
         StoreTr::tr("expert load max/mean per layer and step"),
         {}},
        {QStringLiteral("stage3.load_ratio_window_fraction"),
         0.5,
         S::Placeholder,
         StoreTr::tr("fraction of a window's steps above the load ratio limit that stops stage 3"),
         {}},
        {QStringLiteral("stage3.drop_rate_max"),
         0.01,
         S::Placeholder,
         StoreTr::tr("fraction of routed tokens dropped (drop policies only)"),
         {}},
        {QStringLiteral("stage4.baseline_diff_max"),
         0.15,
         S::Placeholder,
         StoreTr::tr("relative difference of the target's stage 1 baseline from the source's, per size"),
         {}},
    };
}

} // namespace moewb::store

namespace moewb::store::schema {
namespace {

// Schema version 1 as the first release created it (tests/fixtures/store/schema-v1.sql
// is a file it wrote): version 2's tables (kSchemaV2 below) but these three, and no
// indexes. Kept to know a version-1 file before upgrading it (knownSchema).
const char* const kSchemaV1Differs[] = {
    R"(CREATE TABLE run (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL CHECK (kind IN ('probe', 'training', 'imported')),
    record_id INTEGER NOT NULL REFERENCES config_record(id),
    cluster_id INTEGER REFERENCES cluster(id),
    source_file TEXT NOT NULL DEFAULT '',
    environment TEXT NOT NULL DEFAULT '{}',
    created TEXT NOT NULL))",
    R"(CREATE TABLE expert_load (
    run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
    step INTEGER NOT NULL,
    layer INTEGER NOT NULL,
    expert INTEGER NOT NULL,
    tokens INTEGER NOT NULL,
    PRIMARY KEY (run_id, step, layer, expert)) WITHOUT ROWID)",
    R"(CREATE TABLE threshold (
    key TEXT PRIMARY KEY NOT NULL,
    value REAL NOT NULL,
    updated TEXT NOT NULL))",
};

// Schema version 2, the base of the current schema (version 3 = these plus
// kAssessmentTables). Tables that a migration rebuilds or extends must end up
// with the same columns as here; the migration test compares them.
const char* const kSchemaV2[] = {
    R"(CREATE TABLE config_record (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        json TEXT NOT NULL,
        complete INTEGER NOT NULL DEFAULT 0,
        created TEXT NOT NULL))",
    R"(CREATE TABLE cluster (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        gpus_per_node INTEGER NOT NULL DEFAULT 0,
        identity_file TEXT NOT NULL DEFAULT '',
        facts TEXT NOT NULL DEFAULT '{}'))",
    R"(CREATE TABLE node (
        id INTEGER PRIMARY KEY,
        cluster_id INTEGER NOT NULL REFERENCES cluster(id) ON DELETE CASCADE,
        address TEXT NOT NULL,
        gpus INTEGER NOT NULL DEFAULT 0,
        facts TEXT NOT NULL DEFAULT '{}',
        UNIQUE (cluster_id, address)))",
    R"(CREATE TABLE run (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        kind TEXT NOT NULL CHECK (kind IN ('probe', 'training', 'imported')),
        record_id INTEGER NOT NULL REFERENCES config_record(id),
        cluster_id INTEGER REFERENCES cluster(id),
        source_file TEXT NOT NULL DEFAULT '',
        environment TEXT NOT NULL DEFAULT '{}',
        created TEXT NOT NULL,
        comm_sample_count INTEGER NOT NULL DEFAULT 0,
        step_count INTEGER NOT NULL DEFAULT 0,
        expert_load_blocks INTEGER NOT NULL DEFAULT 0))",
    R"(CREATE INDEX run_record ON run(record_id))",
    R"(CREATE INDEX run_cluster ON run(cluster_id))",
    R"(CREATE TABLE comm_sample (
        run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
        bytes_per_rank INTEGER NOT NULL,
        repeat INTEGER NOT NULL,
        iteration INTEGER NOT NULL,
        time_us REAL NOT NULL,
        PRIMARY KEY (run_id, bytes_per_rank, repeat, iteration)) WITHOUT ROWID)",
    R"(CREATE TABLE metric_name (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE))",
    // value is NULL for NaN (SQLite stores NaN as NULL); read back as NaN.
    R"(CREATE TABLE step_metric (
        run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
        metric_id INTEGER NOT NULL REFERENCES metric_name(id),
        step INTEGER NOT NULL,
        value REAL,
        PRIMARY KEY (run_id, metric_id, step)) WITHOUT ROWID)",
    R"(CREATE TABLE expert_load (
        run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
        step INTEGER NOT NULL,
        layer INTEGER NOT NULL,
        experts INTEGER NOT NULL,
        codec INTEGER NOT NULL DEFAULT 0,
        counts BLOB NOT NULL,
        PRIMARY KEY (run_id, step, layer)) WITHOUT ROWID)",
    R"(CREATE TABLE threshold (
        key TEXT PRIMARY KEY NOT NULL,
        value REAL NOT NULL,
        source TEXT NOT NULL CHECK (source IN ('placeholder', 'team', 'suggested')),
        note TEXT NOT NULL DEFAULT '',
        updated TEXT NOT NULL))",
    R"(CREATE TABLE verdict (
        stage INTEGER PRIMARY KEY NOT NULL,
        status TEXT NOT NULL,
        reasons TEXT NOT NULL DEFAULT '[]',
        decided TEXT NOT NULL))",
    R"(CREATE TABLE override (
        id INTEGER PRIMARY KEY,
        stage INTEGER NOT NULL,
        justification TEXT NOT NULL CHECK (length(trim(justification)) > 0),
        author TEXT NOT NULL DEFAULT '',
        created TEXT NOT NULL))",
};

// Added by version 3: the assessment sheet (seed 003) and its cost estimate. Used
// as-is both for new files and by the 2 -> 3 migration.
const char* const kAssessmentTables[] = {
    // One row at most: who saved the sheet last, and when.
    R"(CREATE TABLE assessment (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        author TEXT NOT NULL DEFAULT '',
        updated TEXT NOT NULL))",
    R"(CREATE TABLE assessment_dimension (
        key TEXT PRIMARY KEY NOT NULL,
        position INTEGER NOT NULL,
        rating TEXT NOT NULL DEFAULT '',
        notes TEXT NOT NULL DEFAULT ''))",
    // A link to a run (run_id) or to a stage (stage); removing the run removes it.
    R"(CREATE TABLE assessment_evidence (
        dimension_key TEXT NOT NULL REFERENCES assessment_dimension(key) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('run', 'stage')),
        run_id INTEGER REFERENCES run(id) ON DELETE CASCADE,
        stage INTEGER CHECK (stage IS NULL OR stage BETWEEN 1 AND 4),
        note TEXT NOT NULL DEFAULT '',
        CHECK ((kind = 'run') = (run_id IS NOT NULL)),
        CHECK ((kind = 'stage') = (stage IS NOT NULL)),
        PRIMARY KEY (dimension_key, position)) WITHOUT ROWID)",
    R"(CREATE INDEX assessment_evidence_run ON assessment_evidence(run_id))",
    R"(CREATE TABLE cost_estimate (
        category TEXT PRIMARY KEY NOT NULL,
        position INTEGER NOT NULL,
        estimate TEXT NOT NULL DEFAULT '',
        drivers TEXT NOT NULL DEFAULT '',
        notes TEXT NOT NULL DEFAULT ''))",
};

// Added by version 4: a run's last write (insert or `import --into`) and what each
// verdict was computed on (stages/VerdictBasis.h: the runs with their fingerprints).
// Used as-is both for new files and by the 3 -> 4 migration.
const char* const kVersion4Statements[] = {
    "ALTER TABLE run ADD COLUMN updated TEXT NOT NULL DEFAULT ''",
    "UPDATE run SET updated = created",
    "ALTER TABLE verdict ADD COLUMN basis TEXT NOT NULL DEFAULT '{}'",
};

// Added by version 5: expert load as compressed chunks of a layer's steps, with the
// per-(step, layer) summary beside them (store/ExpertLoadCodec.h, ExpertLoadSink.h);
// they replace version 2's expert_load (one blob per step and layer). Rowid tables:
// a chunk is kilobytes, too large for a WITHOUT ROWID b-tree cell.
const char* const kVersion5Tables[] = {
    R"(CREATE TABLE expert_load_chunk (
        run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
        layer INTEGER NOT NULL,
        first_step INTEGER NOT NULL,
        last_step INTEGER NOT NULL,
        steps INTEGER NOT NULL,
        experts INTEGER NOT NULL,
        codec INTEGER NOT NULL,
        counts BLOB NOT NULL,
        PRIMARY KEY (run_id, layer, first_step)))",
    R"(CREATE TABLE expert_load_summary (
        run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
        layer INTEGER NOT NULL,
        first_step INTEGER NOT NULL,
        last_step INTEGER NOT NULL,
        steps INTEGER NOT NULL,
        experts INTEGER NOT NULL,
        ep INTEGER,
        codec INTEGER NOT NULL,
        data BLOB NOT NULL,
        PRIMARY KEY (run_id, layer, first_step)))",
};

// Added by version 6: beside each chunk, each expert's total over the chunk's steps
// (store/ExpertLoadCodec.h, encodeExpertTotals), so that a sum over a window of steps
// (the placement what-if, `moewb placement`/`traffic`, the report) reads whole chunks
// from their totals and decodes only the chunks the window's edges cut. A table of its
// own: a reader of totals never pages through the chunks' or summaries' blobs.
const char* const kVersion6Tables[] = {
    R"(CREATE TABLE expert_load_totals (
        run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
        layer INTEGER NOT NULL,
        first_step INTEGER NOT NULL,
        last_step INTEGER NOT NULL,
        steps INTEGER NOT NULL,
        experts INTEGER NOT NULL,
        codec INTEGER NOT NULL,
        totals BLOB NOT NULL,
        PRIMARY KEY (run_id, layer, first_step)))",
    // A chunk's totals go with it, whoever deletes it (replaceRun clears a run's chunks
    // and writes them anew): totals never outlive or outnumber their chunks.
    // Kept in the schema (files have it; knownSchema checks it is this one) but no
    // trigger runs on moewb's connections (SQLITE_DBCONFIG_ENABLE_TRIGGER off,
    // sql::hardenConnection): the code that deletes chunks deletes their totals with them
    // (replaceRun; removing a run cascades to both). A trigger added here would not run.
    R"(CREATE TRIGGER expert_load_totals_follow_chunk AFTER DELETE ON expert_load_chunk BEGIN
        DELETE FROM expert_load_totals
        WHERE run_id = old.run_id AND layer = old.layer AND first_step = old.first_step;
    END)",
};

// Added by version 7: where each profiled step's time went, per rank, from the run's
// PyTorch profiler traces (core/anatomy; store/StepAnatomyRows.h), and the
// all-to-all calls matched across ranks with their bytes and transfer times.
// Summaries only: no trace event is stored.
const char* const kVersion7Tables[] = {
    R"(CREATE TABLE step_anatomy (
        run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
        step INTEGER NOT NULL,
        rank INTEGER NOT NULL,
        step_us REAL NOT NULL,
        compute_us REAL NOT NULL,
        a2a_us REAL NOT NULL,
        a2a_wait_us REAL NOT NULL,
        other_comm_us REAL NOT NULL,
        other_comm_wait_us REAL NOT NULL,
        exposed_comm_us REAL NOT NULL,
        memcpy_us REAL NOT NULL,
        idle_us REAL NOT NULL,
        busy_us REAL NOT NULL,
        PRIMARY KEY (run_id, step, rank)) WITHOUT ROWID)",
    R"(CREATE TABLE a2a_call (
        run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
        ordinal INTEGER NOT NULL,
        step INTEGER NOT NULL,
        process_group TEXT NOT NULL,
        ranks INTEGER NOT NULL,
        bytes_per_rank INTEGER NOT NULL,
        transfer_us REAL NOT NULL,
        slowest_us REAL NOT NULL,
        kind TEXT NOT NULL,
        splits_cut INTEGER NOT NULL,
        PRIMARY KEY (run_id, ordinal)) WITHOUT ROWID)",
};

// Added by version 8: each traced step drawn as a timeline per rank (core/anatomy/
// StepTimeline; store/StepTimelineRows.h): the intervals packed in one zstd blob per
// rank and step (store/TimelineCodec.h), bounded in intervals and steps. A rowid table:
// its rows are large.
const char* const kVersion8Tables[] = {
    R"(CREATE TABLE step_timeline (
        run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
        step INTEGER NOT NULL,
        rank INTEGER NOT NULL,
        step_start_ns INTEGER NOT NULL,
        step_end_ns INTEGER NOT NULL,
        intervals INTEGER NOT NULL,
        dropped INTEGER NOT NULL,
        data BLOB NOT NULL,
        PRIMARY KEY (run_id, step, rank)))",
};

bool migrateV7ToV8(QSqlDatabase& db, QString* error) {
    for (const char* statement : kVersion8Tables)
        if (!sql::exec(db, QString::fromUtf8(statement), error))
            return false;
    return true;
}

bool migrateV6ToV7(QSqlDatabase& db, QString* error) {
    for (const char* statement : kVersion7Tables)
        if (!sql::exec(db, QString::fromUtf8(statement), error))
            return false;
    return true;
}

bool execAll(QSqlDatabase& db, const QStringList& statements, QString* error) {
    for (const QString& s : statements)
        if (!sql::exec(db, s, error))
            return false;
    return true;
}

// v1 -> v2:
//  * expert_load: one row per (run, step, layer, expert) becomes one blob of E
//    little-endian uint32 per (run, step, layer) (~15x smaller, ~10x faster to write);
//  * threshold gains source and note: a value equal to its placeholder default is
//    marked "placeholder", anything else "team" (v1 only ever held those two);
//    placeholder keys that v1 lacked are seeded;
//  * run gains comm_sample_count, step_count and expert_load_blocks, backfilled.
bool migrateV1ToV2(QSqlDatabase& db, QString* error) {
    if (!execAll(db, {QStringLiteral(R"(CREATE TABLE expert_load_v2 (
                      run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
                      step INTEGER NOT NULL,
                      layer INTEGER NOT NULL,
                      experts INTEGER NOT NULL,
                      codec INTEGER NOT NULL DEFAULT 0,
                      counts BLOB NOT NULL,
                      PRIMARY KEY (run_id, step, layer)) WITHOUT ROWID)")},
                 error))
        return false;

    QSqlQuery read(db);
    read.setForwardOnly(true);
    if (!read.exec(QStringLiteral("SELECT run_id, step, layer, expert, tokens FROM expert_load "
                                  "ORDER BY run_id, step, layer, expert"))) {
        *error = sql::errorText(read);
        return false;
    }
    QSqlQuery write(db);
    write.prepare(QStringLiteral("INSERT INTO expert_load_v2 (run_id, step, layer, experts, codec, counts) "
                                 "VALUES (?, ?, ?, ?, 0, ?)"));
    qint64 runId = -1, step = -1;
    int layer = -1;
    QVector<quint32> counts;
    auto flush = [&]() -> bool {
        if (runId < 0)
            return true;
        write.bindValue(0, runId);
        write.bindValue(1, step);
        write.bindValue(2, layer);
        write.bindValue(3, int(counts.size()));
        write.bindValue(4, encodeExpertLoad(counts));
        return sql::exec(write, error);
    };
    while (read.next()) {
        const qint64 r = read.value(0).toLongLong();
        const qint64 s = read.value(1).toLongLong();
        const int l = read.value(2).toInt();
        const int expert = read.value(3).toInt();
        if (r != runId || s != step || l != layer) {
            if (!flush())
                return false;
            runId = r, step = s, layer = l;
            counts.clear();
        }
        if (expert < 0 || expert > 65535) {
            *error = StoreTr::tr("expert index %1 out of range at run %2, step %3, layer %4")
                         .arg(expert)
                         .arg(r)
                         .arg(s)
                         .arg(l);
            return false;
        }
        if (expert >= counts.size())
            counts.resize(expert + 1, 0); // v1 rows of experts that saw no tokens could be absent
        counts[expert] = quint32(read.value(4).toLongLong());
    }
    if (!flush())
        return false;
    read.finish();
    write.finish();

    if (!execAll(db,
                 {QStringLiteral("DROP TABLE expert_load"),
                  QStringLiteral("ALTER TABLE expert_load_v2 RENAME TO expert_load"),
                  QStringLiteral(R"(CREATE TABLE threshold_v2 (
                      key TEXT PRIMARY KEY NOT NULL,
                      value REAL NOT NULL,
                      source TEXT NOT NULL CHECK (source IN ('placeholder', 'team', 'suggested')),
                      note TEXT NOT NULL DEFAULT '',
                      updated TEXT NOT NULL))"),
                  QStringLiteral("INSERT INTO threshold_v2 (key, value, source, note, updated) "
                                 "SELECT key, value, 'team', '', updated FROM threshold"),
                  QStringLiteral("DROP TABLE threshold"),
                  QStringLiteral("ALTER TABLE threshold_v2 RENAME TO threshold")},
                 error))
        return false;

    QSqlQuery mark(db);
    mark.prepare(
        QStringLiteral("UPDATE threshold SET source = 'placeholder', note = ? WHERE key = ? AND value = ?"));
    for (const ThresholdRow& t : placeholderThresholds()) {
        mark.bindValue(0, t.note);
        mark.bindValue(1, t.key);
        mark.bindValue(2, t.value);
        if (!sql::exec(mark, error))
            return false;
    }
    mark.finish();
    if (!seedMissingThresholds(db, error))
        return false;

    return execAll(
        db,
        {QStringLiteral("ALTER TABLE run ADD COLUMN comm_sample_count INTEGER NOT NULL DEFAULT 0"),
         QStringLiteral("ALTER TABLE run ADD COLUMN step_count INTEGER NOT NULL DEFAULT 0"),
         QStringLiteral("ALTER TABLE run ADD COLUMN expert_load_blocks INTEGER NOT NULL DEFAULT 0"),
         QStringLiteral(
             "UPDATE run SET "
             "comm_sample_count = (SELECT count(*) FROM comm_sample c WHERE c.run_id = run.id), "
             "step_count = (SELECT count(DISTINCT step) FROM step_metric m WHERE m.run_id = run.id), "
             "expert_load_blocks = (SELECT count(*) FROM expert_load e WHERE e.run_id = run.id)"),
         QStringLiteral("CREATE INDEX IF NOT EXISTS run_record ON run(record_id)"),
         QStringLiteral("CREATE INDEX IF NOT EXISTS run_cluster ON run(cluster_id)")},
        error);
}

// v2 -> v3: the assessment sheet's tables (nothing else changes).
bool migrateV2ToV3(QSqlDatabase& db, QString* error) {
    for (const char* statement : kAssessmentTables)
        if (!sql::exec(db, QString::fromUtf8(statement), error))
            return false;
    return true;
}

// v3 -> v4: run.updated (filled with the creation time) and verdict.basis (empty: a
// verdict saved before v4 does not say which runs it was computed on).
bool migrateV3ToV4(QSqlDatabase& db, QString* error) {
    for (const char* statement : kVersion4Statements)
        if (!sql::exec(db, QString::fromUtf8(statement), error))
            return false;
    return true;
}

// v4 -> v5: every blob of expert_load (codec 0, one per run, step and layer) goes
// through ExpertLoadSink into chunks and summaries, run by run in step order, inside
// this step's transaction; then expert_load is dropped. A blob that cannot be read
// fails the step (the file stays at version 4).
bool migrateV4ToV5(QSqlDatabase& db, QString* error) {
    for (const char* statement : kVersion5Tables)
        if (!sql::exec(db, QString::fromUtf8(statement), error))
            return false;
    QList<QPair<qint64, qint64>> runs; // (run, record)
    {
        QSqlQuery q(db);
        q.setForwardOnly(true);
        if (!q.exec(QStringLiteral("SELECT id, record_id FROM run WHERE id IN (SELECT DISTINCT run_id FROM expert_load) "
                                   "ORDER BY id"))) {
            *error = sql::errorText(q);
            return false;
        }
        while (q.next())
            runs.append({q.value(0).toLongLong(), q.value(1).toLongLong()});
    }
    for (const auto& [runId, recordId] : runs) {
        ExpertLoadSink sink(db, runId, sql::expertParallelOfRecord(db, recordId));
        QSqlQuery read(db);
        read.setForwardOnly(true);
        read.prepare(QStringLiteral("SELECT step, layer, codec, counts FROM expert_load WHERE run_id = ? "
                                    "ORDER BY step, layer"));
        read.bindValue(0, runId);
        if (!sql::exec(read, error))
            return false;
        while (read.next()) {
            const qint64 step = read.value(0).toLongLong();
            const int layer = read.value(1).toInt();
            std::optional<QVector<quint32>> counts;
            try {
                counts = decodeExpertLoad(read.value(2).toInt(), read.value(3).toByteArray());
            } catch (const std::exception&) {
                counts.reset(); // e.g. std::bad_alloc: named below as a blob that cannot be read
            }
            if (!counts || counts->isEmpty()) {
                *error = StoreTr::tr("the expert load of run %1 at step %2, layer %3 cannot be read")
                             .arg(runId)
                             .arg(step)
                             .arg(layer);
                return false;
            }
            if (!sink.add(step, layer, std::span<const quint32>(counts->constData(), std::size_t(counts->size())))) {
                *error = sink.error();
                return false;
            }
        }
        read.finish();
        if (!sink.finish()) {
            *error = sink.error();
            return false;
        }
    }
    return sql::exec(db, QStringLiteral("DROP TABLE expert_load"), error);
}

// One chunk read by the 5 -> 6 step, and its totals once computed.
struct ChunkForTotals {
    qint64 runId = 0;
    int layer = 0;
    qint64 firstStep = 0;
    qint64 lastStep = 0;
    int rows = 0;
    int experts = 0;
    int codec = 0;
    QByteArray counts;
    QByteArray totals; // empty: the chunk could not be decoded
    QString why;       // then why, when the decoder said
};

void computeTotalsOf(ChunkForTotals& c) {
    const auto chunk = decodeExpertLoadChunk(c.codec, c.counts, c.rows, c.experts, &c.why);
    c.counts = QByteArray();
    if (chunk && (chunk->steps.isEmpty() || chunk->steps.first() != c.firstStep || chunk->steps.last() != c.lastStep))
        c.why = StoreTr::tr("its steps %1–%2 are not its row's").arg(c.firstStep).arg(c.lastStep);
    if (!chunk || !c.why.isEmpty())
        return;
    const auto totals = chunkTotals(std::span<const quint32>(chunk->counts.constData(), std::size_t(chunk->counts.size())),
                                    c.experts);
    c.totals = encodeExpertTotals(std::span<const qint64>(chunk->steps.constData(), std::size_t(chunk->steps.size())),
                                  totals);
}

// On a worker of QtConcurrent's pool: an exception (running out of memory on a chunk
// whose header claims too much) must not leave it, where it would end the upgrade as
// QUnhandledException; the chunk is named as one that cannot be read instead.
void computeTotals(ChunkForTotals& c) {
    try {
        computeTotalsOf(c);
    } catch (...) {
        c.counts = QByteArray();
        c.totals = QByteArray();
    }
}

// v5 -> v6: every chunk of expert_load_chunk is decoded (a batch at a time, on
// QtConcurrent's pool) and its per-expert totals written to expert_load_totals, inside
// this step's transaction. A chunk that cannot be decoded, or whose steps disagree
// with its row, fails the step (the file stays at version 5).
bool migrateV5ToV6(QSqlDatabase& db, QString* error) {
    for (const char* statement : kVersion6Tables)
        if (!sql::exec(db, QString::fromUtf8(statement), error))
            return false;
    QSqlQuery read(db);
    read.setForwardOnly(true);
    if (!read.exec(QStringLiteral("SELECT run_id, layer, first_step, last_step, steps, experts, codec, counts "
                                  "FROM expert_load_chunk ORDER BY run_id, layer, first_step"))) {
        *error = sql::errorText(read);
        return false;
    }
    QSqlQuery write(db);
    write.prepare(QStringLiteral("INSERT INTO expert_load_totals (run_id, layer, first_step, last_step, steps, "
                                 "experts, codec, totals) VALUES (?, ?, ?, ?, ?, ?, 1, ?)"));
    // A batch holds compressed chunks only (about 100 KiB each at 256 × 256); each
    // worker decodes one at a time.
    const qsizetype batchSize = std::max(8, 4 * QThreadPool::globalInstance()->maxThreadCount());
    QList<ChunkForTotals> batch;
    auto flush = [&]() -> bool {
        // Nothing to decode (an empty file, or the schema built in memory by
        // knownSchema): no worker is started.
        if (batch.isEmpty())
            return true;
        QtConcurrent::blockingMap(batch, &computeTotals);
        for (const ChunkForTotals& c : batch) {
            if (c.totals.isEmpty()) {
                *error = StoreTr::tr("the expert load of run %1, layer %2 from step %3 cannot be read")
                             .arg(c.runId)
                             .arg(c.layer)
                             .arg(c.firstStep);
                if (!c.why.isEmpty())
                    *error += QStringLiteral(": ") + c.why;
                return false;
            }
            write.bindValue(0, c.runId);
            write.bindValue(1, c.layer);
            write.bindValue(2, c.firstStep);
            write.bindValue(3, c.lastStep);
            write.bindValue(4, c.rows);
            write.bindValue(5, c.experts);
            write.bindValue(6, c.totals);
            if (!sql::exec(write, error))
                return false;
        }
        batch.clear();
        return true;
    };
    while (read.next()) {
        // The row's shape is checked before its blob is read or anything allocated for it.
        const qint64 layer = read.value(1).toLongLong(), rows = read.value(4).toLongLong(),
                     experts = read.value(5).toLongLong();
        if (const QString why = chunkShapeProblem(layer, rows, experts); !why.isEmpty()) {
            *error = StoreTr::tr("the expert load of run %1, layer %2 from step %3 cannot be read")
                         .arg(read.value(0).toLongLong())
                         .arg(layer)
                         .arg(read.value(2).toLongLong()) +
                     QStringLiteral(": ") + why;
            return false;
        }
        batch.append(ChunkForTotals{read.value(0).toLongLong(), int(layer), read.value(2).toLongLong(),
                                    read.value(3).toLongLong(), int(rows), int(experts),
                                    read.value(6).toInt(), read.value(7).toByteArray(), {}, {}});
        if (batch.size() >= batchSize && !flush())
            return false;
    }
    if (!flush())
        return false;
    read.finish();
    write.finish();
    return true;
}

} // namespace

static bool createLatestTables(QSqlDatabase& db, QString* error) {
    for (const char* statement : kSchemaV2) {
        // Version 5 replaced version 2's expert_load (kVersion5Tables below).
        if (QByteArray(statement).startsWith("CREATE TABLE expert_load ("))
            continue;
        if (!sql::exec(db, QString::fromUtf8(statement), error))
            return false;
    }
    for (const char* statement : kAssessmentTables)
        if (!sql::exec(db, QString::fromUtf8(statement), error))
            return false;
    for (const char* statement : kVersion4Statements)
        if (!sql::exec(db, QString::fromUtf8(statement), error))
            return false;
    for (const char* statement : kVersion5Tables)
        if (!sql::exec(db, QString::fromUtf8(statement), error))
            return false;
    for (const char* statement : kVersion6Tables)
        if (!sql::exec(db, QString::fromUtf8(statement), error))
            return false;
    for (const char* statement : kVersion7Tables)
        if (!sql::exec(db, QString::fromUtf8(statement), error))
            return false;
    for (const char* statement : kVersion8Tables)
        if (!sql::exec(db, QString::fromUtf8(statement), error))
            return false;
    return true;
}

bool createLatest(QSqlDatabase& db, QString* error) {
    return createLatestTables(db, error) && seedMissingThresholds(db, error);
}

bool seedMissingThresholds(QSqlDatabase& db, QString* error) {
    QSqlQuery q(db);
    q.prepare(QStringLiteral("INSERT OR IGNORE INTO threshold (key, value, source, note, updated) "
                             "VALUES (?, ?, 'placeholder', ?, ?)"));
    const QString now = sql::toDbTime(QDateTime::currentDateTimeUtc());
    for (const ThresholdRow& t : placeholderThresholds()) {
        q.bindValue(0, t.key);
        q.bindValue(1, t.value);
        q.bindValue(2, t.note);
        q.bindValue(3, now);
        if (!sql::exec(q, error))
            return false;
    }
    return true;
}

const std::vector<Migration>& migrations() {
    static const std::vector<Migration> steps = {
        {1, "expert load as one blob per step and layer; threshold sources; run counts", &migrateV1ToV2},
        {2, "the assessment sheet and its cost estimate", &migrateV2ToV3},
        {3, "run.updated; what each verdict was computed on (verdict.basis)", &migrateV3ToV4},
        {4, "expert load as compressed chunks per layer with a per-step summary", &migrateV4ToV5},
        {5, "each expert-load chunk's per-expert totals", &migrateV5ToV6},
        {6, "per-step, per-rank step anatomy and all-to-all calls from profiler traces", &migrateV6ToV7},
        {7, "one-step timelines per rank from profiler traces", &migrateV7ToV8},
    };
    return steps;
}

bool createAtVersion(QSqlDatabase& db, int version, QString* error) {
    if (version < 1 || version > ProjectStore::kSchemaVersion) {
        *error = StoreTr::tr("no schema version %1").arg(version);
        return false;
    }
    if (version == ProjectStore::kSchemaVersion)
        return createLatestTables(db, error);
    if (version == 1) {
        // Version 2's statements but for the tables version 2 changed and its indexes.
        for (const char* statement : kSchemaV2) {
            const QByteArray s(statement);
            if (s.startsWith("CREATE INDEX") || s.startsWith("CREATE TABLE run (") ||
                s.startsWith("CREATE TABLE expert_load (") || s.startsWith("CREATE TABLE threshold ("))
                continue;
            if (!sql::exec(db, QString::fromUtf8(statement), error))
                return false;
        }
        for (const char* statement : kSchemaV1Differs)
            if (!sql::exec(db, QString::fromUtf8(statement), error))
                return false;
        return true;
    }
    for (const char* statement : kSchemaV2)
        if (!sql::exec(db, QString::fromUtf8(statement), error))
            return false;
    for (const Migration& m : migrations())
        if (m.from >= 2 && m.from < version && !m.apply(db, error))
            return false;
    return true;
}

} // namespace moewb::store::schema
