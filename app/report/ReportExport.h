#pragma once
// Exporting the report from the window without blocking it: the project is read
// and evaluated in a worker thread (its own ProjectStore), then the pages are
// painted on the GUI thread (plots go through QCustomPlot, a widget), page by page
// with the event loop running, so a progress dialog stays live and Cancel works.
//
//   auto* job = new moewb::report::ReportExportJob(projectPath, pdfPath, {}, this);
//   connect(job, &ReportExportJob::progress, dialog, ...);          // (fraction, what)
//   connect(dialog, &QProgressDialog::canceled, job, &ReportExportJob::cancel);
//   connect(job, &ReportExportJob::finished, this, [](bool ok, const QString& error) { ... });
//   job->start();   // the job deletes itself after finished()
#include "ReportWriter.h"

#include <QAtomicInt>
#include <QObject>
#include <QString>

namespace moewb::report {

class ReportExportJob : public QObject {
    Q_OBJECT
public:
    ReportExportJob(QString projectPath, QString pdfPath, ReportOptions options = {}, QObject* parent = nullptr);

    void start();
    bool isRunning() const { return m_running; }

public slots:
    // Stops at the next step; finished(false, "cancelled") follows and no file is left.
    void cancel();

signals:
    void progress(double fraction, const QString& what);
    // ok: the PDF is in place. On failure `error` names the file and the reason;
    // `cancelled` says whether the user asked for it.
    void finished(bool ok, const QString& error, bool cancelled);

private:
    void paint(const ReportData& data);

    QString m_projectPath;
    QString m_pdfPath;
    ReportOptions m_options;
    QAtomicInt m_cancel = 0;
    bool m_running = false;
};

} // namespace moewb::report
