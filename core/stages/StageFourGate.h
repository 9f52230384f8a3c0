#pragma once
// Stage 4 — transfer boundary (seed 000 §4 step 4): the target cluster's stage 1
// baseline against the source's, size by size. Stop when a size differs by more than
// the threshold: conclusions are then reference only, not for budget decisions.
// Always states the conditions (node counts, topology, experts, parallelism) under
// which the conclusions hold.
#include "record/Comparability.h"
#include "record/ConfigRecord.h"
#include "stages/StageOneGate.h"
#include "stages/Verdict.h"

namespace moewb::stages {

struct ClusterBaselineInput {
    StageOneRunInput run;
    record::ConfigRecord record;
};

struct StageFourSizeRow {
    quint64 bytesPerRank = 0;
    double sourceBandwidth = 0.0; // bytes/s
    double targetBandwidth = 0.0;
    bool effective = true;     // false: algbw (a world size unknown)
    double relativeDiff = 0.0; // |target − source| / source
    bool stops = false;
};

struct StageFourResult {
    record::ComparisonPlan plan;
    QString sourceRun;
    QString targetRun;
    QList<StageFourSizeRow> rows;  // sizes both baselines measured, ascending
    QList<quint64> unmatchedSizes; // measured by only one side
    QStringList applicability;     // one line per condition
    Verdict verdict;
};

// Reads stage4.baseline_diff_max. Not ready while a record has an issue or when no
// size was measured on both clusters.
StageFourResult evaluateStageFour(const ClusterBaselineInput& source, const ClusterBaselineInput& target,
                                  const ThresholdSet& thresholds);

// The conditions under which conclusions drawn on `source` hold (translated lines).
QStringList applicabilityStatement(const record::ConfigRecord& source, const record::ConfigRecord& target);

} // namespace moewb::stages
