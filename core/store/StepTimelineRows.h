#pragma once
// One profiled step drawn as a timeline, per rank (table step_timeline, schema v8;
// docs/store.md "Step timeline"; built by core/anatomy/StepTimeline): the intervals
// of compute (merged kernels), communication calls split into their waiting and the
// rest, and memcpy/memset — times in ns on the ranks' common (aligned) clock,
// relative to the step's start (the earliest traced rank's ProfilerStep#N start).
#include <QString>
#include <QStringList>
#include <QVector>

#include <cstdint>

namespace moewb::store {

// Stored as a number: append new classes at the end.
enum class TimelineClass : std::uint8_t {
    Compute = 0,   // compute kernels, merged (no single kernel's name)
    AllToAll = 1,  // all-to-all without a dispatch/combine name (NCCL all-to-all, EP send/receive, gloo)
    Dispatch = 2,  // all-to-all whose kernel names dispatch (DeepEP, HybridEP, NCCL-EP)
    Combine = 3,   // ... names combine
    OtherComm = 4, // other communication (DP/TP/PP collectives)
    Waiting = 5,   // the part of a call before the group's latest rank arrived
    Memcpy = 6,    // memcpy/memset, merged
};
inline constexpr int kTimelineClasses = 7;

struct TimelineInterval {
    qint64 startNs = 0, endNs = 0; // relative to the step's start, common clock
    TimelineClass cls = TimelineClass::Compute;
    int name = -1;    // index into RankStepTimeline::labels: the kernel's name (-1: none, compute/memcpy)
    int group = -1;   // index into labels: the process group ("7 · EXPERT_MODEL_PARALLEL_GROUP"); -1 none
    qint64 bytes = -1; // the call's in-message bytes (-1 unknown)
    qint64 seq = -1;   // c10d Seq (-1 unknown)
    // Waiting only: the class of the call it belongs to (AllToAll … OtherComm).
    TimelineClass callClass = TimelineClass::Compute;
    friend bool operator==(const TimelineInterval&, const TimelineInterval&) = default;
};

// Bounds (StepTimeline.h): what one rank's step keeps, and how many steps a run keeps.
inline constexpr int kTimelineMaxIntervals = 50'000;
inline constexpr int kTimelineMaxSteps = 32;
inline constexpr int kTimelineMaxLabels = 4096;
inline constexpr int kTimelineMaxLabelBytes = 1024;

struct RankStepTimeline {
    qint64 step = 0;
    int rank = 0;
    qint64 stepStartNs = 0, stepEndNs = 0; // the rank's own ProfilerStep#N span, same clock
    QStringList labels;                    // kernel and process-group names
    QVector<TimelineInterval> intervals;   // by start
    qint64 dropped = 0;                    // intervals past kTimelineMaxIntervals, left out
    friend bool operator==(const RankStepTimeline&, const RankStepTimeline&) = default;
};

// The steps a run's timeline covers and what was cut (ProjectStore::timelineExtent).
struct TimelineExtent {
    QVector<qint64> steps;    // steps with a stored timeline, ascending
    qint64 droppedTotal = 0;  // intervals left out over all stored steps and ranks
};

} // namespace moewb::store
