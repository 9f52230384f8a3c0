#pragma once
// Where a step's time goes, from a run's stored step anatomy (store/StepAnatomyRows.h,
// per step and rank, from its profiler traces): the run page's "Step anatomy" and the
// report's stage 3 chapter draw these. docs/plots.md.
#include "plotspec/PlotSpec.h"
#include "store/StepAnatomyRows.h"

namespace moewb::plots {

// "anatomy-step-bars": one stacked bar per rank traced in `step` (categories in rank
// order), in µs: compute, all-to-all transfer (a2aUs − a2aWaitUs), all-to-all waiting,
// other communication (otherCommUs − otherCommWaitUs), other communication waiting,
// memcpy, idle — bottom to top, one StackedBars series each — and the rank's step time
// as a dashed line. Communication overlapping compute counts in both, so a bar can
// reach above its step time (the note says so). `busiestRank` (anatomy::summarize;
// −1: none) is marked in its category label ("2" over "busiest") and named in the title.
PlotSpec stepAnatomyBars(const store::RunAnatomy& anatomy, qint64 step, int busiestRank, const QString& runName);

// "anatomy-busy-share": rows = ranks (lowest to highest traced rank; grey where a rank
// was not traced), columns = steps (first to last profiled step; grey where a step was
// not profiled), each cell busyUs ÷ stepUs in percent. More than maxHeatmapColumns steps
// are max-pooled into maxHeatmapColumns columns, so one straggling step stays visible:
// of n steps from the first, column c takes those in [c·n/columns, (c+1)·n/columns).
PlotSpec busyShareHeatmap(const store::RunAnatomy& anatomy, const QString& runName);

// The seven segments of stepAnatomyBars, bottom to top (their series names, translated).
QStringList stepAnatomySegmentNames();

// The ranks a node holds by the run's config record (cluster.accelerators_per_node),
// so rank r is local rank r mod that on node r ÷ that, as launchers number them; 0 when
// the record lacks it or the traced ranks do not fit its nodes × accelerators per node.
int ranksPerNode(std::optional<qint64> acceleratorsPerNode, std::optional<qint64> worldSize,
                 const store::RunAnatomy& anatomy);

} // namespace moewb::plots
