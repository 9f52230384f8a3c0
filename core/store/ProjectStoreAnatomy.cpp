// ProjectStore: a run's step anatomy (schema v7, docs/store.md "Step anatomy"):
// per-step, per-rank summaries of its profiler traces and its all-to-all calls (the
// one-step timelines: ProjectStoreTimeline.cpp).
#include "store/AnatomyTables.h"
#include "store/NameRules.h"
#include "store/ProjectStore.h"
#include "store/SqlSupport.h"

#include <QJsonArray>
#include <QSqlDatabase>
#include <QSqlQuery>

#include <algorithm>
#include <cmath>

namespace moewb::store {

namespace {

// Ranks, world sizes and ranks per call as the importers bound them (ImportLimits.h's
// kMaxRanks); a call's bytes per rank at most 2^44 (16 TiB).
constexpr qint64 kMaxRanks = qint64(1) << 20;
constexpr qint64 kMaxBytesPerRank = qint64(1) << 44;
// Steps as the importers bound them (MetricNames.h's kMaxStep).
constexpr qint64 kMaxStep = 1000000000000LL;

bool finite(const RankStepAnatomy& r) {
    for (double v : {r.stepUs, r.computeUs, r.a2aUs, r.a2aWaitUs, r.otherCommUs, r.otherCommWaitUs, r.exposedCommUs,
                     r.memcpyUs, r.idleUs, r.busyUs})
        if (!std::isfinite(v) || v < 0)
            return false;
    return true;
}

} // namespace

QString anatomyProblem(const RunData& run) {
    for (const RankStepAnatomy& r : run.anatomy.rows)
        if (!finite(r) || r.rank < 0)
            return StoreTr::tr("run %1: the step anatomy of rank %2 at step %3 holds a negative or missing time")
                .arg(run.name)
                .arg(r.rank)
                .arg(r.step);
    for (const A2aCallRow& c : run.anatomy.a2a)
        if (!std::isfinite(c.transferUs) || c.transferUs < 0 || !std::isfinite(c.slowestUs) || c.bytesPerRank < 0)
            return StoreTr::tr("run %1: an all-to-all call at step %2 holds a negative or missing figure")
                .arg(run.name)
                .arg(c.step);
    return {};
}

bool clearAnatomy(QSqlDatabase& db, qint64 runId, QString* error) {
    for (const char* table : {"step_anatomy", "a2a_call", "step_timeline"}) {
        QSqlQuery clear(db);
        clear.prepare(QStringLiteral("DELETE FROM %1 WHERE run_id = ?").arg(QLatin1String(table)));
        clear.bindValue(0, runId);
        if (!sql::exec(clear, error))
            return false;
    }
    return true;
}

bool writeAnatomy(QSqlDatabase& db, qint64 runId, const RunAnatomy& anatomy, QString* error) {
    QSqlQuery row(db);
    row.prepare(QStringLiteral(
        "INSERT OR REPLACE INTO step_anatomy (run_id, step, rank, step_us, compute_us, a2a_us, a2a_wait_us, "
        "other_comm_us, other_comm_wait_us, exposed_comm_us, memcpy_us, idle_us, busy_us) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
    for (const RankStepAnatomy& r : anatomy.rows) {
        int c = 0;
        for (const QVariant& v : {QVariant(runId), QVariant(r.step), QVariant(r.rank), QVariant(r.stepUs),
                                  QVariant(r.computeUs), QVariant(r.a2aUs), QVariant(r.a2aWaitUs),
                                  QVariant(r.otherCommUs), QVariant(r.otherCommWaitUs), QVariant(r.exposedCommUs),
                                  QVariant(r.memcpyUs), QVariant(r.idleUs), QVariant(r.busyUs)})
            row.bindValue(c++, v);
        if (!row.exec()) {
            *error = StoreTr::tr("step anatomy of rank %1 at step %2: %3").arg(r.rank).arg(r.step).arg(sql::errorText(row));
            return false;
        }
    }
    QSqlQuery call(db);
    call.prepare(QStringLiteral(
        "INSERT INTO a2a_call (run_id, ordinal, step, process_group, ranks, bytes_per_rank, transfer_us, "
        "slowest_us, kind, splits_cut) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
    qint64 ordinal = 0;
    for (const A2aCallRow& a : anatomy.a2a) {
        int c = 0;
        for (const QVariant& v : {QVariant(runId), QVariant(ordinal++), QVariant(a.step), sql::toDbText(a.group),
                                  QVariant(a.ranks), QVariant(a.bytesPerRank), QVariant(a.transferUs),
                                  QVariant(a.slowestUs), sql::toDbText(a.kind), QVariant(a.splitsCut ? 1 : 0)})
            call.bindValue(c++, v);
        if (!call.exec()) {
            *error = StoreTr::tr("all-to-all call at step %1: %2").arg(a.step).arg(sql::errorText(call));
            return false;
        }
    }
    return writeTimeline(db, runId, anatomy.timeline, error);
}

RunAnatomy ProjectStore::runAnatomy(qint64 runId) const {
    RunAnatomy a;
    QSqlDatabase db = QSqlDatabase::database(m_connectionName, /*open=*/false);
    QSqlQuery q(db);
    q.setForwardOnly(true);
    q.prepare(QStringLiteral("SELECT step, rank, step_us, compute_us, a2a_us, a2a_wait_us, other_comm_us, "
                             "other_comm_wait_us, exposed_comm_us, memcpy_us, idle_us, busy_us FROM step_anatomy "
                             "WHERE run_id = ? ORDER BY step, rank"));
    q.bindValue(0, runId);
    if (!q.exec())
        qWarning("%s", qPrintable(error(sql::errorText(q)).text()));
    // A row the importer could not have written (a rank outside 0..2^20, a time that is
    // negative or not a number) is left out, and said (docs/store.md, "Reading a project
    // from someone else").
    qint64 leftOut = 0;
    while (q.next()) {
        RankStepAnatomy r;
        r.step = q.value(0).toLongLong();
        const qint64 rank = q.value(1).toLongLong();
        r.rank = int(std::clamp<qint64>(rank, -1, kMaxRanks));
        double* fields[] = {&r.stepUs,          &r.computeUs,     &r.a2aUs,    &r.a2aWaitUs,
                            &r.otherCommUs,     &r.otherCommWaitUs, &r.exposedCommUs, &r.memcpyUs,
                            &r.idleUs,          &r.busyUs};
        for (int i = 0; i < 10; ++i)
            *fields[i] = q.value(2 + i).toDouble();
        if (rank < 0 || rank >= kMaxRanks || r.step < 0 || r.step > kMaxStep || !finite(r)) {
            ++leftOut;
            continue;
        }
        a.rows.append(r);
    }
    q.finish();
    QSqlQuery c(db);
    c.setForwardOnly(true);
    c.prepare(QStringLiteral("SELECT step, process_group, ranks, bytes_per_rank, transfer_us, slowest_us, kind, "
                             "splits_cut FROM a2a_call WHERE run_id = ? ORDER BY ordinal"));
    c.bindValue(0, runId);
    if (!c.exec())
        qWarning("%s", qPrintable(error(sql::errorText(c)).text()));
    while (c.next()) {
        A2aCallRow r;
        r.step = c.value(0).toLongLong();
        r.group = sql::nameFromDb(c.value(1));
        const qint64 ranks = c.value(2).toLongLong();
        r.ranks = int(std::clamp<qint64>(ranks, -1, kMaxRanks));
        r.bytesPerRank = c.value(3).toLongLong();
        r.transferUs = c.value(4).toDouble();
        r.slowestUs = c.value(5).toDouble();
        r.kind = sql::nameFromDb(c.value(6));
        r.splitsCut = c.value(7).toInt() != 0;
        if (ranks < 0 || ranks > kMaxRanks || r.step < 0 || r.step > kMaxStep || r.bytesPerRank < 0 || r.bytesPerRank > kMaxBytesPerRank ||
            !std::isfinite(r.transferUs) || r.transferUs < 0 || !std::isfinite(r.slowestUs) || r.slowestUs < 0) {
            ++leftOut;
            continue;
        }
        a.a2a.append(r);
    }
    c.finish();
    if (leftOut > 0)
        qWarning("%s", qPrintable(error(StoreTr::tr("run #%1: %2 rows of its step anatomy hold values no trace can "
                                                    "give (a rank, a size or a time out of range) and are left out")
                                            .arg(runId)
                                            .arg(leftOut))
                                      .text()));
    if (a.rows.isEmpty())
        return a;
    // What the traces said about themselves is kept in the run's environment.
    QSqlQuery env(db);
    env.prepare(QStringLiteral("SELECT environment FROM run WHERE id = ?"));
    env.bindValue(0, runId);
    if (env.exec() && env.next()) {
        const QJsonObject e = sql::objectFromDb(env.value(0));
        for (const QJsonValue& v : e.value(QStringLiteral("trace_ranks")).toArray()) {
            const qint64 rank = v.toInteger(-1);
            if (rank >= 0 && rank < kMaxRanks && a.ranksTraced.size() < kMaxRanks)
                a.ranksTraced.append(int(rank));
        }
        const qint64 world = e.value(QStringLiteral("trace_world_size")).toInteger(0);
        a.worldSize = world > 0 && world <= kMaxRanks ? int(world) : 0;
        a.format = sql::capText(e.value(QStringLiteral("trace_format")).toString(), kMaxNameLength);
    }
    if (a.ranksTraced.isEmpty()) {
        for (const RankStepAnatomy& r : std::as_const(a.rows))
            if (!a.ranksTraced.contains(r.rank))
                a.ranksTraced.append(r.rank);
    }
    std::sort(a.ranksTraced.begin(), a.ranksTraced.end());
    return a;
}

} // namespace moewb::store
