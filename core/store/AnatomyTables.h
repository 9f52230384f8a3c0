#pragma once
// The step-anatomy tables' writes, for ProjectStore::writeRun (not public API).
#include "store/ProjectStore.h"

#include <QSqlDatabase>
#include <QString>

namespace moewb::store {

// Why a run's anatomy cannot be stored (a negative or non-finite time), or empty.
QString anatomyProblem(const RunData& run);
bool clearAnatomy(QSqlDatabase& db, qint64 runId, QString* error);
bool writeAnatomy(QSqlDatabase& db, qint64 runId, const RunAnatomy& anatomy, QString* error);
// The one-step timelines (step_timeline, ProjectStoreTimeline.cpp); writeAnatomy calls it.
bool writeTimeline(QSqlDatabase& db, qint64 runId, const QVector<RankStepTimeline>& timeline, QString* error);

} // namespace moewb::store
