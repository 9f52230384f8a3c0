#include "stages/Verdict.h"

#include "common/Units.h"
#include "stages/StagesTr.h"

#include <algorithm>
#include <cmath>

namespace moewb::stages {

QString thresholdSourceText(store::ThresholdSource source) {
    switch (source) {
    case store::ThresholdSource::Team:
        return Stages::tr("team threshold");
    case store::ThresholdSource::Suggested:
        return Stages::tr("suggested from round 1");
    case store::ThresholdSource::Placeholder:
        break;
    }
    return Stages::tr("placeholder — set your own");
}

QString thresholdText(const ThresholdUse& t, int decimals) {
    QString value = QString::number(t.value, 'f', decimals);
    // Never round a threshold away: 0.001 with 2 decimals would read "0.00".
    if (std::fabs(value.toDouble() - t.value) > 1e-12 * std::max(1.0, std::fabs(t.value)))
        value = QString::number(t.value, 'g', 6);
    return Stages::tr("%1 (%2)").arg(value, thresholdSourceText(t.source));
}

QString thresholdPercentText(const ThresholdUse& t) {
    return Stages::tr("%1 (%2)").arg(units::formatPercent(t.value, -2), thresholdSourceText(t.source));
}

QList<ThresholdUse> defaultThresholds() {
    QList<ThresholdUse> list;
    for (const store::ThresholdRow& row : store::placeholderThresholds())
        list.append({row.key, row.value, store::ThresholdSource::Placeholder, true});
    // Keys only the gates know; documented in docs/method.md.
    list.append({QStringLiteral("stage2.activated_params_tolerance"), 0.10,
                 store::ThresholdSource::Placeholder, true});
    list.append({QStringLiteral("stage3.window_steps"), 1000, store::ThresholdSource::Placeholder, true});
    // The training's all-to-all bandwidth against stage 1's at the same size, below which
    // stage 3 names a finding (docs/anatomy.md).
    list.append({QStringLiteral("stage3.a2a_vs_baseline_min"), 0.7, store::ThresholdSource::Placeholder, true});
    return list;
}

ThresholdSet::ThresholdSet(const QList<store::ThresholdRow>& rows) {
    for (const store::ThresholdRow& r : rows)
        set({r.key, r.value, r.source, false});
}

void ThresholdSet::set(const ThresholdUse& t) {
    for (ThresholdUse& existing : m_values) {
        if (existing.key == t.key) {
            existing = t;
            return;
        }
    }
    m_values.append(t);
}

ThresholdUse ThresholdSet::get(const QString& key) const {
    for (const ThresholdUse& t : m_values)
        if (t.key == key)
            return t;
    for (const ThresholdUse& t : defaultThresholds())
        if (t.key == key)
            return t;
    Q_ASSERT_X(false, "ThresholdSet::get", qPrintable(key));
    return {key, 0.0, store::ThresholdSource::Placeholder, true};
}

QString statusToken(Verdict::Status status) {
    switch (status) {
    case Verdict::Status::Pass:
        return QStringLiteral("pass");
    case Verdict::Status::Stop:
        return QStringLiteral("stop");
    case Verdict::Status::NotReady:
        break;
    }
    return QStringLiteral("not_ready");
}

QString statusTitle(Verdict::Status status) {
    switch (status) {
    case Verdict::Status::Pass:
        return Stages::tr("PASS");
    case Verdict::Status::Stop:
        return Stages::tr("STOP");
    case Verdict::Status::NotReady:
        break;
    }
    return Stages::tr("NOT READY");
}

} // namespace moewb::stages
