#pragma once
// Stage 3 from Megatron-Core's --log-moe-overload-factor figures, for a run without
// tokens-per-expert data (docs/method.md, stage 3; docs/formats.md names the writer).
//
// MoEOverloadFactorTracker (megatron/core/transformer/moe/moe_utils.py) logs, per
// micro-batch and MoE layer, the most loaded rank's tokens over the balanced count of
// the expert-TP × EP group (all tokens ÷ ranks). So:
//   - busiest-device share = max_overload_factor ÷ EP (1/EP when even), measured;
//   - per layer, max_overload_factor_layer_<i> is an EP-rank load ratio max/mean. A
//     rank holds E/EP experts, so it is a lower bound of the per-expert max/mean: above
//     the limit, the experts are at least as unbalanced; within it, one expert may
//     still be busier.
#include "stages/StageThreeGate.h"

#include <QStringList>
#include <QVector>
#include <optional>
#include <utility>
#include <vector>

namespace moewb::stages {

// The EP-rank load ratio per (step, layer) over the gate's window, as the expert-count
// path of summarizeStageThreeRun computes max/mean.
struct EpRankLoad {
    int layers = 0;          // distinct layers (largest index + 1)
    qint64 stepsWithLoad = 0;
    qint64 windowSteps = 0;
    qint64 windowFirstStep = 0;
    qint64 windowLastStep = 0;
    int worstLayer = -1;
    double worstLayerFractionAbove = 0.0;
    double windowMaxRatio = 0.0;
    double windowMeanRatio = 0.0;
    QVector<LoadRatioPoint> ratioOverSteps;
};

// Layer indices above this are not read (a name, not an allocation, decides the size).
inline constexpr int kMaxOverloadLayers = 4096;

// From the metrics max_overload_factor_layer_<i>; windowSteps 0 when there are none.
EpRankLoad epRankLoadFromOverload(const QVector<store::StepMetric>& metrics, qint64 window, double ratioMax);

// The layer with the largest fraction of its window steps above the limit, and that
// fraction ({-1, 0} when no layer has a step): above[l] of inWindow[l] steps.
std::pair<int, double> worstLayerAbove(const std::vector<qint64>& above, const std::vector<qint64>& inWindow);

// Mean max_overload_factor over steps [first, last]; when first > last, over the last
// `window` steps that carry it. nullopt without the metric.
std::optional<double> meanMaxOverload(const QVector<store::StepMetric>& metrics, qint64 first, qint64 last,
                                      qint64 window);

// Whether a run's metric names hold an overload factor (stage 3 takes such a run
// even without expert load).
bool hasOverloadFactor(const QStringList& metricNames);

// The verdict's sentences for a run judged on the EP-rank ratio.
QString epRankRatioStopText(const QString& runName, const QString& layerText, const QString& limitText,
                            const QString& fractionAboveText, const QString& windowText,
                            const QString& fractionLimitText);
QString epRankRatioPassText(const QString& runName, const QString& layerText, const QString& limitText,
                            const QString& fractionAboveText, const QString& windowText,
                            const QString& fractionLimitText, double windowMax, double windowMean);
// The note on the busiest-device share measured from the overload factor.
QString overloadShareNote(const QString& runName, const StageThreeRunSummary& s);
// A run with only the overall overload factor: why it is not judged and how to get more.
QString overloadWithoutLayersText(const QString& runName);

} // namespace moewb::stages
