#pragma once
// What every stage gate returns (SPEC §2): pass, stop, or not ready (inputs missing,
// saying which), with sentences that carry the numbers and each threshold's source.
#include "store/ProjectStore.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

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
// The unit a threshold is shown and typed in, the same on every surface: shares,
// rates, fractions and relative differences as percentages (the stored value is the
// fraction: 0.05 is "5 %"), ratios of like quantities as × ("1.6×"), window lengths
// in steps.
enum class ThresholdUnit { Percent, Ratio, Steps };
ThresholdUnit thresholdUnit(const QString& key);
// "5 %", "1.6×", "500 steps": the value in its key's unit (units::formatPercent,
// formatRatio; never rounded away: 0.0001 reads "0.01 %").
QString thresholdValueText(const QString& key, double value);
// "5 % (team threshold)".
QString thresholdText(const ThresholdUse& t);
// Node counts as a reader says them: "1 node", "2 and 4 nodes", "1, 2 and 4 nodes"
// (ascending, as given).
QString nodeCountsText(const QList<int>& counts);
// What a key measures, in a user's words ("coefficient of variation of time across
// repeats, per message size"); empty for an unknown key.
QString thresholdMeaning(const QString& key);
// How a bare number (no %, × or x after it) is read by parseThresholdValue.
enum class BareNumber {
    Stored, // as the stored value: "0.05" for stage1.cv_max is 5 % (the CLI, JSON)
    Shown,  // in the unit shown: "5" for stage1.cv_max is 5 % (the window's cell)
};
// Reads a value typed as shown ("5 %", "5%", "1.6×", "1.6x", "500") or as stored
// ("0.05"); nullopt when it is not a finite number in the key's unit.
std::optional<double> parseThresholdValue(const QString& key, const QString& text, BareNumber bare);

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
