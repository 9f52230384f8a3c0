#include "stages/RunSummary.h"

#include "stages/StageInputs.h"
#include "stages/StageTwoGate.h"

#include <cmath>

namespace moewb::stages {

namespace {
std::optional<double> lastValue(const QVector<store::StepMetric>& metrics, const QString& name) {
    const QVector<MetricPoint> series = metricSeries(metrics, name);
    for (auto p = series.crbegin(); p != series.crend(); ++p)
        if (std::isfinite(p->value)) // a NaN logged at a diverged step is no summary
            return p->value;
    return std::nullopt;
}
} // namespace

RunSummary runSummary(const store::ProjectStore& project, const store::RunRow& run) {
    RunSummary s;
    if (run.stepCount == 0)
        return s;
    TrainingRunInput in{run.name, recordOfRun(project, run), project.stepMetrics(run.id)};
    s.finalLoss = lastValue(in.metrics, QStringLiteral("lm_loss"));
    s.valLoss = lastValue(in.metrics, QStringLiteral("val_loss"));
    s.dropRate = lastValue(in.metrics, QStringLiteral("drop_rate"));
    s.tokensPerSecondPerGpu = steadyThroughput(in).tokensPerSecondPerGpu;
    return s;
}

} // namespace moewb::stages
