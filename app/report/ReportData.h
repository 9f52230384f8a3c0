#pragma once
// Everything the PDF report prints, read from the project file and evaluated by
// the stage gates: plain data (QtCore only), so it can be collected in a worker
// thread (it opens its own ProjectStore). ReportWriter lays it out.
#include "assessment/AssessmentSheet.h"
#include "checks/MisjudgmentChecks.h"
#include "common/Expected.h"
#include "plotspec/PlotSpec.h"
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

struct StageSection {
    int stage = 0;
    QString title;                 // "Stage 1 — communication baseline"
    QString purpose;               // one sentence: what the stage decides
    bool hasData = false;          // false: noData says why, plainly
    QString noData;
    QString lockReason;            // non-empty when the gate is locked by an earlier stage
    QStringList inputRuns;         // "name (kind, cluster)"
    QList<ReportTable> tables;
    QList<plots::PlotSpec> plots;
    std::optional<stages::Verdict> verdict;    // the gate's verdict on the current data
    std::optional<store::VerdictRow> recorded; // the verdict saved in the project
    QList<store::OverrideRow> overrides;       // of this stage
    QStringList remarks;                       // staleness, unmatched sizes, ...
    QStringList applicability;                 // stage 4
};

struct ClusterSummary {
    store::ClusterRow cluster;
    int nodes = 0;
    int gpus = 0;
};

struct ReportData {
    QString projectPath;
    QString projectName; // file name without .moewb
    QDateTime generated; // UTC
    QString toolVersion; // MOEWB_VERSION
    int schemaVersion = 0;
    bool demo = false;
    QList<ClusterSummary> clusters;
    QList<store::ConfigRecordRow> records;
    QList<store::RunRow> runs;
    QList<StageSection> stages; // always four
    QList<checks::MisjudgmentWarning> warnings;
    QList<store::ThresholdRow> thresholds;
    QList<stages::ThresholdUse> thresholdDefaults; // keys only the gates know
    QList<store::OverrideRow> overrides;
    assessment::Sheet sheet;
};

// Reads the project (MustExist) and evaluates each stage. progress(fraction in
// [0,1], what) may return false to cancel (error with cancelled = true).
Expected<ReportData, ReportError> collectReportData(const QString& projectPath,
                                                   const std::function<bool(double, QString)>& progress = {});

// "12.35 GB/s"-style helpers used by the tables (shared with the tests' wording).
QString recordSummary(const QJsonObject& record);

} // namespace moewb::report
