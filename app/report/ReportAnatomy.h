#pragma once
// Stage 3's step anatomy in the report (docs/report.md): for each run with profiler
// traces, the imbalance bill in time per step, the per-rank stacked bars of the step
// with the largest bill, how often each rank was the busiest, and the training's
// all-to-all against stage 1's baseline. The same figures as the run page's "Step
// anatomy" (anatomy::summarize, anatomy::compareWithBaseline, plotspec/AnatomyPlots.h).
#include "ReportData.h"

namespace moewb::report {

// One subsection per run of `runs` with a step anatomy, in the order of `runs`.
QList<ReportSubsection> anatomySubsections(const store::ProjectStore& project, const QList<store::RunRow>& runs);

} // namespace moewb::report
