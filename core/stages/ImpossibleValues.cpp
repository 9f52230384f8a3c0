#include "stages/ImpossibleValues.h"

#include "common/Units.h"
#include "stages/StagesTr.h"

#include <QHash>
#include <cmath>

namespace moewb::stages {
namespace {

// The lowest value a metric can take; metrics not listed may be anything finite.
// Kept to the metrics the gates and checks read, where a sign error changes a verdict.
double metricFloor(const QString& name, bool& known) {
    static const QHash<QString, double> floors{
        {QStringLiteral("lm_loss"), 0.0},
        {QStringLiteral("val_loss"), 0.0},
        {QStringLiteral("tokens_per_s_per_gpu"), 0.0},
        {QStringLiteral("elapsed_ms_per_iter"), 0.0},
        {QStringLiteral("tokens"), 0.0},
        {QStringLiteral("global_batch_size"), 0.0},
        {QStringLiteral("drop_rate"), 0.0},
        {QStringLiteral("dropped_tokens"), 0.0},
        {QStringLiteral("dropped_assignments"), 0.0},
        {QStringLiteral("assignment_drop_rate"), 0.0},
        {QStringLiteral("partly_dropped_rate"), 0.0},
        {QStringLiteral("busiest_device_share"), 0.0},
        {QStringLiteral("trace_busiest_share"), 0.0},
        {QStringLiteral("trace_mean_share"), 0.0},
        {QStringLiteral("load_balancing_loss"), 0.0},
        {QStringLiteral("moe_loss"), 0.0},
    };
    const auto it = floors.constFind(name);
    known = it != floors.constEnd();
    return known ? *it : 0.0;
}

bool isRate(const QString& name) {
    return name == QLatin1String("drop_rate") || name == QLatin1String("assignment_drop_rate") ||
           name == QLatin1String("partly_dropped_rate") || name == QLatin1String("busiest_device_share") ||
           name == QLatin1String("trace_busiest_share") || name == QLatin1String("trace_mean_share");
}

QString numberText(double v) {
    if (std::isnan(v))
        return QStringLiteral("nan");
    if (std::isinf(v))
        return v > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
    return QString::number(v, 'g', 6);
}

void appendBounded(QStringList& out, int& count, int limit, const QString& line) {
    if (count++ < limit)
        out << line;
}

void closeBounded(QStringList& out, int count, int limit) {
    if (count > limit)
        out << Stages::tr("… and %n more impossible value(s).", nullptr, count - limit);
}

} // namespace

QStringList impossibleCommSamples(const QString& runName, const QVector<store::CommSample>& samples, int limit) {
    QStringList out;
    int count = 0;
    for (const store::CommSample& s : samples) {
        QString what;
        if (!std::isfinite(s.timeUs))
            what = Stages::tr("time %1 µs is not a number").arg(numberText(s.timeUs));
        else if (s.timeUs < 0.0)
            what = Stages::tr("time %1 µs is negative").arg(numberText(s.timeUs));
        else if (s.timeUs == 0.0 && s.bytesPerRank > 0)
            what = Stages::tr("time 0 µs for a non-empty message");
        if (what.isEmpty())
            continue;
        appendBounded(out, count, limit,
                      Stages::tr("run %1, %2, repeat %3, iteration %4: %5")
                          .arg(runName, units::formatBytes(double(s.bytesPerRank)))
                          .arg(s.repeat)
                          .arg(s.iteration)
                          .arg(what));
    }
    closeBounded(out, count, limit);
    return out;
}

QStringList impossibleStepMetrics(const QString& runName, const QVector<store::StepMetric>& metrics, int limit) {
    QStringList out;
    int count = 0;
    for (const store::StepMetric& m : metrics) {
        QString what;
        bool known = false;
        const double floor = metricFloor(m.name, known);
        if (!std::isfinite(m.value))
            what = Stages::tr("%1 is %2").arg(m.name, numberText(m.value));
        else if (known && m.value < floor)
            what = Stages::tr("%1 is %2, below its lowest possible value %3")
                       .arg(m.name, numberText(m.value), numberText(floor));
        else if (isRate(m.name) && m.value > 1.0)
            what = Stages::tr("%1 is %2, a rate above 1").arg(m.name, numberText(m.value));
        if (what.isEmpty())
            continue;
        appendBounded(out, count, limit, Stages::tr("run %1, step %2: %3").arg(runName).arg(m.step).arg(what));
    }
    closeBounded(out, count, limit);
    return out;
}

void refuseImpossibleValues(Verdict& v, const QStringList& found) {
    v.status = Verdict::Status::NotReady;
    v.reasons.clear();
    v.reasons << Stages::tr("Not ready: the data holds impossible values.");
    for (const QString& f : found)
        v.reasons << (f.endsWith(QLatin1Char('.')) ? f : f + QLatin1Char('.'));
    v.nextStep = Stages::tr("Fix or re-measure the runs named above (a broken timer, a unit mistake or a corrupt "
                            "file), re-import them, then re-run the stage.");
}

} // namespace moewb::stages
