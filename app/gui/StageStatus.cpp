#include "StageStatus.h"

#include "stages/StageEvaluation.h"
#include "stages/StageInputs.h"
#include "stages/StageState.h"
#include "store/ProjectStore.h"

#include <QCoreApplication>
#include <QJsonArray>

namespace moewb::gui {

namespace {

class Tr {
    Q_DECLARE_TR_FUNCTIONS(StageStatus)
};

} // namespace

QString stageName(int stage) {
    switch (stage) {
    case 1:
        return Tr::tr("Communication baseline");
    case 2:
        return Tr::tr("Dense control");
    case 3:
        return Tr::tr("Expert load and loss");
    default:
        return Tr::tr("Transfer to the target cluster");
    }
}

QString stageChecklistText(int stage, const StageState& state) {
    static const char* const kShort[] = {QT_TRANSLATE_NOOP("StageStatus", "Comm. baseline"),
                                         QT_TRANSLATE_NOOP("StageStatus", "Dense control"),
                                         QT_TRANSLATE_NOOP("StageStatus", "Expert load"),
                                         QT_TRANSLATE_NOOP("StageStatus", "Transfer")};
    const int i = qBound(1, stage, 4) - 1;
    return Tr::tr("%1 %2 %3 — %4").arg(state.icon).arg(stage).arg(Tr::tr(kShort[i]), state.words);
}

StageState runningState() {
    return {StageState::Kind::Running, QStringLiteral("⟳"), Tr::tr("running"),
            Tr::tr("The evaluation is running; the page shows its progress.")};
}

StageState stageState(const store::ProjectStore& project, int stage) {
    using K = StageState::Kind;
    using S = stages::StageStatus::Kind;
    const stages::StageStatus status = stages::stageStatus(project, stage);
    const QString words = stages::stageStatusText(status.kind);
    const QString reasons = status.reasons.join(QLatin1Char('\n'));
    switch (status.kind) {
    case S::Locked: {
        // Say what unlocks it in the window's words: the first earlier stage that blocks.
        int blocking = 1;
        while (blocking + 1 < stage && stages::lockReason(project, blocking + 1).isEmpty())
            ++blocking;
        QString detail = Tr::tr("Locked: %1").arg(status.reason);
        detail += QLatin1Char('\n') +
                  Tr::tr("What unlocks it: open stage %1 (Ctrl+%1) and evaluate it until it passes, or override "
                         "its stop there with a written justification.")
                      .arg(blocking);
        if (status.verdict)
            detail += QLatin1Char('\n') +
                      Tr::tr("Its earlier verdict (\"%1\") stays on record until it is evaluated again.")
                          .arg(status.verdict->status);
        return {K::Locked, QStringLiteral("⊘"), words, detail};
    }
    case S::NotStarted:
        return {K::NotStarted, QStringLiteral("○"), words,
                Tr::tr("Not evaluated yet. Open the stage and press Evaluate.")};
    case S::Passed:
        return {K::Passed, QStringLiteral("✔"), words, reasons};
    case S::Overridden: {
        // As the stage page, `moewb status` and the report say it (core/stages/StageState.h).
        const stages::StageStateText text = stages::describeStageState(status, stage);
        QString detail = text.title + QLatin1Char('\n') + text.overrideLine;
        if (!reasons.isEmpty())
            detail += QLatin1Char('\n') + Tr::tr("The stop: %1").arg(reasons);
        if (!text.action.isEmpty())
            detail += QLatin1Char('\n') + text.action;
        return {K::Overridden, QStringLiteral("↷"),
                status.overrideOnOlderData ? Tr::tr("overridden, on older data") : words, detail};
    }
    case S::Stopped:
        return {K::Stopped, QStringLiteral("✖"), words,
                Tr::tr("%1\nOverride the stop on the stage's page with a written justification, or fix the cause "
                       "and evaluate again.")
                    .arg(reasons)};
    case S::Stale:
        return {K::Stale, QStringLiteral("⚠"), words, Tr::tr("Stale: %1\nEvaluate the stage again.").arg(reasons)};
    case S::NotReady:
        break;
    }
    return {K::NotReady, QStringLiteral("…"), words, Tr::tr("Not ready: %1").arg(reasons)};
}

} // namespace moewb::gui
