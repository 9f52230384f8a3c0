#pragma once
// The one description of where a stage stands, printed by every surface: the window's
// stage pages, overview and browser, `moewb status` and `moewb stage N`, and the report.
// Built from stageStatus() (StageEvaluation.h) only, so no surface decides on its own.
#include "stages/StageEvaluation.h"

#include <QString>
#include <QStringList>

namespace moewb::stages {

// How many reasons a verdict shows before "N more …": the rest go under Details (window),
// into a details list (report); `--json` keeps all of them.
constexpr int kShownReasons = 6;

struct StageStateText {
    // "locked", "pass", "stop", "overridden", "overridden_older_data", "not_ready",
    // "stale", "not_evaluated": what scripts and tests compare.
    QString token;
    // "LOCKED", "PASS", "STOP", "STOP — OVERRIDDEN", "STOP — OVERRIDDEN ON OLDER DATA",
    // "NOT READY", "STALE", "NOT EVALUATED".
    QString title;
    // Why, in sentences: the lock reason; or the saved verdict's reasons; for an
    // override, the justification first, then the stop's reasons.
    QStringList reasons;
    // What to do now (unlock, re-evaluate, confirm or withdraw the override, …).
    QString action;
    // Where the override stands when there is one (empty otherwise): "Overridden by
    // lead on 2026-01-12 10:00 UTC: “…”." (and "given on older data — confirm or
    // withdraw" when it is).
    QString overrideLine;
};

StageStateText describeStageState(const StageStatus& status, int stage);

// The first `limit` reasons (all of them when only one more), and the number left for
// Details. The window's verdict strip passes a smaller limit: its plots belong on the
// first screen.
QStringList shownReasons(const QStringList& reasons, int* more = nullptr, int limit = kShownReasons);

} // namespace moewb::stages
