#pragma once
// Stage 3 — expert load and loss (seed 000 §4 step 3): load ratio max/mean per layer
// and step, token drop rate (drop policies only), busiest-device share. Stop when a
// layer's load ratio is above the limit in more than a fraction of the last W steps,
// or the drop rate over those steps is above the limit. Changing the load-balancing
// method marks stage 2 stale.
//
// Speed: one pass over the blocks, no allocation per block or per count;
// 10,000 steps × 32 layers × 64 experts in well under a second.
#include "record/Comparability.h"
#include "record/ConfigRecord.h"
#include "stages/StageTwoGate.h"
#include "stages/Verdict.h"
#include "store/ProjectStore.h"

#include <QVector>
#include <optional>

namespace moewb::stages {

struct ExpertLoadRunInput {
    QString runName;
    record::ConfigRecord record;
    QVector<store::ExpertLoadBlock> blocks; // ordered by step, then layer (as the store returns them)
    QVector<store::StepMetric> metrics;     // drop_rate, dropped_tokens, lm_loss, busiest_device_share
    QJsonObject environment;                // the run's (names MTP layers: store/LayerLabel.h)
    // The store's per-(step, layer) summary (ProjectStore::expertLoadSummary). When
    // given, the gate and its curves read it, and blocks only for what it cannot say:
    // the drop rate estimated from capacity (counts over capacity in the window) and the
    // busiest-rank share when the summary was written for another EP size than the
    // record's. Empty: everything is computed from blocks.
    QVector<store::ExpertLoadSummaryRow> summary = {};
    // From the run's profiler traces (core/anatomy/A2aBaseline.h): the all-to-all size
    // whose bandwidth in the training is the lowest share of stage 1's at that size.
    struct A2aAgainstBaseline {
        QString kind;
        qint64 bytesPerRank = 0;
        double trainingGBps = 0, baselineGBps = 0, ratio = 0;
        QString baselineRun;
    };
    std::optional<A2aAgainstBaseline> a2aAgainstBaseline = {};
    // What the store could not read of the run's expert load (ProjectStore's readers:
    // run, layer, steps and why). Not empty: the run is not judged on what is left —
    // the gate names it and cannot pass (docs/method.md, stage 3).
    QStringList unreadable = {};
};

enum class BusiestShareSource { None, ProfilerTraces, Collector, Measured, Estimated, OverloadFactor };

// What the load ratio is the ratio of: expert counts (max/mean over the layer's experts),
// or, where a run has no tokens-per-expert data, Megatron-Core's per-layer overload
// factor (the busiest EP rank over the balanced count; stages/OverloadFactorLoad.h).
enum class LoadRatioSource { ExpertCounts, EpRankOverload };

enum class DropRateSource { Metric, DroppedTokensMetric, EstimatedFromLoad, NotApplicable, Unknown };

// Per step over all layers (for the load-ratio-over-steps plot).
struct LoadRatioPoint {
    qint64 step = 0;
    double maxRatio = 0.0;  // worst layer
    double meanRatio = 0.0; // mean over layers
};

struct StageThreeRunSummary {
    QString runName;
    int experts = 0;
    int layers = 0; // distinct layers seen
    qint64 stepsWithLoad = 0;
    qint64 windowSteps = 0; // steps in the gate's window
    qint64 windowFirstStep = 0;
    qint64 windowLastStep = 0;
    // Worst layer in the window: the largest fraction of window steps above the limit.
    int worstLayer = -1;
    double worstLayerFractionAbove = 0.0;
    double windowMaxRatio = 0.0;  // over layers and steps in the window
    double windowMeanRatio = 0.0; // mean over layers and steps in the window
    // Drop rate over the window, as seed 000 defines it: tokens dropped (every one of
    // their top-k assignments) / tokens. Estimated from load it is the assignment rate,
    // an upper bound of the seed's figure (docs/method.md).
    DropRateSource dropSource = DropRateSource::Unknown;
    std::optional<double> dropRate;
    // Beside it where known: dropped assignments / assignments, and tokens that lost
    // some but not all of their assignments / tokens.
    std::optional<double> assignmentDropRate;
    std::optional<double> partlyDroppedRate;
    // Busiest-device share: measured (busiest_device_share metric) or estimated from
    // expert placement under the EP layout (max rank load / Σ rank loads, ideal 1/EP).
    // Preference (issue "where a step's time goes"): profiler traces (trace_busiest_share,
    // the mean over every traced step), then the collector's or another measured figure
    // (busiest_device_share over the window), then the estimate from expert placement.
    std::optional<double> busiestDeviceShare;
    bool busiestDeviceEstimated = true;
    BusiestShareSource busiestDeviceSource = BusiestShareSource::None;
    std::optional<double> meanDeviceShare; // traces only: the mean device's share of its step
    qint64 tracedSteps = 0;                // steps the traces' figures are the mean of
    int expertParallel = 0;
    // Mean lm_loss over the window (beside the drop rate).
    std::optional<double> windowLoss;
    QVector<LoadRatioPoint> ratioOverSteps; // one point per step with load data
    LoadRatioSource loadRatioSource = LoadRatioSource::ExpertCounts;
    // OverloadFactor only: the mean max_overload_factor over the window the share is from.
    std::optional<double> maxOverloadFactor;
    bool loadRatioStops = false;
    bool dropRateStops = false;
};

struct StageTwoStaleness {
    bool stale = false;
    QString reason; // sentence naming the methods and runs
};

// Stage 2 is stale when a stage 3 run uses a load-balancing method (method,
// coefficient, update rate) that no MoE run of the stage 2 comparison used.
StageTwoStaleness stageTwoStaleness(const QList<TrainingRunInput>& stageTwoMoeRuns,
                                    const QList<ExpertLoadRunInput>& stageThreeRuns);

struct StageThreeResult {
    record::ComparisonPlan plan;
    QList<StageThreeRunSummary> runs;
    StageTwoStaleness staleness;
    Verdict verdict;
};

// One run, pure. Reads stage3.load_ratio_max, stage3.load_ratio_window_fraction,
// stage3.drop_rate_max and stage3.window_steps.
StageThreeRunSummary summarizeStageThreeRun(const ExpertLoadRunInput& run, const ThresholdSet& thresholds);

// Refused (not ready) while any record has an issue; runs split by top-k, capacity
// factor and overflow policy. stageTwoMoeRuns: the MoE runs stage 2 compared (for
// staleness; may be empty).
StageThreeResult evaluateStageThree(const QList<ExpertLoadRunInput>& runs, const ThresholdSet& thresholds,
                                    const QList<TrainingRunInput>& stageTwoMoeRuns = {});

QString dropRateSourceText(DropRateSource source);
// "profiler-traces", "collector", "measured", "estimated", "" (none): names for JSON.
QString busiestShareSourceName(BusiestShareSource source);

} // namespace moewb::stages
