#pragma once
// Stage 2 — dense control (seed 000 §4 step 2): MoE and a dense model of similar
// activated size, like for like (batch, sequence, optimizer, schedule, tokens,
// validation set, throughput accounting). Stop when the MoE is slower AND its
// validation loss is not better.
#include "record/Comparability.h"
#include "record/ConfigRecord.h"
#include "stages/Verdict.h"
#include "store/ProjectStore.h"

#include <QVector>
#include <optional>

namespace moewb::stages {

// A training run: its config record and its metrics (any order; canonical names).
struct TrainingRunInput {
    QString runName;
    record::ConfigRecord record;
    QVector<store::StepMetric> metrics;
};

// A metric series of one run, in step order.
struct MetricPoint {
    qint64 step = 0;
    double value = 0.0;
};
QVector<MetricPoint> metricSeries(const QVector<store::StepMetric>& metrics, const QString& name);

// Throughput over the steady phase: steps s ≥ s0 + N, s0 = the first logged step,
// N = the record's warm-up steps excluded.
struct ThroughputSummary {
    std::optional<double> tokensPerSecondPerGpu; // mean over counted steps
    int stepsCounted = 0;
    int warmupStepsExcluded = 0;     // N from the record
    bool derivedFromElapsed = false; // global_batch_tokens / elapsed / world
};
ThroughputSummary steadyThroughput(const TrainingRunInput& run);

// Tokens consumed at each logged step: the "tokens" metric when logged, else
// step × batch.global_batch_tokens.
double tokensAtStep(const TrainingRunInput& run, qint64 step);

struct LossAtTokens {
    std::optional<double> value;
    double tokens = 0.0; // where it was read
};
// Mean of lm_loss over the steps with tokens in [0.98·T, T] (at least the last step ≤ T).
LossAtTokens trainingLossAt(const TrainingRunInput& run, double tokens);
// val_loss at the last validation point with tokens ≤ T.
LossAtTokens validationLossAt(const TrainingRunInput& run, double tokens);

// One MoE-versus-dense row.
struct StageTwoPair {
    QString groupTitle;
    QString moeRun;
    QString denseRun;
    ThroughputSummary moeThroughput;
    ThroughputSummary denseThroughput;
    double comparedAtTokens = 0.0; // equal-token horizon (training loss)
    LossAtTokens moeTrainLoss, denseTrainLoss;
    LossAtTokens moeValLoss, denseValLoss;
    qint64 moeActivatedParams = 0;
    qint64 denseActivatedParams = 0;
    double activatedParamsDiff = 0.0; // |dense − moe| / moe
    QStringList mismatches; // like-for-like fields that differ ("batch.sequence_length: 4096 vs 2048")
    bool stops = false;
};

struct StageTwoResult {
    record::ComparisonPlan plan;
    QList<StageTwoPair> pairs;
    Verdict verdict;
};

// Reads stage2.activated_params_tolerance. Refused (not ready) while any record
// has an issue; otherwise each MoE run is compared with each dense run of its group.
StageTwoResult evaluateStageTwo(const QList<TrainingRunInput>& runs, const ThresholdSet& thresholds);

// The like-for-like fields stage 2 enforces, JSON paths with both values.
QStringList likeForLikeMismatches(const record::ConfigRecord& moe, const record::ConfigRecord& dense);

} // namespace moewb::stages
