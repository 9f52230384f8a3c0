#pragma once
// The collector's per-rank sidecars (moewb_collect/rank{N}.jsonl, format
// moewb-collect-jsonl, docs/formats.md "moewb collector sidecar") of one training →
// its per-step metrics, over all ranks and MoE layers:
//   drop_rate            = Σ dropped_tokens / Σ tokens        (seed 000's drop rate)
//   assignment_drop_rate = Σ dropped_assignments / Σ assignments
//   dropped_tokens       = Σ dropped_tokens, dropped_assignments = Σ dropped_assignments
//   busiest_device_share = (compute_b + a2a_b) / step_b, b = the rank with the largest
//                          compute time (lowest rank on ties); only for steps where every
//                          rank measured its compute time (an a2a_s of null counts as 0).
// Every rank of the headers' world must be there. Pure: no files, no project.
#include "common/Expected.h"
#include "importers/ImportError.h"
#include "importers/ImportedData.h"
#include "record/ConfigRecord.h"

#include <QHash>
#include <QList>
#include <QStringList>

namespace moewb::runimport {

struct CollectRankFile {
    QString shown;       // the file as named in messages
    int rank = -1;       // the header's
    qint64 world = 0;    // the header's
    qint64 experts = 0;  // the header's
    qint64 topk = 0;     // the header's
    QVector<importers::CollectorStep> steps; // ordered by step
};

struct CollectMergeResult {
    QVector<store::StepMetric> metrics; // ordered by step
    QStringList notes;                  // what was done, in words
    QHash<int, QString> roles;          // rank -> what its file gave, in words
    qint64 shareSteps = 0;              // steps with a busiest-device share
    qint64 clamped = 0;                 // shares above 1 (clock error) stored as 1
};

Expected<CollectMergeResult, QList<importers::ImportError>> mergeCollectorFiles(
    const QList<CollectRankFile>& files, const std::optional<record::ConfigRecord>& record, bool allowPartialSteps);

} // namespace moewb::runimport
