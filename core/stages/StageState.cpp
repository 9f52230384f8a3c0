#include "stages/StageState.h"

#include "stages/StagesTr.h"

namespace moewb::stages {

namespace {

QString utcMinutes(const QDateTime& t) {
    return t.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm 'UTC'"));
}

} // namespace

QStringList shownReasons(const QStringList& reasons, int* more, int limit) {
    // One more than the limit is shown whole: "1 more" would hide no space.
    const bool cut = reasons.size() > limit + 1;
    if (more)
        *more = cut ? int(reasons.size()) - limit : 0;
    return cut ? reasons.mid(0, limit) : reasons;
}

StageStateText describeStageState(const StageStatus& s, int stage) {
    using K = StageStatus::Kind;
    StageStateText t;
    switch (s.kind) {
    case K::Locked:
        t.token = QStringLiteral("locked");
        t.title = Stages::tr("LOCKED");
        t.reasons << s.reason;
        t.action = Stages::tr("Evaluate the earlier stage until it passes, or override its stop with a written "
                              "justification.");
        return t;
    case K::NotStarted:
        t.token = QStringLiteral("not_evaluated");
        t.title = Stages::tr("NOT EVALUATED");
        t.action = Stages::tr("Evaluate stage %1.").arg(stage);
        return t;
    case K::Passed:
        t.token = QStringLiteral("pass");
        t.title = Stages::tr("PASS");
        break;
    case K::Stopped:
        t.token = QStringLiteral("stop");
        t.title = Stages::tr("STOP");
        t.action = Stages::tr("Fix the cause and evaluate stage %1 again, or override its stop with a written "
                              "justification.")
                       .arg(stage);
        break;
    case K::NotReady:
        t.token = QStringLiteral("not_ready");
        t.title = Stages::tr("NOT READY");
        break;
    case K::Stale:
        t.token = QStringLiteral("stale");
        t.title = Stages::tr("STALE");
        t.action = Stages::tr("The load-balancing method changed after this verdict: evaluate stage %1 again.")
                       .arg(stage);
        break;
    case K::Overridden:
        t.token = s.overrideOnOlderData ? QStringLiteral("overridden_older_data") : QStringLiteral("overridden");
        t.title = s.overrideOnOlderData ? Stages::tr("STOP — OVERRIDDEN ON OLDER DATA")
                                        : Stages::tr("STOP — OVERRIDDEN");
        break;
    }
    t.reasons = s.reasons;
    if (s.kind == K::Overridden && s.override_) {
        const store::OverrideRow& o = *s.override_;
        const QString who = o.author.isEmpty() ? Stages::tr("someone unnamed") : o.author;
        t.overrideLine = Stages::tr("Overridden by %1 on %2: “%3”.").arg(who, utcMinutes(o.created), o.justification);
        if (s.overrideOnOlderBasis) {
            t.overrideLine += QLatin1Char(' ') + Stages::tr("The override was given on older data: the stop was "
                                                            "evaluated again on other runs or thresholds.");
            t.action = Stages::tr("Confirm the override (write it again for this stop) or withdraw it.");
        } else if (s.overrideOnOlderData) {
            t.overrideLine += QLatin1Char(' ') + Stages::tr("The override was given on older data: new data "
                                                            "arrived since the stop.");
            t.action = Stages::tr("Evaluate stage %1 again, then confirm or withdraw the override.").arg(stage);
        } else {
            t.action = Stages::tr("The stop stays on record beside the justification; stage %1 is unlocked.")
                           .arg(stage + 1);
        }
    }
    if (t.action.isEmpty() && s.freshness.newData())
        t.action = Stages::tr("New data since the verdict: evaluate stage %1 again.").arg(stage);
    return t;
}

} // namespace moewb::stages
