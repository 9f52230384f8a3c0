#pragma once
// The figures seed 000's stage 3 asks for, from a run's stored step anatomy:
// per step the busiest rank (largest busy time: compute + communication without
// its waiting), its share of its step time (the busiest-device share), the mean
// device's share, and their gap (how much of the step the others wait for the
// busiest: the imbalance bill); over the run, how often each rank was busiest.
#include "store/StepAnatomyRows.h"

#include <QVector>

#include <optional>

namespace moewb::anatomy {

struct StepSummary {
    qint64 step = 0;
    int busiestRank = -1;
    double busiestShare = 0; // busy_b / step_b
    double meanShare = 0;    // mean over traced ranks of busy_r / step_r
    double billUs = 0;       // (busiestShare - meanShare) × the busiest rank's step time
    double stepUs = 0;       // the busiest rank's step time
};

struct Straggler {
    int rank = 0;
    int timesBusiest = 0; // steps in which it was the busiest rank
};

struct AnatomySummary {
    QVector<StepSummary> steps; // ordered by step
    QVector<Straggler> stragglers; // most often busiest first (rank ascending on ties); only ranks busiest at least once
    double meanBusiestShare = 0;   // over the steps
    double meanMeanShare = 0;
    double meanBillUs = 0;
};

// Steps where every traced rank has a row; a step missing a rank is left out.
AnatomySummary summarize(const store::RunAnatomy& anatomy);

} // namespace moewb::anatomy
