#pragma once
// The project file (*.moewb): one SQLite database per evaluation, opened through
// Qt Sql (QSQLITE). All data goes through here; a run is saved in ONE transaction,
// so a crash or a kill leaves the whole run or nothing. Schema: docs/store.md.
//
// Threading: a ProjectStore owns one Qt Sql connection, which Qt binds to the
// thread that opened it. Use one ProjectStore per thread (open another on the
// same path in a worker); SQLite's WAL mode lets them read while one writes.
#include "common/Expected.h"
#include "store/CommSampleList.h"
#include "store/ExpertLoadSink.h"
#include "store/StepAnatomyRows.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>
#include <QVector>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace moewb::store {

struct StoreError {
    QString file;
    QString message;
    // "<file>: <message>" (just the message when no file is known).
    QString text() const;
};

enum class OpenMode { CreateIfMissing, MustExist };

struct ConfigRecordRow {
    qint64 id = 0;
    QString name;
    QJsonObject json;
    bool complete = false;
    QDateTime created;
};

struct ClusterRow {
    qint64 id = 0;
    QString name;
    int gpusPerNode = 0;
    QString identityFile;
    QJsonObject facts;
};

struct NodeRow {
    qint64 id = 0;
    qint64 clusterId = 0;
    QString address; // alias or user@host:port
    int gpus = 0;
    QJsonObject facts;
};

enum class RunKind { Probe, Training, Imported };
// "probe", "training", "imported": the names stored in the file.
QString runKindName(RunKind kind);
// The kind in the reader's language ("probe", "training", "imported" in English).
QString runKindTitle(RunKind kind);
std::optional<RunKind> runKindFromName(const QString& name);

struct StepMetric {
    qint64 step = 0;
    QString name; // e.g. "lm_loss", "val_loss", "tokens_per_s_per_gpu"
    double value = 0.0;
};

// ProjectStore::expertLoadTotals: a run's expert load summed over a window of steps.
struct ExpertLoadTotals {
    int experts = 0;           // of every block in the window; 0 when there is none
    bool mixedExperts = false; // the window's blocks differ in expert count: perLayer is left empty
    qint64 firstStep = 0;      // the steps that carried load in the window, in any layer
    qint64 lastStep = 0;
    qint64 steps = 0;
    QMap<int, std::vector<quint64>> perLayer; // layer → tokens per expert over the window
};

struct ExpertLoadBlock {
    qint64 step = 0;
    int layer = 0;
    QVector<quint32> tokensPerExpert;
    // Import-time only (never stored): the multi-token-prediction block a per-rank
    // Megatron-Core record belongs to (its "mtp_idx"), -1 for the decoder. The merge
    // (importers/RunImport) gives MTP layers their own layer numbers after the
    // decoder's and names them in the run's environment ("layer_labels").
    int mtpIndex = -1;
};

struct RunData {
    QString name;
    RunKind kind = RunKind::Imported;
    QString recordName;  // required: every run belongs to a config record
    QString clusterName; // optional; when given it must exist
    QString sourceFile;
    QJsonObject environment;
    CommSampleList commSamples; // packed (CommSampleList.h)
    QVector<StepMetric> stepMetrics;
    QVector<ExpertLoadBlock> expertLoad;
    // Expert load read as it is written (an import streaming a large file): called
    // inside the save's transaction after `expertLoad` went in, it adds rows to the sink
    // (each layer in step order), calling rowAdded() after each (the save's progress;
    // false: cancelled, stop), and returns false with *error set to fail the save
    // ("cancelled" to cancel it). The run's expert_load_blocks counts both.
    std::function<bool(ExpertLoadSink& sink, const std::function<bool()>& rowAdded, QString* error)> expertLoadStream;
    qint64 expertLoadStreamRows = 0; // rows the stream is expected to add (progress only)
    // Per-step, per-rank summaries of the run's profiler traces (core/anatomy) and its
    // all-to-all calls; empty when the run has no traces.
    RunAnatomy anatomy;
    // Non-empty: `name` was chosen automatically from this base (an import's file
    // name). When another writer took `name` before this save, saveRun takes the
    // first free of base, base-2, base-3, … inside its own transaction.
    QString automaticNameBase;
};

struct RunRow {
    qint64 id = 0;
    QString name;
    RunKind kind = RunKind::Imported;
    QString recordName;
    QString clusterName;
    QString sourceFile;
    QDateTime created;
    QDateTime updated; // the last write of its data: saveRun, or replaceRun (`import --into`)
    qint64 commSampleCount = 0;
    qint64 stepCount = 0; // distinct steps that carry at least one metric
    qint64 expertLoadBlocks = 0;
    QJsonObject environment;
};

