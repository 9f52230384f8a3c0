#pragma once
// The six misjudgments of seed 000 §5 (SPEC §3), each a pure function over project
// facts that returns a warning with its fix, or nothing. docs/method.md gives each
// rule exactly.
#include "record/ConfigRecord.h"
#include "stages/StageEvaluation.h"
#include "store/ProjectStore.h"

#include <QDateTime>
#include <QList>
#include <QString>
#include <optional>

namespace moewb::checks {

// What the checks need to know about one run.
struct RunFacts {
    QString name;
    QString clusterName; // may be empty
    record::ConfigRecord record;
    bool recordComplete = false;
    bool hasCommSamples = false;
    std::optional<int> commNodes; // stage 1 runs: environment.nodes, else record cluster.nodes
    bool hasExpertLoad = false;
    // Training metrics, in step order (empty when not logged).
    QVector<store::StepMetric> throughput; // tokens_per_s_per_gpu
    QVector<store::StepMetric> loss;       // lm_loss
    QVector<store::StepMetric> valLoss;    // val_loss
    QVector<store::StepMetric> dropRate;   // drop_rate
    bool hasLoadBalancingLoss = false;     // load_balancing_loss or moe_loss logged
    bool hasBusiestDeviceShare = false;    // busiest_device_share logged
    // Megatron-Core's per-layer overload factor (max_overload_factor_layer_<i>): the EP
    // ranks' load ratio stage 3 judges where there are no tokens per expert.
    bool hasOverloadFactorLoad = false;
};

struct ProjectFacts {
    QList<RunFacts> runs;
};

struct MisjudgmentWarning {
    int id = 0;      // 1..6, seed 000 §5 order
    QString title;   // short, translated
    QString message; // what was found, naming runs and numbers (every finding, in one text)
    QString fix;     // what to do
    // One line: the finding itself, or for several "4 run pairs faster but with a worse
    // loss: a over b, …" — the findings themselves are in details.
    QString summary;
    QStringList details; // each finding, one sentence each
    QStringList runs;    // every run the warning names
};

// The record's accelerator model, network type and topology description.
QString hardwareIdentity(const RunFacts& run);
// The cluster a run measured, for messages: its cluster name, else its hardware.
QString clusterIdentity(const RunFacts& run);
// Two runs ran on one cluster: equal names when both are named, else equal hardware
// (an imported training log usually has no cluster name; its record still says
// what it ran on).
bool sameCluster(const RunFacts& a, const RunFacts& b);

// 1: throughput from a cluster without a stage 1 baseline there, while the project
//    holds another cluster's data.
std::optional<MisjudgmentWarning> checkForeignClusterThroughput(const ProjectFacts& facts);
// 2: throughput of MoE runs that differ in capacity factor, overflow policy or top-k
//    (or do not record them).
std::optional<MisjudgmentWarning> checkRoutingSettingsMixed(const ProjectFacts& facts);
// 3: an MoE training run with metrics but no per-expert load (only mean-level
//    balance, e.g. the auxiliary loss), or load without an EP size.
std::optional<MisjudgmentWarning> checkMeanLoadOnly(const ProjectFacts& facts);
// 4: a run with higher throughput but worse loss at equal steps than another run of
//    the same model; drop rates shown beside.
std::optional<MisjudgmentWarning> checkThroughputOverLoss(const ProjectFacts& facts);
// 5: training at N > 1 nodes with no stage 1 run at N nodes.
std::optional<MisjudgmentWarning> checkSingleNodeExtrapolation(const ProjectFacts& facts);
// 6: throughput statistics with warm-up inside: the record excludes no warm-up
//    steps (or does not say), or the first counted steps are still slow.
std::optional<MisjudgmentWarning> checkWarmupInThroughput(const ProjectFacts& facts);

// All six, in order; only those that fire.
QList<MisjudgmentWarning> runAllChecks(const ProjectFacts& facts);

// The warnings that name a run of `runNames` (the runs a stage just compared), each as
// a sentence for the stage's verdict reasons: "Misjudgment warning 4 on these runs —
// <title>: <summary> Its fix: moewb checks." Empty when none fires on them.
// `answered`: the ids of warnings the stage's own result already answers (left out).
QStringList checkReasonsForRuns(const ProjectFacts& facts, const QStringList& runNames,
                                const QList<int>& answered = {});
// Appends checkReasonsForRuns over the evaluation's runs to its verdict's reasons (the
// CLI, the window and the report call this after stages::evaluateStage, so a verdict
// never sits silent beside a warning on the runs it compared). A locked evaluation
// that is not a preview is left as it is.
void addCheckReasons(const store::ProjectStore& project, stages::StageEvaluation& evaluation);

// Reads every run of the project (metrics by name; expert load only counted).
ProjectFacts loadProjectFacts(const store::ProjectStore& project);

} // namespace moewb::checks
