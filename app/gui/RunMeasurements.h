#pragma once
// What a run's page and the comparison of runs show, read off the GUI thread on a
// ProjectStore of the worker's own (ProjectStore.h): metrics, the stage 1 table of a
// communication run, stage 3's per-step load ratio of a run with expert load, and —
// for a run's page — the layer × expert heatmap of its last step (that step's blocks
// only), and for a run with profiler traces its step anatomy (anatomy::summarize) and
// its all-to-all against stage 1's baseline (anatomy::compareWithBaseline). Computed by
// the same functions as the stage pages and `moewb stage N`.
#include "anatomy/A2aBaseline.h"
#include "anatomy/AnatomySummary.h"
#include "plotspec/PlotSpec.h"
#include "stages/StageOneGate.h"
#include "stages/StageThreeGate.h"
#include "store/ProjectStore.h"

#include <QList>
#include <QStringList>

#include <optional>

namespace moewb::gui {

struct RunMeasurements {
    store::RunRow row;
    QVector<store::StepMetric> metrics;           // every metric, or only the loss (see below)
    std::optional<stages::StageOneTable> comm;    // runs with communication samples
    std::optional<stages::StageThreeRunSummary> load; // runs with expert load
    std::optional<plots::PlotSpec> heatmap;       // layer × expert at the last step (× mean)
    store::RunAnatomy stepAnatomy;                // runs with profiler traces; empty otherwise
    std::optional<anatomy::AnatomySummary> anatomySummary;  // when stepAnatomy is not empty
    std::optional<anatomy::A2aBaselineReport> a2aBaseline;  // likewise
    store::TimelineExtent timelineExtent; // the steps with a one-step timeline (none: imported before v8)
    int ranksPerNode = 0; // cluster.accelerators_per_node of the run's config record; 0 unknown
    QString problem;                              // why a part could not be read (shown)
};

struct LoadedRuns {
    QList<RunMeasurements> runs; // in the order asked; a run that is gone is left out
    double loadRatioLimit = 0.0; // stage3.load_ratio_max
    QString error;               // the project could not be opened
};

struct RunReadOptions {
    bool allMetrics = true; // false: lm_loss and val_loss only
    bool heatmap = true;
    bool anatomy = true; // the step anatomy and its all-to-all baseline
};

// Opens `projectPath` itself: call it on a worker thread.
LoadedRuns readRunMeasurements(const QString& projectPath, const QStringList& runNames, const RunReadOptions& options);

} // namespace moewb::gui