enum class ThresholdSource { Placeholder, Team, Suggested };
// "placeholder", "team", "suggested": the names stored in the file.
QString thresholdSourceName(ThresholdSource source);
std::optional<ThresholdSource> thresholdSourceFromName(const QString& name);

struct ThresholdRow {
    QString key;
    double value = 0.0;
    ThresholdSource source = ThresholdSource::Team;
    QString note;
    QDateTime updated; // set to now by setThreshold when invalid
};

// The defaults seeded into a new project, all with source Placeholder.
QList<ThresholdRow> placeholderThresholds();

struct VerdictRow {
    int stage = 0;
    QString status; // "pass", "stop", "overridden", "stale", ...
    QJsonArray reasons;
    QDateTime decided; // set to now by saveVerdict when invalid
    // What the verdict was computed on (schema v4; stages/VerdictBasis.h writes and
    // reads it): {"selection": "default"|"named", "runs": [{name, id, fingerprint}]}.
    // Empty for a verdict saved before v4.
    QJsonObject basis;
};

struct OverrideRow {
    qint64 id = 0;
    int stage = 0;
    QString justification;
    QString author;
    QDateTime created; // set to now by addOverride when invalid
};

// The assessment sheet (seed 003; core/assessment gives the dimensions their
// wording and ratings their meaning). The store keeps it as plain rows.
enum class EvidenceKind { Run, Stage };
// "run", "stage": the names stored in the file.
QString evidenceKindName(EvidenceKind kind);
std::optional<EvidenceKind> evidenceKindFromName(const QString& name);

struct EvidenceLink {
    EvidenceKind kind = EvidenceKind::Run;
    QString run;   // Run: the run's name (it must exist; removing the run removes the link)
    int stage = 0; // Stage: 1..4
    QString note;  // what the evidence shows; may be empty
    bool operator==(const EvidenceLink&) const = default;
};

struct AssessmentDimensionRow {
    QString key;    // "completeness", ... (core/assessment)
    QString rating; // a rating token ("not_rated", "adequate", ...; core/assessment)
    QString notes;
    QList<EvidenceLink> evidence; // in the order given
    bool operator==(const AssessmentDimensionRow&) const = default;
};

struct CostEstimateRow {
    QString category; // "resources", "communication", "people", "migration"
    QString estimate; // free text with its unit ("64 GPUs x 3 weeks")
    QString drivers;  // what drives the cost
    QString notes;
    bool operator==(const CostEstimateRow&) const = default;
};

struct AssessmentSheetRow {
    QList<AssessmentDimensionRow> dimensions;
    QList<CostEstimateRow> costs;
    QString author;
    QDateTime updated; // set to now by saveAssessment; invalid when never saved
};

class ProjectStore {
public:
    // A project whose file or folder cannot be written (read-only media, another
    // user's file) is opened read-only: everything can be read, and every write is
    // refused with "… is read-only …" and changes nothing. A new project cannot be
    // created there, nor an older one upgraded.
    static Expected<std::unique_ptr<ProjectStore>, StoreError>
    open(const QString& path, OpenMode mode = OpenMode::CreateIfMissing);
    // $XDG_DATA_HOME (or ~/.local/share)/moe-workbench/default.moewb; the folder is
    // not created here (open() creates missing parent folders).
    static QString defaultProjectPath();
    static constexpr int kSchemaVersion = 8;
    // PRAGMA application_id of every project file: 'MoEW'.
    static constexpr int kApplicationId = 0x4D6F4557;

    ~ProjectStore();
    ProjectStore(const ProjectStore&) = delete;
    ProjectStore& operator=(const ProjectStore&) = delete;

    QString path() const;
    int schemaVersion() const;
    bool readOnly() const;

    // Config records. Names are unique: a second one is refused with
    // "a config record named X already exists".
    Expected<qint64, StoreError> addConfigRecord(const QString& name, const QJsonObject& json, bool complete);
    Expected<Ok, StoreError> updateConfigRecord(const QString& name, const QJsonObject& json, bool complete);
    QList<ConfigRecordRow> configRecords() const;
    std::optional<ConfigRecordRow> configRecord(const QString& name) const;

