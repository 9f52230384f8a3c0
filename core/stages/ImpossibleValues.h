#pragma once
// Values no measurement can produce (docs/method.md, "Impossible values"): a time that
// is not finite, negative, or zero for a non-empty message; a metric that is not
// finite or below what it can be (a negative loss, throughput or token count; a rate
// outside 0..1). Every gate refuses such data as not ready, naming where it is,
// instead of deciding on a NaN.
#include "stages/Verdict.h"
#include "store/ProjectStore.h"

#include <QStringList>
#include <QVector>

namespace moewb::stages {

// One sentence per impossible value in a run's all-to-all samples ("run r1, 1 MiB,
// repeat 0, iteration 3: time 0 µs for a non-empty message"), at most `limit` of them
// (then one line counting the rest).
QStringList impossibleCommSamples(const QString& runName, const QVector<store::CommSample>& samples, int limit = 5);
// The same for step metrics ("run r1, step 40: lm_loss is nan").
QStringList impossibleStepMetrics(const QString& runName, const QVector<store::StepMetric>& metrics, int limit = 5);

// Makes `v` the verdict of data with impossible values: NotReady, the reason
// "Not ready: the data holds impossible values." followed by `found`, and what to do.
void refuseImpossibleValues(Verdict& v, const QStringList& found);

} // namespace moewb::stages
