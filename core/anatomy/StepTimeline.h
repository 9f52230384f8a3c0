#pragma once
// One profiled step drawn as a timeline, ranks as rows (docs/anatomy.md, "The one-step
// timeline"): from the ranks' digests (RankTrace.h) and what the step anatomy made of
// them (StepAnatomy.h: the clock offsets, each call's waiting and whether it is
// all-to-all). Per traced rank and step:
//   - compute: the rank's merged compute intervals (no single kernel's name);
//   - each communication call split in two: its waiting [start, start + wait) — before
//     the group's latest rank arrived — and the rest, classed all-to-all, dispatch or
//     combine (all-to-all whose kernel name says dispatch/combine: DeepEP, HybridEP,
//     NCCL-EP) or other communication; each piece names the kernel, its process group,
//     the call's bytes and c10d Seq;
//   - memcpy/memset, merged.
// Every interval is clipped to the rank's ProfilerStep#N span, moved onto the common
// clock (the rank's clock offset added) and given relative to the step's start: the
// earliest aligned start of that step among the traced ranks. Bounded: at most
// maxIntervals per rank and step (the earliest kept; the count left out is kept), and
// the first maxSteps steps.
#include "anatomy/RankTrace.h"
#include "anatomy/StepAnatomy.h"
#include "store/StepTimelineRows.h"

#include <QVector>

namespace moewb::anatomy {

struct TimelineBounds {
    int maxIntervals = store::kTimelineMaxIntervals;
    int maxSteps = store::kTimelineMaxSteps;
};

// Ordered by step, then rank. `result` is computeAnatomy(traces, ...)'s.
QVector<store::RankStepTimeline> stepTimeline(const QVector<RankTrace>& traces, const AnatomyResult& result,
                                              const TimelineBounds& bounds = {});

// The class of an all-to-all call drawn on the timeline: dispatch or combine where its
// kind (DeepEP-style kernels) or its kernel name says so, else all-to-all.
store::TimelineClass allToAllClass(CommKind kind, const QString& kernelName);

} // namespace moewb::anatomy