    // Clusters and their nodes, written together in one transaction. Names unique.
    Expected<qint64, StoreError> addCluster(const ClusterRow& cluster, const QList<NodeRow>& nodes);
    QList<ClusterRow> clusters() const;
    QList<NodeRow> nodes(qint64 clusterId) const;
    // Refreshed node facts (`moewb cluster check`): for each row, found by address in the
    // cluster, the facts are replaced, and the GPU count too when row.gpus > 0. One
    // transaction: an address that is not a node of the cluster is refused and nothing
    // is written.
    Expected<Ok, StoreError> updateNodeFacts(qint64 clusterId, const QList<NodeRow>& nodes);
    // The cluster's own facts replaced (e.g. its last check).
    Expected<Ok, StoreError> setClusterFacts(qint64 clusterId, const QJsonObject& facts);
    // An edited cluster, in one transaction: name (unique), GPUs per node, identity file and
    // facts from `cluster`; its nodes become `nodes`: a node whose address stays keeps its
    // id and facts (its GPU count is replaced), the others are removed or added.
    Expected<Ok, StoreError> updateCluster(qint64 clusterId, const ClusterRow& cluster, const QList<NodeRow>& nodes);
    // A cluster and its nodes. Refused, naming them, while runs measured on it exist.
    Expected<Ok, StoreError> removeCluster(qint64 clusterId);

    // ONE transaction. progress(fraction in [0,1]) is called from inside it, first
    // right after BEGIN; returning false cancels: rollback, error "cancelled".
    // Run names are unique; the record (and the cluster, when named) must exist.
    // `savedName` (optional) receives the name saved (RunData::automaticNameBase).
    Expected<qint64, StoreError> saveRun(const RunData& run, const std::function<bool(double)>& progress = {},
                                         QString* savedName = nullptr);
    // The same for a run that exists (`moewb import --into`): in ONE transaction its
    // kind, record, cluster, source and environment are replaced and its measurements
    // are replaced by run's; the run keeps its id, its creation time and every link
    // to it. A run that does not exist is refused.
    Expected<qint64, StoreError> replaceRun(const RunData& run, const std::function<bool(double)>& progress = {});
    Expected<Ok, StoreError> removeRun(const QString& name); // with all its measurements
    // Editing runs (ProjectStoreRunEdits.cpp; the window's run menu). Each is ONE
    // transaction and changes nothing when refused.
    // Several runs with all their measurements; a name that is not a run refuses all.
    Expected<Ok, StoreError> removeRuns(const QStringList& names);
    // A new name (the name rules; a taken name is refused). The run keeps its id, data
    // and `updated`; every link follows it: the verdicts' bases name it anew, and probe
    // runs measured from its routing ("pattern_origin" from-run:NAME) name it anew.
    Expected<Ok, StoreError> renameRun(const QString& name, const QString& newName);
    // The run belongs to another config record from now on.
    Expected<Ok, StoreError> moveRun(const QString& name, const QString& recordName);
    // The run's tags (environment key "user_tags": trimmed, without repeats, each
    // following the name rules); an empty list removes them.
    Expected<Ok, StoreError> setRunTags(const QString& name, const QStringList& tags);
    static QStringList runTags(const RunRow& run);
    QList<RunRow> runs() const;
    std::optional<RunRow> run(const QString& name) const;
    // Ordered by bytesPerRank, repeat, iteration.
    QVector<CommSample> commSamples(qint64 runId) const;
    // Ordered by step; an empty name gives every metric (ordered by name, then step).
    QVector<StepMetric> stepMetrics(qint64 runId, const QString& name = {}) const;
    QStringList stepMetricNames(qint64 runId) const;
    // The run's step anatomy from its profiler traces (empty when it has none):
    // rows ordered by step then rank, all-to-all calls by step.
    RunAnatomy runAnatomy(qint64 runId) const;
    // The one-step timeline of `step`, one entry per traced rank (ordered by rank), or
    // of every stored step when `step` is not given. A damaged row is left out with a
    // sentence in *problem (when given).
    QVector<RankStepTimeline> stepTimeline(qint64 runId, std::optional<qint64> step = {},
                                           QString* problem = nullptr) const;
    // Which steps have a stored timeline and what their bounds cut.
    TimelineExtent timelineExtent(qint64 runId) const;
    // Ordered by step, then layer; filters are optional. Decodes the chunks that hold
    // the steps and layer asked for (docs/store.md, "Expert load").
    //
    // Every expert-load reader below checks each row and blob it reads against the
    // format's bounds before it allocates anything for it (ExpertLoadCodec.h, docs/store.md
    // "Reading a project from someone else"). A chunk that fails is left out and named
    // in `problems` (optional; without it, logged): one sentence per chunk with the layer,
    // the steps and why, for the caller to put after the run's name ("the expert load of
    // layer 3, steps 0–255 cannot be read: it claims 2147483647 steps (1 to 256)"). A
    // caller that judges a run must not judge it on what is left.
    QVector<ExpertLoadBlock> expertLoad(qint64 runId, std::optional<qint64> step = {},
                                        std::optional<int> layer = {}, QStringList* problems = nullptr) const;
    // The steps firstStep..lastStep (each bound optional), ordered by step, then layer.
    QVector<ExpertLoadBlock> expertLoadRange(qint64 runId, std::optional<qint64> firstStep,
                                             std::optional<qint64> lastStep, std::optional<int> layer = {},
                                             QStringList* problems = nullptr) const;
    // How many expert-load chunks expertLoad()/expertLoadRange() have decoded in this
    // process, all threads together: what tests count to check that a view reads only
    // the chunks it draws.
    static qint64 expertLoadChunksDecoded();
    // The per-(step, layer) summary written with the counts (sum, max, argmax, busiest
    // EP rank's tokens, dropped tokens), ordered by step, then layer; from firstStep on
    // when given. Reads no counts.
    QVector<ExpertLoadSummaryRow> expertLoadSummary(qint64 runId, std::optional<int> layer = {},
                                                    std::optional<qint64> firstStep = {},
                                                    QStringList* problems = nullptr) const;
    // Each layer's tokens per expert summed over the steps firstStep..lastStep (each
    // bound optional, inclusive): the chunks inside the window from the totals stored
    // beside them (schema version 6), only the chunks its edges cut decoded. The same
    // sums as adding up expertLoadRange(runId, firstStep, lastStep)'s blocks. A chunk
    // whose totals row is missing or damaged is decoded instead. With `cancel` set (from
    // another thread) it stops early and returns nothing. Sums that would pass 2^64 − 1
    // are refused: nothing comes back, and `problems` says so.
    ExpertLoadTotals expertLoadTotals(qint64 runId, std::optional<qint64> firstStep, std::optional<qint64> lastStep,
                                      const std::atomic<bool>* cancel = nullptr,
                                      QStringList* problems = nullptr) const;

