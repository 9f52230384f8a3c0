#pragma once
// One rank's PyTorch profiler trace, digested: the profiled steps (ProfilerStep#N),
// and per step the kernels (or, in the legacy CPU format, the CPU ops) that ran in it,
// classified, as plain intervals. What core/anatomy/StepAnatomy puts side by side
// across ranks. No events are kept past the digest (docs/formats.md, "PyTorch
// profiler traces").
//
// Two writers' formats (readRankTrace detects which):
//   kineto-json   Kineto's Chrome trace (libkineto/src/output_json.cpp): an object with
//                 "traceEvents", "distributedInfo" {rank, world_size, pg_config}, and
//                 "baseTimeNanoseconds"; plain or gzip (.gz, stream-decompressed).
//                 GPU kernels tied to the step whose ProfilerStep#N span holds their
//                 CPU launch (the cuda_runtime event with the same args.correlation).
//   torch-legacy-json  torch.autograd.profiler's export_chrome_trace without Kineto
//                 (torch 1.13 on CPU): a top-level array of "ph":"X" CPU events,
//                 "pid":"CPU functions", ts relative to the profiler's start (no base
//                 time: ranks are aligned on collective ends only), gloo collectives
//                 as "gloo:<collective>" events on the process group's worker thread;
//                 compute = the union of the other threads' ops inside the step.
// Times are nanoseconds on the rank's own trace clock.
#include "anatomy/digest/CommKind.h"
#include "common/Expected.h"
#include "importers/ImportError.h"

#include <QString>
#include <QStringList>
#include <QVector>

#include <cstdint>
#include <functional>

namespace moewb::anatomy {

struct Interval {
    qint64 start = 0, end = 0; // ns, end >= start
    friend bool operator==(const Interval&, const Interval&) = default;
};

// CommKind (what a communication kernel or gloo CPU op is): anatomy/digest/CommKind.h.

struct CommCall {
    qint64 start = 0, end = 0; // ns on this rank's clock
    CommKind kind = CommKind::NcclOther;
    int group = -1;       // index into RankTrace::groups; -1: not named in the trace
    qint64 seq = -1;      // c10d "Seq" where the trace gives it
    qint64 inBytes = -1;  // "In msg nelems" × dtype size; -1 unknown
    qint64 outBytes = -1; // "Out msg nelems" × dtype size
    bool splitsCut = false; // "In split size" was cut (> 30 entries: "...")
    int name = -1;        // index into RankTrace::names (the kernel's name, for hover)
    QString collective;   // c10d "Collective name" ("all_to_allv", "allreduce", ...) or empty
};

struct StepTrace {
    qint64 step = 0;            // N of ProfilerStep#N
    qint64 start = 0, end = 0;  // the rank's ProfilerStep#N span (CPU), ns
    QVector<Interval> compute;  // kernels that are neither communication nor memcpy/memset: merged (sorted, disjoint)
    QVector<Interval> memcpy;   // Memcpy/Memset GPU activity: merged
    QVector<CommCall> comm;     // in start order
};

struct ProcessGroup {
    QString name;        // pg_config "pg_name" / c10d "Process Group Name"
    QString description; // "pg_desc" / "Process Group Description" (EXPERT_MODEL_PARALLEL_GROUP, mesh_ep, ...)
    QVector<int> ranks;  // global ranks; empty when the trace does not list them
};

struct RankTrace {
    QString shown;       // the file as named in messages
    QString format;      // "kineto-json" or "torch-legacy-json"
    int rank = -1;       // distributedInfo.rank; legacy: from the file name (rank-R, rankR_), -1 unknown
    int worldSize = -1;  // distributedInfo.world_size; -1 unknown
    qint64 baseTimeNs = 0;
    bool gpu = false;    // GPU kernels present (else a CPU-only trace)
    QVector<ProcessGroup> groups;
    QVector<StepTrace> steps; // ordered by step
    QStringList names;        // communication kernels' names (CommCall::name)
    qint64 events = 0;        // trace events read
    qint64 unassigned = 0;    // kernels outside every profiled step (left out)
    qint64 bytesRead = 0;     // uncompressed JSON bytes
};

struct TraceReadOptions {
    // Bound on what one file may hold in memory after digesting (kernel records and
    // launch correlations); past it the file is refused, naming the bound.
    qint64 maxKernels = 4'000'000;
    // Called now and then with uncompressed bytes read; false cancels ("cancelled").
    std::function<bool(qint64)> progress;
};

// True when the first bytes look like either trace format (used by format detection:
// gzip magic followed by a trace, '{' with "traceEvents" or "schemaVersion" among the
// first keys, '[' then {"name": ..., "ph": ...}).
bool looksLikeTrace(const QByteArray& head, const QString& fileName);

// Reads and digests one rank's trace file (plain or .gz) in bounded memory: the file
// is streamed in blocks, never held whole (the Qt-free reader in anatomy/digest,
// TraceReader.h, converted to these types). Errors name the file, and the line or the
// event index where one is at fault (a truncated gzip, not a trace, an event without
// ts, a step that never ends).
Expected<RankTrace, importers::ImportError> readRankTrace(const QString& path, const QString& shown,
                                                          const TraceReadOptions& options = {});

} // namespace moewb::anatomy
