#pragma once
// What the project itself shows for each of the assessment sheet's ten dimensions
// (seed 003 applied to the team's MoE training set-up): sentences computed from the
// config records, the runs and their metrics, and the saved verdicts. A dimension
// the project holds nothing for gets no sentence — it is the team's to fill. The
// window's assessment view and the PDF report print these beside the team's own
// rating, notes and evidence links, marked "from the project". docs/report.md.
#include "store/ProjectStore.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace moewb::assessment {

struct ProjectEvidence {
    QString key;       // the dimension's key ("reproducibility", …)
    QStringList lines; // empty: nothing in the project speaks to it
};

// The ten dimensions in the sheet's order. Reads the whole project (metrics of
// every training run): call it off the GUI thread for large projects.
//  completeness    the stages decided so far, records and runs
//  principles      top-k, capacity factor and overflow policy across the MoE records
//  operability     complete records, clusters checked
//  reproducibility stage 1 repeats and their CV; training runs repeated on one record
//  tuning          node counts and message sizes measured; training and load runs
//  stability       loss spikes (a step over 1.2× the median of the 20 before it),
//                  the highest token drop rate
//  observability   which of the MoE metrics the training runs logged; collector sidecars
//  cost            GPU-hours per billion tokens from each run's median tokens/s per GPU
//  usability, security: nothing (the team's)
QList<ProjectEvidence> projectEvidence(const store::ProjectStore& project);

// The loss spikes of one run: steps whose value exceeds `factor` × the median of
// the `window` values before it (values in step order).
int countLossSpikes(const QVector<double>& values, int window = 20, double factor = 1.2);

} // namespace moewb::assessment