    // Thresholds are keyed ("stage1.cv_max"); setThreshold inserts or replaces.
    Expected<Ok, StoreError> setThreshold(const ThresholdRow& t);
    QList<ThresholdRow> thresholds() const;
    std::optional<ThresholdRow> threshold(const QString& key) const;

    // One current verdict per stage; saveVerdict replaces the stage's previous one.
    Expected<Ok, StoreError> saveVerdict(const VerdictRow& v);
    QList<VerdictRow> verdicts() const;
    std::optional<VerdictRow> verdict(int stage) const;

    // Overrides are kept forever (they go into the report); an empty or blank
    // justification is refused.
    Expected<qint64, StoreError> addOverride(const OverrideRow& o);
    QList<OverrideRow> overrides() const;

    // The assessment sheet, replaced as a whole in ONE transaction: every dimension,
    // evidence link and cost row given, nothing else. Refuses (and changes nothing)
    // an empty or repeated dimension key or cost category, a link to a run that does
    // not exist, or a stage outside 1..4.
    Expected<Ok, StoreError> saveAssessment(const AssessmentSheetRow& sheet);
    // Dimensions ordered by key position as saved, evidence in saved order, costs
    // likewise; empty lists when never saved.
    AssessmentSheetRow assessment() const;

    // PRAGMA integrity_check + foreign_key_check: empty when the file is sound.
    Expected<QStringList, StoreError> integrityProblems() const;

private:
    ProjectStore(QString path, QString connectionName);
    Expected<qint64, StoreError> writeRun(const RunData& run, const std::function<bool(double)>& progress,
                                          bool replace, QString* savedName);
    StoreError error(const QString& message) const;
    // The refusal of every write to a read-only project.
    StoreError readOnlyError() const;

    QString m_path;
    QString m_connectionName;
    int m_schemaVersion = 0;
    bool m_readOnly = false;
    // What this store may still decode beyond 64 times the bytes it came from
    // (ProjectStoreExpertLoad.cpp: a bound on decompression bombs of legal shape): data
    // kept for the caller (memory), and bytes inflated at all (time). The readers set
    // both to their allowances on first use.
    struct InflationLeft {
        bool started = false;
        qint64 kept = 0;
        qint64 inflated = 0;
    };
    mutable InflationLeft m_inflationLeft;
};

} // namespace moewb::store
