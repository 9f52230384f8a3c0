#include "stages/Verdict.h"

#include "common/Units.h"
#include "stages/StagesTr.h"

#include <QRegularExpression>

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

ThresholdUnit thresholdUnit(const QString& key) {
    if (key == QLatin1String("stage3.window_steps"))
        return ThresholdUnit::Steps;
    if (key == QLatin1String("stage1.p99_over_median_max") || key == QLatin1String("stage3.load_ratio_max"))
        return ThresholdUnit::Ratio;
    // cv_max, drop_rate_max, load_ratio_window_fraction, baseline_diff_max,
    // activated_params_tolerance, a2a_vs_baseline_min: shares and relative differences.
    return ThresholdUnit::Percent;
}

QString thresholdValueText(const QString& key, double value) {
    switch (thresholdUnit(key)) {
    case ThresholdUnit::Steps:
        return Stages::tr("%1 steps").arg(units::formatInteger(value));
    case ThresholdUnit::Ratio: {
        QString text = units::formatRatio(value, 2);
        // Never round a threshold away: 1.555 with 2 decimals would read "1.56×".
        if (std::fabs(QString(text).remove(QStringLiteral("×")).toDouble() - value) > 1e-9 * std::max(1.0, std::fabs(value)))
            text = QString::number(value, 'g', 6) + QStringLiteral("×");
        return text;
    }
    case ThresholdUnit::Percent:
        break;
    }
    QString text = units::formatPercent(value, -2);
    if (std::fabs(QString(text).remove(QStringLiteral(" %")).toDouble() / 100.0 - value) > 1e-9 * std::max(1.0, std::fabs(value)))
        text = QString::number(value * 100.0, 'g', 6) + QStringLiteral(" %");
    return text;
}

QString thresholdText(const ThresholdUse& t) {
    return Stages::tr("%1 (%2)").arg(thresholdValueText(t.key, t.value), thresholdSourceText(t.source));
}

QString nodeCountsText(const QList<int>& counts) {
    if (counts.isEmpty())
        return {};
    if (counts.size() == 1)
        return Stages::tr("%n node(s)", "", counts.first());
    QStringList first;
    for (qsizetype i = 0; i + 1 < counts.size(); ++i)
        first << QString::number(counts[i]);
    return Stages::tr("%1 and %n node(s)", "", counts.last()).arg(first.join(QStringLiteral(", ")));
}

QString thresholdMeaning(const QString& key) {
    for (const store::ThresholdRow& row : store::placeholderThresholds())
        if (row.key == key)
            return row.note;
    if (key == QLatin1String("stage2.activated_params_tolerance"))
        return Stages::tr("relative difference of the dense control's activated parameters from the MoE's");
    if (key == QLatin1String("stage3.window_steps"))
        return Stages::tr("the last steps of each run that stage 3 judges");
    if (key == QLatin1String("stage3.a2a_vs_baseline_min"))
        return Stages::tr("the training's all-to-all bandwidth against stage 1's at the same size, below which "
                          "stage 3 names a finding");
    return {};
}

std::optional<double> parseThresholdValue(const QString& key, const QString& text, BareNumber bare) {
    QString s = text.trimmed();
    enum class Suffix { None, Percent, Times } suffix = Suffix::None;
    if (s.endsWith(QLatin1Char('%'))) {
        suffix = Suffix::Percent;
        s.chop(1);
    } else if (s.endsWith(QChar(0x00D7)) || s.endsWith(QLatin1Char('x')) || s.endsWith(QLatin1Char('X'))) {
        suffix = Suffix::Times;
        s.chop(1);
    } else if (s.endsWith(QLatin1String("steps")) || s.endsWith(QLatin1String("步"))) {
        s.chop(s.endsWith(QLatin1String("steps")) ? 5 : 1);
    }
    // "1,000 steps" as shown: thousands grouped by commas (units::formatInteger).
    static const QRegularExpression grouped(QStringLiteral("^\\s*\\d{1,3}(,\\d{3})+(\\.\\d*)?\\s*$"));
    if (grouped.match(s).hasMatch())
        s.remove(QLatin1Char(','));
    bool ok = false;
    double v = s.trimmed().toDouble(&ok);
    if (!ok || !std::isfinite(v))
        return std::nullopt;
    const ThresholdUnit unit = thresholdUnit(key);
    if (suffix == Suffix::Percent) {
        if (unit != ThresholdUnit::Percent)
            return std::nullopt;
        return v / 100.0;
    }
    if (suffix == Suffix::Times && unit != ThresholdUnit::Ratio)
        return std::nullopt;
    if (unit == ThresholdUnit::Percent && bare == BareNumber::Shown && suffix == Suffix::None)
        v /= 100.0;
    return v;
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
