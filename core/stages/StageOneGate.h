#pragma once
// Stage 1 — communication baseline (seed 000 §4 step 1, SPEC §2): per message size,
// effective bandwidth, median and P99 time, and run-to-run variation across repeats.
// Stop when the CV across repeats or P99/median exceeds the team's threshold.
#include "stages/Verdict.h"
#include "store/ProjectStore.h"

#include <QList>
#include <QVector>
#include <optional>

namespace moewb::stages {

// The tool a baseline came from, so that advice names that tool's flags (docs/method.md).
enum class BaselineTool { Unknown, Probe, NcclTests };

struct StageOneRunInput {
    QString runName;
    QString clusterName;                // may be empty
    std::optional<int> world;           // all-to-all ranks (environment.world)
    std::optional<int> nodes;           // environment.nodes, else the record's cluster.nodes
    std::optional<int> nodesMeasured;   // what the run itself says (not the record's)
    QVector<store::CommSample> samples; // any order
    // The training's EP size (the record's parallelism.ep, MoE records only): the
    // all-to-all concurrency stage 1 should match (seed 000 §4 step 1).
    std::optional<int> expertParallel = {};
    // How the probe ran: EP groups of this size at once (environment.ep_size, moe-probe/2),
    // or one all-to-all over `world` when empty.
    std::optional<int> epSize = {};
    QString clusterKey; // the run's record's cluster (model, network, topology)
    // moe-probe (run kind probe, probe-json) or nccl-tests (nccl-tests, nccl-tests-json).
    BaselineTool tool = BaselineTool::Unknown;
};

// A training the baseline must match: seed 000 §4 step 1, "在目标节点数下测量" (measure at
// the target node count) and "并发:与训练时的专家并行规模一致" (concurrency: the training's
// expert-parallel size). One per MoE config record that owns a run.
struct StageOneTarget {
    QString recordName;
    QString clusterKey;
    std::optional<int> nodes;
    std::optional<int> world; // nodes × accelerators per node
    std::optional<int> expertParallel;
};

// Whether a target has a baseline measured the way it trains, and if not, what is missing.
struct StageOneCoverage {
    QString recordName;
    bool covered = false;
    QString baselineRun; // the run that matches, when covered
    QString missing;     // a sentence naming what is missing, when not
};

// The concurrency a run measured, in words ("4 concurrent all-to-alls of EP 8",
// "one 32-rank all-to-all").
QString concurrencyText(const StageOneRunInput& run);

struct StageOneSizeRow {
    quint64 bytesPerRank = 0;
    int samples = 0;
    int repeats = 0;
    double medianUs = 0.0;     // over all samples of the size
    double p99Us = 0.0;        // numpy linear (type 7)
    double algBandwidth = 0.0; // bytes/s: bytes_per_rank / median
    // bytes/s: bytes_per_rank·(n−1)/n / median; empty when the world size is unknown.
    std::optional<double> effectiveBandwidth;
    // Mean and sample variance of the per-repeat median times (µs, µs²).
    double repeatMeanUs = 0.0;
    double repeatVarianceUs2 = 0.0;
    // CV across repeats: sample stddev / mean of the per-repeat medians; empty with
    // fewer than two repeats.
    std::optional<double> cv;
    double p99OverMedian = 0.0;
};

struct StageOneTable {
    QString runName;
    QString clusterName;
    std::optional<int> world;
    std::optional<int> nodes;
    QList<StageOneSizeRow> rows; // ascending size
};

// The table of one run. Pure; O(samples · log samples).
StageOneTable stageOneTable(const StageOneRunInput& run);

// One point of the node-count comparison: effective bandwidth (or algbw when the
// world size is unknown) and median time of one size in one run.
struct NodeCountPoint {
    int nodes = 0;
    QString runName;
    quint64 bytesPerRank = 0;
    double medianUs = 0.0;
    double bandwidth = 0.0; // bytes/s
    bool effective = false; // false: algbw (world unknown)
};

struct StageOneResult {
    QList<StageOneTable> tables;
    QList<StageOneCoverage> coverage; // one per target
    QList<NodeCountPoint> nodeComparison;  // only when the runs span ≥ 2 node counts
    QList<SuggestedThreshold> suggestions; // from these runs; never applied
    Verdict verdict;
};

// Suggested thresholds from a first round of measurements (docs/method.md):
// 1.5 × the median over sizes of the observed figure (at least 0.02 for the CV),
// rounded up to two significant digits.
QList<SuggestedThreshold> suggestStageOneThresholds(const QList<StageOneTable>& firstRound);

// Reads stage1.cv_max and stage1.p99_over_median_max. Not ready without runs, when a
// run has a size with fewer than two repeats (no run-to-run variation), or when a
// target has no baseline at its node count and EP concurrency (docs/method.md).
StageOneResult evaluateStageOne(const QList<StageOneRunInput>& runs, const ThresholdSet& thresholds,
                                const QList<StageOneTarget>& targets = {});

} // namespace moewb::stages
