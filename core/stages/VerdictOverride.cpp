#include "stages/VerdictOverride.h"

#include "stages/Verdict.h"

#include <QJsonArray>

namespace moewb::stages {

namespace {

const QLatin1String kOverride("override");
const QLatin1String kThresholds("thresholds");

} // namespace

OverrideLink overrideOfVerdict(const QList<store::OverrideRow>& overrides, const store::VerdictRow& verdict) {
    OverrideLink link;
    if (verdict.status != QLatin1String("stop"))
        return link;
    for (const store::OverrideRow& o : overrides)
        if (o.stage == verdict.stage && o.created >= verdict.decided &&
            (!link.override_ || link.override_->created <= o.created))
            link.override_ = o;
    if (link.override_)
        return link;
    const QJsonObject carried = verdict.basis.value(kOverride).toObject();
    const qint64 id = carried.value(QLatin1String("id")).toInteger(0);
    if (id <= 0)
        return link;
    for (const store::OverrideRow& o : overrides)
        if (o.id == id && o.stage == verdict.stage) {
            link.override_ = o;
            link.givenOnOlderBasis = carried.value(QLatin1String("older")).toBool();
        }
    return link;
}

QJsonObject thresholdBasis(const Verdict& verdict) {
    QJsonObject o;
    for (const ThresholdUse& t : verdict.thresholds)
        o.insert(t.key, t.value);
    return o;
}

bool sameBasis(const store::ProjectStore& project, const store::VerdictRow& earlier, const store::VerdictRow& later) {
    if (earlier.stage != later.stage || earlier.status != later.status)
        return false;
    const QLatin1String selection("selection"), runs("runs");
    if (earlier.basis.value(selection).toString().isEmpty() ||
        earlier.basis.value(selection) != later.basis.value(selection) ||
        earlier.basis.value(runs).toArray() != later.basis.value(runs).toArray())
        return false;
    if (earlier.basis.contains(kThresholds))
        return earlier.basis.value(kThresholds).toObject() == later.basis.value(kThresholds).toObject();
    const QString prefix = QStringLiteral("stage%1.").arg(earlier.stage);
    for (const store::ThresholdRow& t : project.thresholds())
        if (t.key.startsWith(prefix) && t.updated.isValid() && t.updated > earlier.decided)
            return false;
    return true;
}

QJsonObject carryOverride(const store::ProjectStore& project, const store::VerdictRow& previous,
                          const store::VerdictRow& next) {
    QJsonObject basis = next.basis;
    basis.remove(kOverride);
    const OverrideLink link = overrideOfVerdict(project.overrides(), previous);
    if (!link.override_)
        return basis;
    const bool older = link.givenOnOlderBasis || !sameBasis(project, previous, next);
    basis.insert(kOverride, QJsonObject{{QStringLiteral("id"), link.override_->id}, {QStringLiteral("older"), older}});
    return basis;
}

} // namespace moewb::stages
