#pragma once
// Reading a stage's inputs from the project file. The gates themselves are pure
// functions over plain data (StageOneGate.h …); this is the only place that knows
// which runs a stage takes by default.
#include "common/Expected.h"
#include "stages/StageFourGate.h"
#include "stages/StageOneGate.h"
#include "stages/StageThreeGate.h"
#include "stages/StageTwoGate.h"
#include "store/ProjectStore.h"

#include <QStringList>

namespace moewb::stages {

// A named run that does not exist, or a selection a stage cannot use.
struct InputError {
    QString message;
};

// The config record of a stored run (as far as it can be read).
record::ConfigRecord recordOfRun(const store::ProjectStore& project, const store::RunRow& run);

// Stage 1: the named runs, or every run with communication samples.
Expected<QList<StageOneRunInput>, InputError> loadStageOneInputs(const store::ProjectStore& project,
                                                                 const QStringList& runNames);
// Stage 1's targets: every MoE config record that owns a run (docs/method.md, stage 1).
QList<StageOneTarget> loadStageOneTargets(const store::ProjectStore& project);
// Stage 2: the named runs, or every run with a throughput metric
// (tokens_per_s_per_gpu or elapsed_ms_per_iter).
Expected<QList<TrainingRunInput>, InputError> loadStageTwoInputs(const store::ProjectStore& project,
                                                                 const QStringList& runNames);
// Which expert-load counts stage 3's inputs carry beside the per-(step, layer)
// summary (which the gate and its curves read): All, for the plots that show counts
// (the heatmaps, placement); Window, only the steps of the gate's window
// (stage3.window_steps) and only where the gate needs counts (the drop rate estimated
// from capacity, a busiest-rank share for another EP size than the summary's).
enum class ExpertLoadCounts { All, Window };
// Stage 3: the named runs, or every run with expert load.
Expected<QList<ExpertLoadRunInput>, InputError> loadStageThreeInputs(const store::ProjectStore& project,
                                                                     const QStringList& runNames,
                                                                     ExpertLoadCounts counts = ExpertLoadCounts::All);
// The MoE runs stage 2's current verdict was decided on: MoE runs with a throughput
// metric created before that verdict (all of them, also when stage 2 was run on a
// --run subset). Empty without a stage 2 verdict or when it is already stale.
QList<TrainingRunInput> loadStageTwoMoeRuns(const store::ProjectStore& project);

struct StageFourInputs {
    ClusterBaselineInput source;
    ClusterBaselineInput target;
};
// Two named runs (source first), or — without names — the latest stage 1 run of
// each of exactly two clusters (the cluster name, else the record's accelerator,
// network and topology), the older cluster as the source.
Expected<StageFourInputs, InputError> loadStageFourInputs(const store::ProjectStore& project,
                                                          const QStringList& runNames);

// The runs stage `stage` takes without names, in the order the loaders above take
// them (stage 4: source, then target; empty unless exactly two clusters). Reads no
// measurements: what a saved verdict's runs are compared with (VerdictFreshness).
QList<store::RunRow> defaultStageRuns(const store::ProjectStore& project, int stage);

ThresholdSet loadThresholds(const store::ProjectStore& project);

// Stage gating order: stage N may be evaluated only when stage N−1 passed or its
// stop was overridden. Empty when unlocked; else the sentence saying why not.
QString lockReason(const store::ProjectStore& project, int stage);
// A stored verdict token ("pass", "stop", "not_ready") in the reader's language; in English
// the token itself, as the CLI has always printed it.
QString verdictWord(const QString& token);

} // namespace moewb::stages
