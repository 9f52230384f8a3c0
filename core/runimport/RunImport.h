#pragma once
// One run from many files (docs/formats.md, "One run from many files"): the files and
// folders a training left behind — a Megatron-Core --save folder with its per-rank
// tokens_per_expert/rank{R}.jsonl, a routing-trace folder, a --tensorboard-dir,
// console logs — are read, checked against each other and merged into ONE run.
//
//   collectImportFiles: which files PATHs stand for (folders walked, names filtered)
//   planImport:         parse every file, merge, check; nothing is stored
//   ImportPlan::toRunData / mergeInto: what ProjectStore::saveRun / replaceRun store
//
// Rank files are mapped to expert-parallel coordinates exactly as Megatron-Core's
// expert RankGenerator lays ranks out (record/RankGrid.h), using the config record's
// parallelism (dp, tp, pp, ep, cp, etp, order) and model.layers.
#include "anatomy/RankTrace.h"
#include "common/Expected.h"
#include "importers/ImportError.h"
#include "importers/NcclTestsMatrixFile.h"
#include "record/ConfigRecord.h"
#include "store/ProjectStore.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace moewb::runimport {

struct ImportOptions {
    QString format;                 // read every file as this format (empty: detect each)
    bool allowPartialSteps = false; // keep only the steps every rank file has
    QStringList exclude;            // wildcard patterns (file names or paths) left out of walked folders
    QString wandbRun;               // the run to read from a W&B CSV export with several runs
    // nccl-tests text only: facts a pasted table may lack (moewb import --ranks N
    // --collective NAME; NcclTestsTextImporter.h). 0 / empty: from the text.
    int ranks = 0;
    QString collective;
    // alltoallv_perf's traffic matrix (moewb import --alltoallv-matrix FILE
    // [--alltoallv-scale S]; importers/NcclTestsMatrixFile.h), for nccl-tests text files.
    std::shared_ptr<const importers::nccltests::TrafficMatrixFile> alltoallvMatrix;
    // Console logs (Megatron, Megatron-DeepSpeed, Megatron-Bridge, NeMo, torchtitan): refuse a
    // file at its first damaged line instead of keeping what is readable (moewb import --strict).
    bool strict = false;
};

// One file the paths stand for.
struct ImportCandidate {
    QString path;   // absolute
    QString shown;  // as shown in the plan: relative to the folder given, or as given
    bool walked = false;
};

struct SkippedFile {
    QString path;   // as shown
    QString reason; // translated
};

struct CollectedFiles {
    QList<ImportCandidate> files;
    QList<SkippedFile> skipped;
};

// Files are taken as given; folders are walked (hidden entries, checkpoint folders
// iter_*/, symbolic links and files with names no log has are skipped and listed).
// An error names a path that does not exist or cannot be listed.
Expected<CollectedFiles, importers::ImportError> collectImportFiles(const QStringList& paths,
                                                                    const ImportOptions& options);

struct PlannedFile {
    QString path;  // absolute
    QString shown; // as shown in the plan
    QString format;
    qint64 rows = 0;
    QString role; // what it gave, in words ("expert load: rank 3 = EP rank 1, expert-DP 0, stage 0")
    int rank = -1;
    qint64 stepMetrics = 0;
    qint64 expertLoadBlocks = 0;
    qint64 commSamples = 0;
};

// The run's expert load when it all comes from ONE expert-load JSONL file read whole
// (no rank merge, no MTP blocks, steps in order): planImport only scans the file's
// structure, and the save reads its counts for real, straight into the store
// (toRunData sets RunData::expertLoadStream), never holding them all.
struct StreamedExpertLoad {
    QString path;  // absolute
    QString shown; // as named in messages
    QString format;
    qint64 size = 0; // the file as planned: a different one is refused at save
    QDateTime modified;
    qint64 rows = 0; // (step, layer) rows the save stores
    qint64 experts = 0;
    std::vector<std::pair<qint64, qint64>> droppedLines; // [first, end) lines a Megatron resume superseded
};

struct ImportPlan {
    QList<PlannedFile> files;
    QList<SkippedFile> skipped;
    QStringList notes; // what the merge did, in words
    store::RunKind kind = store::RunKind::Imported;
    QJsonObject environment;
    store::CommSampleList commSamples;
    QVector<store::StepMetric> stepMetrics;    // one value per (name, step)
    QVector<store::ExpertLoadBlock> expertLoad; // ordered by step, then layer
    std::optional<StreamedExpertLoad> streamedLoad; // set: the expert load is read at save (expertLoad empty)
    QString sourceFile;                         // the one file, or the folder the files share
    store::RunAnatomy anatomy;                  // from profiler traces (runimport/TracePlan.h); empty without

    // {"files": [{file, format, rows, role, rank, step_metrics, expert_load_blocks,
    // comm_samples}], "skipped": [{file, reason}], "notes": [...]}
    QJsonObject toJson() const;
    // The plan as the lines `moewb import` prints before storing.
    QStringList describe() const;
    // (step, layer) rows of expert load, kept or streamed, and their width (0: none).
    qint64 expertLoadRows() const;
    qint64 expertLoadWidth() const;
};

// Called with (files done, files in all); returning false cancels (error "cancelled").
using PlanProgress = std::function<bool(qsizetype, qsizetype)>;

// Parses every collected file and merges them into one run. record: the config record
// the run belongs to (its moe.experts and parallelism drive the checks and the rank
// merge; without one, rank files cannot be merged). Errors name the file(s), and the
// line and field where one is at fault; every problem found is returned.
Expected<ImportPlan, QList<importers::ImportError>> planImport(const CollectedFiles& files,
                                                               const std::optional<record::ConfigRecord>& record,
                                                               const ImportOptions& options,
                                                               const PlanProgress& progress = {});

// A run of profiler traces alone, read elsewhere, one per file in `files`' order:
// `moewb import --on-cluster` digests them on the cluster's nodes (moe-digest,
// remote/launch/ClusterDigest.h). The same plan as planImport gives for those files.
Expected<ImportPlan, QList<importers::ImportError>> planReadTraceImport(
    const QList<ImportCandidate>& files, std::vector<Expected<anatomy::RankTrace, importers::ImportError>>&& read,
    const std::optional<record::ConfigRecord>& record);

// The run to save: the plan's data under this name and record. A streamed plan's
// expert load is read at save (RunData::expertLoadStream): an error found only then
// (a bad count, the file changed since the plan) fails the save, naming file:line:field.
store::RunData toRunData(ImportPlan&& plan, const QString& runName, const QString& recordName);

// `--into`: the existing run's data with the plan's added, checked as planImport
// checks files against each other (the same metric at the same step, or expert load
// at the same step and layer, with a different value is an error naming the run and
// the file). The result replaces the run (ProjectStore::replaceRun).
Expected<store::RunData, QList<importers::ImportError>> mergeInto(const store::ProjectStore& project,
                                                                  const store::RunRow& existing,
                                                                  ImportPlan&& plan);

} // namespace moewb::runimport
