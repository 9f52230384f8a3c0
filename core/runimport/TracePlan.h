#pragma once
// The profiler traces among an import's files (docs/formats.md, "PyTorch profiler
// traces"): picked out by their first bytes, read on worker threads (each file
// streamed, in bounded memory), put side by side across ranks (core/anatomy) and
// added to the plan as the run's step anatomy and two per-step metrics:
//   trace_busiest_share  the busiest rank's busy time / its step time
//   trace_mean_share     the mean over the traced ranks of busy time / step time
#include "anatomy/StepAnatomy.h"
#include "runimport/RunImport.h"

#include <QList>

#include <vector>

namespace moewb::runimport {

// True when the file is a PyTorch profiler trace (Kineto or the legacy format,
// plain or gzip), or `format` forces it ("pytorch-trace").
bool isTraceFile(const QString& path, const QString& format);

struct TracePlan {
    QList<PlannedFile> files;
    anatomy::AnatomyResult result;
    QVector<store::StepMetric> metrics;
};

Expected<TracePlan, QList<importers::ImportError>> planTraces(const QList<ImportCandidate>& files,
                                                              const std::optional<record::ConfigRecord>& record,
                                                              const std::function<bool(qint64 done, qint64 total)>& progress);

// The same from traces already read, one per file in `files`' order: here by planTraces
// on worker threads, or on a cluster's nodes by moe-digest (moewb import --on-cluster,
// remote/launch/ClusterDigest.h).
Expected<TracePlan, QList<importers::ImportError>> planReadTraces(
    const QList<ImportCandidate>& files, std::vector<Expected<anatomy::RankTrace, importers::ImportError>>&& read,
    const std::optional<record::ConfigRecord>& record);

// Adds the traces' files, anatomy, metrics, notes and environment keys to a plan.
void addTraces(ImportPlan& plan, TracePlan&& traces);

} // namespace moewb::runimport
