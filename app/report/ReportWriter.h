#pragma once
// The evaluation report as a PDF (QPdfWriter, A4, vector text and plots): title
// page, contents with page numbers, config records, runs, each stage (inputs,
// tables, plots, verdict with reasons, thresholds with their source, overrides),
// misjudgment warnings, thresholds, overrides, the applicability statement, the
// assessment sheet and cost estimate, and an appendix with each run's raw
// environment. docs/report.md.
//
// Threading: plots are drawn through QCustomPlot (app/plots), so painting needs a
// QApplication (QT_QPA_PLATFORM=offscreen is fine) and runs on its thread.
// collectReportData (ReportData.h) is worker-safe; ReportExportJob
// (ReportExport.h) does the reading in a worker and the painting on the GUI thread.
#include "ReportData.h"

#include "common/Expected.h"

#include <QString>

#include <functional>

namespace moewb::report {

struct ReportOptions {
    bool includePlots = true; // false: a framed placeholder where each plot goes (same pages)
    int resolutionDpi = 300;
};

// Progress: fraction in [0,1] and what is being done; return false to cancel.
using ReportProgress = std::function<bool(double, QString)>;

// Paints `data` into pdfPath. Writes a temporary file beside pdfPath and renames
// it into place at the end: a failure or a cancel leaves no file (and an existing
// pdfPath untouched). Returns the page count.
Expected<int, ReportError> paintReport(const ReportData& data, const QString& pdfPath,
                                       const ReportOptions& options, const ReportProgress& progress = {});

// collectReportData + paintReport: the whole export on the calling thread.
Expected<Ok, ReportError> writeReport(const QString& projectPath, const QString& pdfPath,
                                      const ReportOptions& options, const ReportProgress& progress = {});

// The section titles in report order, as the contents lists them (tests look for
// each in the PDF's text).
QStringList sectionTitles();

} // namespace moewb::report
