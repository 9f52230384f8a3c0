#pragma once
// A deterministic, large run shared by the crash-safety test and its child
// process, so the parent knows exactly what a complete run holds.
#include "store/ProjectStore.h"

namespace moewb::store::testing {

constexpr int kLayers = 32;
constexpr int kExperts = 64;
constexpr int kMessageSizes = 16;
constexpr int kRepeats = 5;
constexpr int kIterations = 20;
const QStringList kMetricNames = {QStringLiteral("lm_loss"), QStringLiteral("val_loss"),
                                  QStringLiteral("tokens_per_s_per_gpu"), QStringLiteral("drop_rate")};

inline quint32 tokensAt(qint64 step, int layer, int expert) {
    return quint32((step * 7919 + layer * 104729 + expert * 1299709) % 100003);
}

inline RunData makeLargeRun(const QString& name, const QString& recordName, int steps) {
    RunData run;
    run.name = name;
    run.kind = RunKind::Training;
    run.recordName = recordName;
    run.sourceFile = QStringLiteral("/logs/%1.jsonl").arg(name);
    for (int s = 0; s < kMessageSizes; ++s)
        for (int r = 0; r < kRepeats; ++r)
            for (int i = 0; i < kIterations; ++i)
                run.commSamples.append(CommSample{quint64(8) << s, r, i, 10.0 + s + r * 0.1 + i * 0.01});
    for (int step = 0; step < steps; ++step)
        for (int m = 0; m < kMetricNames.size(); ++m)
            run.stepMetrics.append(StepMetric{step, kMetricNames[m], 1.0 / (1 + step) + m});
    run.expertLoad.reserve(steps * kLayers);
    for (int step = 0; step < steps; ++step)
        for (int layer = 0; layer < kLayers; ++layer) {
            ExpertLoadBlock b{step, layer, QVector<quint32>(kExperts)};
            for (int e = 0; e < kExperts; ++e)
                b.tokensPerExpert[e] = tokensAt(step, layer, e);
            run.expertLoad.append(std::move(b));
        }
    return run;
}

inline qint64 commRowsPerRun() {
    return qint64(kMessageSizes) * kRepeats * kIterations;
}
inline qint64 metricRowsPerRun(int steps) {
    return qint64(steps) * kMetricNames.size();
}
inline qint64 expertBlocksPerRun(int steps) {
    return qint64(steps) * kLayers;
}

} // namespace moewb::store::testing
