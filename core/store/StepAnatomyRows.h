#pragma once
// What a run's profiler traces say about where each step's time went, as stored
// (table step_anatomy and a2a_call, schema v7; docs/store.md "Step anatomy"):
// per-step, per-rank summaries and the all-to-all calls with their bytes — never
// the trace's events. Written by the one-run import (core/anatomy digests the traces),
// read by stage 3, `moewb anatomy`, the run page and the report.
#include "store/StepTimelineRows.h"

#include <QString>
#include <QVector>

namespace moewb::store {

// One rank in one profiled step. Times in µs on that rank's step.
struct RankStepAnatomy {
    qint64 step = 0;
    int rank = 0;
    double stepUs = 0;          // the rank's ProfilerStep#N span
    double computeUs = 0;       // union of compute kernels
    double a2aUs = 0;           // all-to-all kernel time (union)
    double a2aWaitUs = 0;       // of which waiting for the group's latest rank
    double otherCommUs = 0;     // other communication (DP/TP/PP collectives), union
    double otherCommWaitUs = 0; // of which waiting
    double exposedCommUs = 0;   // communication not overlapped by compute
    double memcpyUs = 0;        // memcpy/memset (kept apart: neither compute nor communication)
    double idleUs = 0;          // the step with no kernel of any kind
    double busyUs = 0;          // compute ∪ communication, less the waiting not under compute
};

// One all-to-all call across its group (matched by process group and sequence).
struct A2aCallRow {
    qint64 step = 0;
    QString group;          // process group name (or "gloo" / "ep" when the trace names none)
    int ranks = 0;          // ranks of the group that were traced
    qint64 bytesPerRank = 0;   // the largest rank's in-message bytes (nccl-tests' "size" of an all-to-all)
    double transferUs = 0;  // the minimum over the group's ranks of the call's duration (waiting taken out)
    double slowestUs = 0;   // the maximum (with the waiting)
    QString kind;           // "all_to_all", "dispatch", "combine", "sendrecv"
    bool splitsCut = false; // the trace cut the split sizes: no per-pair matrix
};

struct RunAnatomy {
    QVector<RankStepAnatomy> rows; // ordered by step, then rank
    QVector<A2aCallRow> a2a;       // ordered by step
    QVector<int> ranksTraced;      // sorted
    int worldSize = 0;             // from the traces; 0 unknown
    QString format;                // "kineto-json", "torch-legacy-json"
    // The one-step timelines (table step_timeline), ordered by step then rank: written
    // with the run; ProjectStore::runAnatomy leaves it empty (ProjectStore::stepTimeline
    // reads one step).
    QVector<RankStepTimeline> timeline;
    bool empty() const { return rows.isEmpty(); }
};

} // namespace moewb::store
