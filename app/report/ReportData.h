#pragma once
// Everything the PDF report prints, read from the project file and evaluated by
// the stage gates: plain data (QtCore only), so it can be collected in a worker
// thread (it opens its own ProjectStore). ReportWriter lays it out.
#include "assessment/AssessmentSheet.h"
#include "assessment/ProjectEvidence.h"
#include "checks/MisjudgmentChecks.h"
#include "common/Expected.h"
#include "plotspec/PlotSpec.h"
#include "stages/StageEvaluation.h"
#include "stages/StageState.h"
#include "stages/Verdict.h"
#include "store/ProjectStore.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QList>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

namespace moewb::report {

class Report {
    Q_DECLARE_TR_FUNCTIONS(Report)
};

struct ReportError {
    QString file; // the project or the PDF; may be empty
    QString message;
    bool cancelled = false;
    // "<file>: <message>" (just the message when no file is known).
    QString text() const;
};

// A table: headers, relative column widths (any positive numbers), rows of text.
struct ReportTable {
    QString caption;
    QStringList headers;
    QList<double> widths;
    QList<QStringList> rows;
};

// A part of a chapter under its own heading, after the chapter's results (stage 3:
// each run's step anatomy): sentences, then plots, then tables.
struct ReportSubsection {
    QString title;
    QStringList paragraphs;
    QList<plots::PlotSpec> plots;
    QList<ReportTable> tables;
};

struct StageSection {
    int stage = 0;
    QString title;                 // "Stage 1 — communication baseline"
    QString purpose;               // one sentence: what the stage decides
    bool hasData = false;          // false: noData says why, plainly
    QString noData;
    QString lockReason;            // non-empty when the stage is locked (stages::lockReason): "locked"
    QStringList inputRuns;         // "name (kind, cluster)"
    QList<ReportTable> keyTables; // the chapter's deciding table(s), shown after the verdict and plots
    QList<ReportTable> tables;    // the full tables, in the appendix
    QList<plots::PlotSpec> plots;
    // The gate's verdict on the current data, as `moewb stage N` gives it (a locked
    // stage: what the gate would say; its status is "locked", statusToken()).
    std::optional<stages::Verdict> verdict;
    stages::StageStatus saved;                 // the saved verdict, its override, new data since
    // Where the stage stands, as the window and `moewb status` say it (one function:
    // stages::describeStageState over `saved`).
    stages::StageStateText state;
    std::optional<store::VerdictRow> recorded; // the verdict saved in the project
    QList<store::OverrideRow> overrides;       // of this stage
    QStringList remarks;                       // staleness, unmatched sizes, ...
    QStringList applicability;                 // stage 4
    QList<ReportSubsection> subsections;       // stage 3: each run's step anatomy (ReportAnatomy.h)
    bool locked() const { return !lockReason.isEmpty(); }
    // The state's verdict in one word: "pass", "stop" (also when overridden),
    // "not_ready", "stale", "not_evaluated" or "locked".
    QString statusToken() const;
    bool overridden() const { return saved.kind == stages::StageStatus::Kind::Overridden; }
    // The state's title: "PASS", "STOP — OVERRIDDEN", "LOCKED", … (translated).
    QString statusTitle() const;
};

struct ClusterSummary {
    store::ClusterRow cluster;
    int nodes = 0;
    int gpus = 0;
};

struct ReportData {
    QString projectPath;
    QString projectName; // file name without .moewb
    // SHA-256 (first 16 hex digits) over the project's content: records, runs with their
    // fingerprints, thresholds, verdicts, overrides. The report names the project by
    // this and its name, never by its path.
    QString contentHash;
    QDateTime generated; // UTC
    QString toolVersion; // MOEWB_VERSION
    int schemaVersion = 0;
    bool demo = false;
    // The reference evaluation measured on this computer (app/reference): its banner; empty otherwise.
    QString referenceBanner;
    QList<ClusterSummary> clusters;
    QList<store::ConfigRecordRow> records;
    QList<store::RunRow> runs;
    QList<StageSection> stages; // always four
    QList<checks::MisjudgmentWarning> warnings;
    QList<store::ThresholdRow> thresholds;
    QList<stages::ThresholdUse> thresholdDefaults; // keys only the gates know
    QList<store::OverrideRow> overrides;
    assessment::Sheet sheet;
    // What the project shows for each of the sheet's dimensions, in its order.
    QList<assessment::ProjectEvidence> projectEvidence;
};

// Reads the project (MustExist) and evaluates each stage. progress(fraction in
// [0,1], what) may return false to cancel (error with cancelled = true).
Expected<ReportData, ReportError> collectReportData(const QString& projectPath,
                                                   const std::function<bool(double, QString)>& progress = {});

// A report names at most this many runs in its runs table, and gives the environment of
// at most kAppendixRuns: a project of 100,000 runs would otherwise print ten thousand
// pages of run lists.
inline constexpr qsizetype kListedRuns = 200;
inline constexpr qsizetype kAppendixRuns = 50;
// The runs the report names: every run of a project with at most `cap`; of a larger one,
// the runs the stages' saved verdicts were decided on, then the newest, up to `cap` —
// in the project's order.
QList<store::RunRow> runsToList(const ReportData& d, qsizetype cap);

// "12.35 GB/s"-style helpers used by the tables (shared with the tests' wording).
QString recordSummary(const QJsonObject& record);

} // namespace moewb::report
