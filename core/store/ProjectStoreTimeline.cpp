// ProjectStore: a run's one-step timelines (schema v8, table step_timeline; docs/store.md
// "Step timeline"): one zstd blob per traced rank and step (store/TimelineCodec.h).
#include "store/AnatomyTables.h"
#include "store/ProjectStore.h"
#include "store/SqlSupport.h"
#include "store/TimelineCodec.h"

#include <QSqlDatabase>
#include <QSqlQuery>

namespace moewb::store {

bool writeTimeline(QSqlDatabase& db, qint64 runId, const QVector<RankStepTimeline>& timeline, QString* error) {
    QSqlQuery row(db);
    row.prepare(QStringLiteral("INSERT OR REPLACE INTO step_timeline (run_id, step, rank, step_start_ns, "
                               "step_end_ns, intervals, dropped, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"));
    for (const RankStepTimeline& t : timeline) {
        if (t.intervals.size() > kTimelineMaxIntervals || t.labels.size() > kTimelineMaxLabels) {
            *error = StoreTr::tr("the step timeline of rank %1 at step %2 holds more than its bound").arg(t.rank).arg(t.step);
            return false;
        }
        const QByteArray blob = encodeTimeline(t);
        if (blob.isEmpty()) {
            *error = StoreTr::tr("the step timeline of rank %1 at step %2 cannot be compressed").arg(t.rank).arg(t.step);
            return false;
        }
        int c = 0;
        for (const QVariant& v : {QVariant(runId), QVariant(t.step), QVariant(t.rank), QVariant(t.stepStartNs),
                                  QVariant(t.stepEndNs), QVariant(qint64(t.intervals.size())), QVariant(t.dropped),
                                  QVariant(blob)})
            row.bindValue(c++, v);
        if (!row.exec()) {
            *error = StoreTr::tr("step timeline of rank %1 at step %2: %3").arg(t.rank).arg(t.step).arg(sql::errorText(row));
            return false;
        }
    }
    return true;
}

QVector<RankStepTimeline> ProjectStore::stepTimeline(qint64 runId, std::optional<qint64> step, QString* problem) const {
    QVector<RankStepTimeline> out;
    QSqlDatabase db = QSqlDatabase::database(m_connectionName, /*open=*/false);
    QSqlQuery q(db);
    q.setForwardOnly(true);
    q.prepare(QStringLiteral("SELECT step, rank, step_start_ns, step_end_ns, dropped, data FROM step_timeline "
                             "WHERE run_id = ? AND (? IS NULL OR step = ?) ORDER BY step, rank"));
    q.bindValue(0, runId);
    q.bindValue(1, step ? QVariant(*step) : QVariant(QMetaType(QMetaType::LongLong)));
    q.bindValue(2, step ? QVariant(*step) : QVariant(QMetaType(QMetaType::LongLong)));
    if (!q.exec()) {
        // A file from before schema v8 never reaches here (it is upgraded on open).
        qWarning("%s", qPrintable(error(sql::errorText(q)).text()));
        return out;
    }
    // Bounded: a step holds one row per rank (a world of at most 2^20 ranks), and a run
    // at most kTimelineMaxSteps steps; a file holding more is cut there.
    const qsizetype maxRows = step ? (qsizetype(1) << 20) : qsizetype(kTimelineMaxSteps) * 4096;
    while (q.next() && out.size() < maxRows) {
        RankStepTimeline t;
        t.step = q.value(0).toLongLong();
        t.rank = q.value(1).toInt();
        t.stepStartNs = q.value(2).toLongLong();
        t.stepEndNs = q.value(3).toLongLong();
        t.dropped = std::max<qint64>(0, q.value(4).toLongLong());
        QString why;
        if (!decodeTimeline(q.value(5).toByteArray(), t, &why)) {
            if (problem)
                *problem = why;
            continue;
        }
        out << t;
    }
    return out;
}

TimelineExtent ProjectStore::timelineExtent(qint64 runId) const {
    TimelineExtent e;
    QSqlDatabase db = QSqlDatabase::database(m_connectionName, /*open=*/false);
    QSqlQuery q(db);
    q.setForwardOnly(true);
    q.prepare(QStringLiteral("SELECT step, SUM(dropped) FROM step_timeline WHERE run_id = ? GROUP BY step ORDER BY step"));
    q.bindValue(0, runId);
    if (!q.exec()) {
        qWarning("%s", qPrintable(error(sql::errorText(q)).text()));
        return e;
    }
    while (q.next() && e.steps.size() < 1'000'000) {
        e.steps << q.value(0).toLongLong();
        e.droppedTotal += std::max<qint64>(0, q.value(1).toLongLong());
    }
    return e;
}

} // namespace moewb::store
