#pragma once
// A probe sweep run with a run's measured-routing matrix against a uniform sweep on the
// same cluster: per size class, the median time of each and their ratio ("your routing
// makes the all-to-all 1.7× slower than a uniform one on this cluster").
#include "store/ProjectStore.h"

#include <QList>

namespace moewb::traffic {

struct SizeComparison {
    quint64 bytesPerRank = 0;
    double uniformMedianUs = 0; // median over every repeat and iteration at this size
    double measuredMedianUs = 0;
    double ratio = 0; // measured / uniform
};

// The sizes both runs measured, ascending; sizes only one run has are left out.
QList<SizeComparison> compareRoutingTimes(const QVector<store::CommSample>& uniform,
                                          const QVector<store::CommSample>& measured);

// A probe run that measured a run's routing (its environment names `pattern_origin`,
// e.g. "from-run:train:worst") beside a uniform probe run of the same cluster and world
// size, size by size.
struct RoutingPair {
    store::RunRow uniform;
    store::RunRow routed;
    QString origin;
    QList<SizeComparison> sizes; // not empty
};
// For every routed probe run among `runs`: the latest (highest id) uniform run with
// all-to-all samples (no pattern_origin; pattern absent or "uniform"), the same cluster
// name and the same environment "world", when they share a message size.
QList<RoutingPair> findRoutingPairs(const store::ProjectStore& project, const QList<store::RunRow>& runs);

} // namespace moewb::traffic
