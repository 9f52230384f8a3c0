#pragma once
// What every stage gate returns (SPEC §2): pass, stop, or not ready (inputs missing,
// saying which), with sentences that carry the numbers and each threshold's source.
#include "store/ProjectStore.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace moewb::stages {

// One threshold as a gate used it.
struct ThresholdUse {
    QString key; // "stage1.cv_max"
    double value = 0.0;
    store::ThresholdSource source = store::ThresholdSource::Placeholder;
    // Not stored in the project: the gate's documented default (docs/method.md).
    bool builtInDefault = false;
    bool operator==(const ThresholdUse&) const = default;
};

// "team threshold", "suggested from round 1", "placeholder — set your own".
QString thresholdSourceText(store::ThresholdSource source);
// "0.10 (team threshold)"; the value printed with `decimals` decimals.
QString thresholdText(const ThresholdUse& t, int decimals = 2);
// A share or rate threshold as a percentage: "50 % (team threshold)".
QString thresholdPercentText(const ThresholdUse& t);

// The project's thresholds, with the gates' documented defaults (source
// placeholder) for keys the project does not hold.
class ThresholdSet {
public:
    ThresholdSet() = default;
    explicit ThresholdSet(const QList<store::ThresholdRow>& rows);
    // The stored value, else the default from defaultThreshold(); a key with neither
    // is a programming error (asserted) and gives 0.
    ThresholdUse get(const QString& key) const;
    void set(const ThresholdUse& t);

private:
    QList<ThresholdUse> m_values;
};

// The documented defaults of every key a gate reads (the store's placeholders plus
// keys only the gates know: stage2.activated_params_tolerance, stage3.window_steps).
QList<ThresholdUse> defaultThresholds();

// A threshold derived from measurements, shown as "suggested", never applied.
struct SuggestedThreshold {
    QString key;
    double value = 0.0;
    QString basis; // sentence: what it was derived from
};

struct Verdict {
    enum class Status { Pass, Stop, NotReady };
    Status status = Status::NotReady;
    QStringList reasons;            // sentences with numbers and the threshold's source
    QString nextStep;               // what to do now
    QList<ThresholdUse> thresholds; // every threshold the gate compared against
    QStringList notes;              // accounting and caveats ("estimated", "warm-up excluded: 20 steps")
};

// "pass", "stop", "not_ready": the names saved as the verdict's status.
QString statusToken(Verdict::Status status);
// "PASS", "STOP", "NOT READY" (translated).
QString statusTitle(Verdict::Status status);

} // namespace moewb::stages
