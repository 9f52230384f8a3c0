// ProjectStore: runs and their measurements (the bulk of every project file).
#include "store/AnatomyTables.h"
#include "store/ExpertLoadSink.h"
#include "store/NameRules.h"
#include "store/ProjectStore.h"
#include "store/RunsListing.h"
#include "store/SqlSupport.h"

#include <QHash>
#include <QMutex>
#include <QSet>
#include <QSqlDatabase>
#include <QSqlQuery>

#include <sqlite3.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <span>
#include <vector>

namespace moewb::store {

namespace {

QSqlDatabase connection(const QString& name) {
    return QSqlDatabase::database(name, /*open=*/false);
}

// The run listing, kept per connection until the file changes: the window asks for it a
// dozen times while it opens a project (stage pages, their status, panels), and a project
// of 100,000 runs takes most of a second to list. It is valid while the connection is
// the same, PRAGMA data_version has not moved (no commit by another connection) and
// sqlite3_total_changes64 has not moved (no write by this one).
struct RunsListing {
    sqlite3* handle = nullptr;
    qint64 dataVersion = -1;
    qint64 changes = -1;
    QList<RunRow> runs;
};
QMutex runsListingMutex;
QHash<QString, RunsListing>& runsListings() {
    static QHash<QString, RunsListing> listings; // by connection name
    return listings;
}

// What the listing's validity is read from; nullopt when it cannot be told (then nothing
// is kept).
std::optional<std::pair<qint64, qint64>> listingKey(QSqlDatabase& db, sqlite3* handle) {
    if (!handle)
        return std::nullopt;
    QSqlQuery v(db);
    if (!v.exec(QStringLiteral("PRAGMA data_version")) || !v.next())
        return std::nullopt;
    return std::pair<qint64, qint64>{v.value(0).toLongLong(), qint64(sqlite3_total_changes64(handle))};
}

// Problems a run can be refused for before anything is written.
QString validate(const RunData& run, bool replace) {
    // A run that exists keeps its name, even one written before names had rules.
    if (const QString problem = nameProblem(NameKind::Run, run.name); !problem.isEmpty() && !replace)
        return problem;
    if (run.recordName.trimmed().isEmpty())
        return StoreTr::tr("run %1 belongs to no config record (every run needs one)").arg(run.name);
    for (const CommSample& s : run.commSamples)
        if (!std::isfinite(s.timeUs) || s.timeUs < 0)
            return StoreTr::tr("run %1: a communication sample at %2 bytes per rank has no valid time")
                .arg(run.name)
                .arg(s.bytesPerRank);
    for (const StepMetric& m : run.stepMetrics)
        if (m.name.trimmed().isEmpty())
            return StoreTr::tr("run %1: a metric at step %2 has no name").arg(run.name).arg(m.step);
    for (const ExpertLoadBlock& b : run.expertLoad)
        if (b.tokensPerExpert.isEmpty())
            return StoreTr::tr("run %1: the expert load at step %2, layer %3 lists no experts")
                .arg(run.name)
                .arg(b.step)
                .arg(b.layer);
    return {};
}

// Reports progress every kProgressEvery rows; false once the caller cancelled.
class ProgressReporter {
public:
    ProgressReporter(const std::function<bool(double)>& progress, qint64 total)
        : m_progress(progress), m_total(std::max<qint64>(total, 1)) {}
    bool start() { return report(0.0); }
    bool row() {
        if (++m_done % kProgressEvery != 0)
            return true;
        return report(double(m_done) / double(m_total));
    }
    bool finish() { return report(1.0); }

private:
    static constexpr qint64 kProgressEvery = 4096;
    bool report(double fraction) { return !m_progress || m_progress(std::min(fraction, 1.0)); }
    const std::function<bool(double)>& m_progress;
    qint64 m_total;
    qint64 m_done = 0;
};

RunRow runFrom(const QSqlQuery& q) {
    RunRow r;
    r.id = q.value(0).toLongLong();
    r.name = sql::nameFromDb(q.value(1));
    r.kind = runKindFromName(q.value(2).toString()).value_or(RunKind::Imported);
    r.recordName = sql::nameFromDb(q.value(3));
    r.clusterName = sql::nameFromDb(q.value(4));
    r.sourceFile = sql::textFromDb(q.value(5));
    r.created = sql::fromDbTime(q.value(6));
    r.commSampleCount = q.value(7).toLongLong();
    r.stepCount = q.value(8).toLongLong();
    r.expertLoadBlocks = q.value(9).toLongLong();
    r.environment = sql::objectFromDb(q.value(10));
    r.updated = sql::fromDbTime(q.value(11));
    return r;
}

const char* const kRunSelect =
    "SELECT r.id, r.name, r.kind, c.name, k.name, r.source_file, r.created, r.comm_sample_count, "
    "r.step_count, r.expert_load_blocks, r.environment, r.updated "
    "FROM run r JOIN config_record c ON c.id = r.record_id LEFT JOIN cluster k ON k.id = r.cluster_id ";

} // namespace

Expected<qint64, StoreError> ProjectStore::saveRun(const RunData& run, const std::function<bool(double)>& progress,
                                                   QString* savedName) {
    return writeRun(run, progress, false, savedName);
}

Expected<qint64, StoreError> ProjectStore::replaceRun(const RunData& run,
                                                      const std::function<bool(double)>& progress) {
    return writeRun(run, progress, true, nullptr);
}

Expected<qint64, StoreError> ProjectStore::writeRun(const RunData& run, const std::function<bool(double)>& progress,
                                                    bool replace, QString* savedName) {
    if (m_readOnly)
        return unexpected(readOnlyError());
    if (const QString problem = validate(run, replace); !problem.isEmpty())
        return unexpected(error(problem));
    if (const QString problem = anatomyProblem(run); !problem.isEmpty())
        return unexpected(error(problem));
    QSqlDatabase db = connection(m_connectionName);
    QString err;
    auto failed = [&](const QString& message) {
        return unexpected(error(StoreTr::tr("run %1 not saved: %2").arg(run.name, message)));
    };

    sql::Transaction tx(db);
    if (!tx.begin(&err))
        return failed(err);
    ProgressReporter reporter(progress, qint64(run.commSamples.size()) + run.stepMetrics.size() +
                                            run.expertLoad.size() + std::max<qint64>(run.expertLoadStreamRows, 0));
    if (!reporter.start())
        return unexpected(error(StoreTr::tr("cancelled")));

    // An automatic name another import took since it was chosen: the next free one,
    // chosen here, inside the write lock, so two imports never collide.
    QString name = run.name;
    std::optional<qint64> existing = sql::idByName(db, "run", name);
    if (existing && !replace && !run.automaticNameBase.isEmpty()) {
        for (int n = 1; existing; ++n) {
            name = n == 1 ? run.automaticNameBase : QStringLiteral("%1-%2").arg(run.automaticNameBase).arg(n);
            if (const QString problem = nameProblem(NameKind::Run, name); !problem.isEmpty())
                return unexpected(error(problem));
            existing = sql::idByName(db, "run", name);
        }
    }
    if (existing && !replace)
        return unexpected(error(StoreTr::tr("a run named %1 already exists").arg(name)));
    if (!existing && replace)
        return unexpected(error(StoreTr::tr("no run named %1").arg(run.name)));
    const auto recordId = sql::idByName(db, "config_record", run.recordName);
    if (!recordId)
        return failed(StoreTr::tr("no config record named %1").arg(run.recordName));
    std::optional<qint64> clusterId;
    if (!run.clusterName.isEmpty()) {
        clusterId = sql::idByName(db, "cluster", run.clusterName);
        if (!clusterId)
            return failed(StoreTr::tr("no cluster named %1").arg(run.clusterName));
    }

    QSet<qint64> steps;
    for (const StepMetric& m : run.stepMetrics)
        steps.insert(m.step);

    QSqlQuery insertRun(db);
    if (replace) {
        // The run keeps its id (and with it every link to it); its measurements are
        // written anew below. The chunks' totals go with them here, not by the schema's
        // trigger: no trigger runs on moewb's connections (sql::hardenConnection).
        for (const char* table :
             {"comm_sample", "step_metric", "expert_load_chunk", "expert_load_totals", "expert_load_summary"}) {
            QSqlQuery clear(db);
            clear.prepare(QStringLiteral("DELETE FROM %1 WHERE run_id = ?").arg(QLatin1String(table)));
            clear.bindValue(0, *existing);
            if (!sql::exec(clear, &err))
                return failed(err);
        }
        if (!clearAnatomy(db, *existing, &err))
            return failed(err);
        insertRun.prepare(QStringLiteral(
            "UPDATE run SET name = ?, kind = ?, record_id = ?, cluster_id = ?, source_file = ?, environment = ?, "
            "comm_sample_count = ?, step_count = ?, expert_load_blocks = ?, updated = ? WHERE id = ?"));
    } else {
        insertRun.prepare(QStringLiteral(
            "INSERT INTO run (name, kind, record_id, cluster_id, source_file, environment, created, "
            "comm_sample_count, step_count, expert_load_blocks, updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
    }
    insertRun.bindValue(0, name);
    insertRun.bindValue(1, runKindName(run.kind));
    insertRun.bindValue(2, *recordId);
    insertRun.bindValue(3, clusterId ? QVariant(*clusterId) : QVariant(QMetaType(QMetaType::LongLong)));
    insertRun.bindValue(4, sql::toDbText(run.sourceFile));
    insertRun.bindValue(5, sql::toDbJson(run.environment));
    int column = 6;
    const QString now = sql::toDbTime(QDateTime::currentDateTimeUtc());
    if (!replace)
        insertRun.bindValue(column++, now);
    insertRun.bindValue(column++, qint64(run.commSamples.size()));
    insertRun.bindValue(column++, qint64(steps.size()));
    insertRun.bindValue(column++, qint64(run.expertLoad.size()));
    insertRun.bindValue(column++, now);
    if (replace)
        insertRun.bindValue(column++, *existing);
    if (!sql::exec(insertRun, &err))
        return failed(err);
    const qint64 runId = replace ? *existing : insertRun.lastInsertId().toLongLong();

    // Communication samples.
    QSqlQuery comm(db);
    comm.prepare(QStringLiteral("INSERT INTO comm_sample (run_id, bytes_per_rank, repeat, iteration, "
                                "time_us) VALUES (?, ?, ?, ?, ?)"));
    for (const CommSample& s : run.commSamples) {
        comm.bindValue(0, runId);
        comm.bindValue(1, qint64(s.bytesPerRank));
        comm.bindValue(2, s.repeat);
        comm.bindValue(3, s.iteration);
        comm.bindValue(4, s.timeUs);
        if (!comm.exec())
            return failed(StoreTr::tr("communication sample (%1 bytes per rank, repeat %2, iteration %3): %4")
                              .arg(s.bytesPerRank)
                              .arg(s.repeat)
                              .arg(s.iteration)
                              .arg(sql::errorText(comm)));
        if (!reporter.row())
            return unexpected(error(StoreTr::tr("cancelled")));
    }

    // Per-step metrics; a later value for the same (metric, step) replaces an
    // earlier one, as a log resumed from a checkpoint repeats steps.
    QHash<QString, qint64> metricIds;
    QSqlQuery addName(db), findName(db), metric(db);
    addName.prepare(QStringLiteral("INSERT OR IGNORE INTO metric_name (name) VALUES (?)"));
    findName.prepare(QStringLiteral("SELECT id FROM metric_name WHERE name = ?"));
    metric.prepare(QStringLiteral(
        "INSERT OR REPLACE INTO step_metric (run_id, metric_id, step, value) VALUES (?, ?, ?, ?)"));
    for (const StepMetric& m : run.stepMetrics) {
        auto it = metricIds.constFind(m.name);
        if (it == metricIds.constEnd()) {
            addName.bindValue(0, m.name);
            findName.bindValue(0, m.name);
            if (!addName.exec() || !findName.exec() || !findName.next())
                return failed(StoreTr::tr("metric %1: %2").arg(m.name, sql::errorText(findName)));
            it = metricIds.insert(m.name, findName.value(0).toLongLong());
            findName.finish();
        }
        metric.bindValue(0, runId);
        metric.bindValue(1, *it);
        metric.bindValue(2, m.step);
        metric.bindValue(3, std::isnan(m.value) ? QVariant(QMetaType(QMetaType::Double)) : QVariant(m.value));
        if (!metric.exec())
            return failed(
                StoreTr::tr("metric %1 at step %2: %3").arg(m.name).arg(m.step).arg(sql::errorText(metric)));
        if (!reporter.row())
            return unexpected(error(StoreTr::tr("cancelled")));
    }

    // Expert load: chunks of each layer's steps, compressed on worker threads while
    // this thread writes (ExpertLoadSink). Rows go in by step, then layer; input that
    // is not in that order (not from an importer or the store) is sorted first.
    ExpertLoadSink sink(db, runId, sql::expertParallelOfRecord(db, *recordId));
    {
        std::vector<qsizetype> order;
        for (qsizetype i = 1; i < run.expertLoad.size(); ++i) {
            const ExpertLoadBlock& a = run.expertLoad[i - 1];
            const ExpertLoadBlock& b = run.expertLoad[i];
            if (a.step > b.step || (a.step == b.step && a.layer >= b.layer)) {
                order.resize(std::size_t(run.expertLoad.size()));
                for (qsizetype k = 0; k < run.expertLoad.size(); ++k)
                    order[std::size_t(k)] = k;
                std::stable_sort(order.begin(), order.end(), [&run](qsizetype x, qsizetype y) {
                    const ExpertLoadBlock& p = run.expertLoad[x];
                    const ExpertLoadBlock& q = run.expertLoad[y];
                    return p.step != q.step ? p.step < q.step : p.layer < q.layer;
                });
                break;
            }
        }
        for (qsizetype i = 0; i < run.expertLoad.size(); ++i) {
            const ExpertLoadBlock& b = run.expertLoad[order.empty() ? i : order[std::size_t(i)]];
            if (!sink.add(b.step, b.layer,
                          std::span<const quint32>(b.tokensPerExpert.constData(), std::size_t(b.tokensPerExpert.size()))))
                return failed(sink.error());
            if (!reporter.row())
                return unexpected(error(StoreTr::tr("cancelled")));
        }
    }
    if (run.expertLoadStream) {
        QString streamError;
        bool cancelled = false;
        const std::function<bool()> rowAdded = [&] {
            cancelled = cancelled || !reporter.row();
            return !cancelled;
        };
        if (!run.expertLoadStream(sink, rowAdded, &streamError)) {
            if (cancelled)
                return unexpected(error(StoreTr::tr("cancelled")));
            if (!sink.error().isEmpty())
                return failed(sink.error());
            if (streamError == QLatin1String("cancelled"))
                return unexpected(error(StoreTr::tr("cancelled")));
            return failed(streamError);
        }
    }
    if (!sink.finish())
        return failed(sink.error());
    if (run.expertLoadStream) {
        QSqlQuery count(db);
        count.prepare(QStringLiteral("UPDATE run SET expert_load_blocks = ? WHERE id = ?"));
        count.bindValue(0, sink.blocks());
        count.bindValue(1, runId);
        if (!sql::exec(count, &err))
            return failed(err);
    }

    if (!writeAnatomy(db, runId, run.anatomy, &err))
        return failed(err);

    if (!reporter.finish())
        return unexpected(error(StoreTr::tr("cancelled")));
    if (!tx.commit(&err))
        return failed(err);
    if (savedName)
        *savedName = name;
    return runId;
}

Expected<Ok, StoreError> ProjectStore::removeRun(const QString& name) {
    if (m_readOnly)
        return unexpected(readOnlyError());
    QSqlDatabase db = connection(m_connectionName);
    const auto id = sql::idByName(db, "run", name);
    if (!id)
        return unexpected(error(StoreTr::tr("no run named %1").arg(name)));
    QSqlQuery q(db);
    q.prepare(QStringLiteral("DELETE FROM run WHERE id = ?"));
    q.bindValue(0, *id);
    QString err;
    if (!sql::exec(q, &err))
        return unexpected(error(StoreTr::tr("cannot remove run %1: %2").arg(name, err)));
    if (q.numRowsAffected() != 1)
        return unexpected(error(StoreTr::tr("no run named %1").arg(name)));
    return Ok{};
}

QList<RunRow> ProjectStore::runs() const {
    QSqlDatabase db = connection(m_connectionName);
    sqlite3* handle = sql::sqliteHandle(db);
    const auto key = listingKey(db, handle);
    if (key) {
        const QMutexLocker lock(&runsListingMutex);
        const auto it = runsListings().constFind(m_connectionName);
        if (it != runsListings().constEnd() && it->handle == handle && it->dataVersion == key->first &&
            it->changes == key->second)
            return it->runs;
    }
    QList<RunRow> rows;
    QSqlQuery q(db);
    q.setForwardOnly(true);
    if (!q.exec(QString::fromLatin1(kRunSelect) + QStringLiteral("ORDER BY r.id"))) {
        qWarning("%s", qPrintable(error(sql::errorText(q)).text()));
        return rows;
    }
    while (q.next())
        rows.append(runFrom(q));
    if (key) {
        const QMutexLocker lock(&runsListingMutex);
        runsListings().insert(m_connectionName, RunsListing{handle, key->first, key->second, rows});
    }
    return rows;
}

void forgetRunsListing(const QString& connectionName) {
    const QMutexLocker lock(&runsListingMutex);
    runsListings().remove(connectionName);
}

std::optional<RunRow> ProjectStore::run(const QString& name) const {
    QSqlDatabase db = connection(m_connectionName);
    const auto id = sql::idByName(db, "run", name);
    if (!id)
        return std::nullopt;
    QSqlQuery q(db);
    q.prepare(QString::fromLatin1(kRunSelect) + QStringLiteral("WHERE r.id = ?"));
    q.bindValue(0, *id);
    if (!q.exec() || !q.next())
        return std::nullopt;
    return runFrom(q);
}

QVector<CommSample> ProjectStore::commSamples(qint64 runId) const {
    QVector<CommSample> samples;
    QSqlQuery q(connection(m_connectionName));
    q.setForwardOnly(true);
    q.prepare(
        QStringLiteral("SELECT bytes_per_rank, repeat, iteration, time_us FROM comm_sample WHERE run_id = ? "
                       "ORDER BY bytes_per_rank, repeat, iteration"));
    q.bindValue(0, runId);
    if (!q.exec())
        qWarning("%s", qPrintable(error(sql::errorText(q)).text()));
    while (q.next())
        samples.append(CommSample{quint64(q.value(0).toLongLong()), q.value(1).toInt(), q.value(2).toInt(),
                                  q.value(3).toDouble()});
    return samples;
}

QVector<StepMetric> ProjectStore::stepMetrics(qint64 runId, const QString& name) const {
    QVector<StepMetric> metrics;
    QSqlQuery q(connection(m_connectionName));
    q.setForwardOnly(true);
    // With a name this is one range scan of step_metric's primary key
    // (run_id, metric_id, step), already in step order.
    if (name.isEmpty()) {
        q.prepare(QStringLiteral("SELECT m.step, n.name, m.value FROM step_metric m JOIN metric_name n ON "
                                 "n.id = m.metric_id WHERE m.run_id = ? ORDER BY n.name, m.step"));
    } else {
        q.prepare(QStringLiteral("SELECT m.step, n.name, m.value FROM step_metric m JOIN metric_name n ON "
                                 "n.id = m.metric_id WHERE m.run_id = ? AND n.name = ? ORDER BY m.step"));
        q.bindValue(1, name);
    }
    q.bindValue(0, runId);
    if (!q.exec())
        qWarning("%s", qPrintable(error(sql::errorText(q)).text()));
    while (q.next()) {
        const QVariant v = q.value(2);
        metrics.append(StepMetric{q.value(0).toLongLong(), sql::nameFromDb(q.value(1)),
                                  v.isNull() ? std::numeric_limits<double>::quiet_NaN() : v.toDouble()});
    }
    return metrics;
}

QStringList ProjectStore::stepMetricNames(qint64 runId) const {
    QStringList names;
    QSqlQuery q(connection(m_connectionName));
    q.setForwardOnly(true);
    q.prepare(QStringLiteral(
        "SELECT n.name FROM metric_name n WHERE EXISTS "
        "(SELECT 1 FROM step_metric m WHERE m.run_id = ? AND m.metric_id = n.id) ORDER BY n.name"));
    q.bindValue(0, runId);
    if (!q.exec())
        qWarning("%s", qPrintable(error(sql::errorText(q)).text()));
    while (q.next())
        names.append(sql::nameFromDb(q.value(0)));
    return names;
}

} // namespace moewb::store
