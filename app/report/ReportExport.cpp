#include "ReportExport.h"

#include <QCoreApplication>
#include <QFutureWatcher>
#include <optional>
#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>

namespace moewb::report {

ReportExportJob::ReportExportJob(QString projectPath, QString pdfPath, ReportOptions options, QObject* parent)
    : QObject(parent), m_projectPath(std::move(projectPath)), m_pdfPath(std::move(pdfPath)),
      m_options(options) {}

void ReportExportJob::cancel() {
    m_cancel.storeRelaxed(1);
}

void ReportExportJob::start() {
    if (m_running)
        return;
    m_running = true;
    // QFuture wants a default-constructible result.
    struct Result {
        std::optional<ReportData> data;
        ReportError error;
    };
    auto* watcher = new QFutureWatcher<Result>(this);
    QPointer<ReportExportJob> self(this);
    connect(watcher, &QFutureWatcher<Result>::finished, this, [this, watcher]() {
        const Result result = watcher->result();
        watcher->deleteLater();
        if (!result.data) {
            m_running = false;
            emit finished(false, result.error.text(), result.error.cancelled);
            deleteLater();
            return;
        }
        paint(*result.data);
    });
    const QString path = m_projectPath;
    watcher->setFuture(QtConcurrent::run([this, path, self]() -> Result {
        auto collected = collectReportData(path, [this, self](double fraction, const QString& what) {
            if (m_cancel.loadRelaxed())
                return false;
            // Queued to the job's thread; dropped when the job is gone.
            QMetaObject::invokeMethod(
                self.data(),
                [self, fraction, what]() {
                    if (self)
                        emit self->progress(0.3 * fraction, what);
                },
                Qt::QueuedConnection);
            return true;
        });
        if (!collected)
            return Result{std::nullopt, collected.error()};
        return Result{std::move(*collected), {}};
    }));
}

void ReportExportJob::paint(const ReportData& data) {
    auto painted = paintReport(data, m_pdfPath, m_options, [this](double fraction, const QString& what) {
        emit progress(0.3 + 0.7 * fraction, what);
        // Keep the window (and its Cancel button) alive between pages.
        QCoreApplication::processEvents();
        return !m_cancel.loadRelaxed();
    });
    m_running = false;
    if (painted)
        emit finished(true, QString(), false);
    else
        emit finished(false, painted.error().text(), painted.error().cancelled);
    deleteLater();
}

} // namespace moewb::report
