#pragma once
// The training's own all-to-all against the cluster's measured baseline (issue:
// "nccl-tests looks fine but the training is slow"): each all-to-all call of the
// run's traces, grouped by kind and message size, with its effective bandwidth
// (bytes per rank / transfer time, the waiting taken out) next to what stage 1
// measured on the same cluster for the same record at that size (log-log
// interpolation between measured sizes; never extrapolated: outside the measured
// sizes the baseline is absent and the note says so).
#include "store/ProjectStore.h"

#include <QString>
#include <QVector>

#include <optional>

namespace moewb::anatomy {

struct A2aVsBaseline {
    QString kind;             // "dispatch", "combine", "all_to_all", "sendrecv"
    qint64 bytesPerRank = 0;  // median of the group's calls
    int calls = 0;
    double trainingUs = 0;    // median transfer time of those calls
    double trainingGBps = 0;  // bytesPerRank / trainingUs (algorithm bandwidth, as nccl-tests prints algbw)
    std::optional<double> baselineUs;   // stage 1's time at that size
    std::optional<double> baselineGBps;
    std::optional<double> ratio;        // trainingGBps / baselineGBps
    QString baselineRun;      // the stage 1 run measured (empty: none)
    QString note;             // why there is no baseline, or how it was read (translated)
    bool splitsCut = false;   // some calls' split sizes were cut: no per-pair matrix
};

struct A2aBaselineReport {
    QVector<A2aVsBaseline> rows; // by kind, then size
    QString cluster;             // the run's cluster (empty: the run names none)
};

// The run's calls against the probe / nccl-tests runs of the same record (and cluster,
// when the run names one; any cluster otherwise, said in the note).
A2aBaselineReport compareWithBaseline(const store::ProjectStore& project, const store::RunRow& run,
                                      const store::RunAnatomy& anatomy);

} // namespace moewb::anatomy
