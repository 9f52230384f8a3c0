#pragma once
// Where each profiled step's time went, per rank, from the digests of all ranks'
// traces of ONE training (RankTrace.h) — what `moewb anatomy`, stage 3, the run
// page and the report read (docs/formats.md, "PyTorch profiler traces").
//
// For rank r in step s (span [S0, S1] of its ProfilerStep#N; every interval clipped to it):
//   C = compute kernels, A = all-to-all kernels, O = other communication, M = memcpy/memset.
//   A kernel is all-to-all when its c10d collective is all_to_all*/alltoall*, when it is
//   a send/receive kernel in an expert-parallel process group (described as
//   EXPERT_MODEL_PARALLEL_GROUP, mesh_ep or ep, or whose ranks are one of the record's EP
//   groups by record/RankGrid), or a dispatch/combine kernel by name (CommKernels.h).
//   Each communication call is matched across the ranks of its group (process group and
//   c10d Seq; without Seq, by occurrence within the step). Ranks' clocks are aligned on
//   the calls' ends (median of end differences, from the lowest traced rank outwards),
//   never on raw timestamps. A call's waiting = the latest aligned start among its ranks
//   minus this rank's aligned start (at most its duration): the interval [start, start + wait).
//   step_us = S1 − S0, compute_us = |∪C|, a2a_us = |∪A|, a2a_wait_us = |∪ waiting of A|,
//   other_comm_us = |∪O|, other_comm_wait_us = |∪ waiting of O|,
//   exposed_comm_us = |∪(A∪O) \ ∪C|, memcpy_us = |∪M|, idle_us = step − |∪(C∪A∪O∪M)|,
//   busy_us = |C ∪ ((A∪O) \ W)| with W all waiting intervals.
#include "anatomy/RankTrace.h"
#include "common/Expected.h"
#include "importers/ImportError.h"
#include "record/ConfigRecord.h"
#include "store/StepAnatomyRows.h"

#include <QList>
#include <QStringList>
#include <QVector>

#include <optional>
#include <vector>

namespace moewb::anatomy {

// One communication call as the anatomy judged it (what the one-step timeline draws).
struct CallAnatomy {
    qint64 waitNs = 0; // [start, start + waitNs) waits for the group's latest rank
    bool a2a = false;  // counted as all-to-all (else other communication)
};

struct AnatomyResult {
    store::RunAnatomy anatomy;
    QStringList notes;        // what was done, in words (ranks missing, clocks aligned, ...)
    QVector<int> missingRanks; // ranks of the world with no trace
    QVector<qint64> clockOffsetNs; // per traced rank (ranksTraced order): added to its clock
    // Per trace (in the order given to computeAnatomy), step and call (StepTrace::comm).
    std::vector<std::vector<std::vector<CallAnatomy>>> calls;
};

// Errors (each naming the file): two files of one rank, traces of different world
// sizes, a world size other than the record's, a multi-file run with a file whose
// rank is unknown.
Expected<AnatomyResult, QList<importers::ImportError>> computeAnatomy(
    const QVector<RankTrace>& traces, const std::optional<record::ConfigRecord>& record);

} // namespace moewb::anatomy
