// MainWindow, part three: long work and leaving — the import dialog and files dropped
// on the window, the report export, closing while work runs.
#include "MainWindow.h"

#include "ImportDialog.h"
#include "store/ProjectStore.h"

#ifdef MOEWB_HAVE_REPORT
#include "report/ReportExport.h"
#endif

#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QMimeData>
#include <QProgressDialog>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QUrl>

#include <algorithm>

namespace moewb::gui {

ImportDialog* MainWindow::openImportDialog(const QString& file) {
    return openImportDialog(file.isEmpty() ? QStringList() : QStringList{file});
}

ImportDialog* MainWindow::openImportDialog(const QStringList& paths) {
    if (!m_project) {
        statusBar()->showMessage(tr("Open a project first: every import goes into a project's config record."));
        return nullptr;
    }
    if (!m_importDialog) {
        m_importDialog = new ImportDialog(m_project.get(), this);
        m_importDialog->setAttribute(Qt::WA_DeleteOnClose);
        connect(m_importDialog, &ImportDialog::imported, this, [this](const QString& run) {
            reload();
            statusBar()->showMessage(tr("Imported run %1.").arg(run), 10000);
        });
        // The record of what is selected: a run's record, or the record shown.
        if (QTreeWidgetItem* item = m_browser->currentItem()) {
            const auto kind = ProjectBrowser::ItemKind(item->data(0, ProjectBrowser::KindRole).toInt());
            const QString name = item->data(0, ProjectBrowser::NameRole).toString();
            if (kind == ProjectBrowser::ItemKind::Run) {
                if (const auto run = m_project->run(name))
                    m_importDialog->setRecord(run->recordName);
            } else if (kind == ProjectBrowser::ItemKind::Record) {
                m_importDialog->setRecord(name);
            }
        }
    }
    if (!paths.isEmpty())
        m_importDialog->addPaths(paths);
    m_importDialog->show();
    m_importDialog->raise();
    m_importDialog->activateWindow();
    return m_importDialog;
}

namespace {
// The local files and folders a drag carries; empty when it carries anything else.
QStringList droppedPaths(const QMimeData* mime) {
    QStringList paths;
    if (!mime || !mime->hasUrls())
        return paths;
    for (const QUrl& url : mime->urls()) {
        if (!url.isLocalFile() || url.toLocalFile().isEmpty())
            return {};
        paths << url.toLocalFile();
    }
    return paths;
}
} // namespace

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    if (!droppedPaths(event->mimeData()).isEmpty())
        event->acceptProposedAction();
}

void MainWindow::dragMoveEvent(QDragMoveEvent* event) {
    if (!droppedPaths(event->mimeData()).isEmpty())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    const QStringList paths = droppedPaths(event->mimeData());
    if (paths.isEmpty())
        return;
    event->acceptProposedAction();
    openImportDialog(paths); // without a project: says so in the status bar
}

bool MainWindow::exportReport(const QString& pdfPath) {
#ifdef MOEWB_HAVE_REPORT
    if (!m_project || m_reportRunning)
        return false;
    auto* job = new report::ReportExportJob(m_project->path(), pdfPath, {}, this);
    m_reportJob = job;
    m_reportRunning = true;
    auto* progress = new QProgressDialog(tr("Exporting the report…"), tr("Cancel"), 0, 1000, this);
    progress->setObjectName(QStringLiteral("reportProgress"));
    progress->setWindowTitle(tr("Export report"));
    progress->setMinimumDuration(0);
    progress->setAutoClose(false);
    progress->setAutoReset(false);
    progress->setAttribute(Qt::WA_DeleteOnClose);
    connect(job, &report::ReportExportJob::progress, progress, [progress](double fraction, const QString& what) {
        progress->setValue(int(fraction * 1000));
        progress->setLabelText(what);
    });
    connect(progress, &QProgressDialog::canceled, job, &report::ReportExportJob::cancel);
    connect(job, &report::ReportExportJob::finished, this,
            [this, progress, pdfPath](bool ok, const QString& error, bool cancelled) {
                m_reportRunning = false;
                progress->close();
                const QString message = ok ? tr("Report written to %1.").arg(QDir::toNativeSeparators(pdfPath))
                                           : cancelled ? tr("Report export cancelled; no file was written.")
                                                       : tr("Report not written: %1").arg(error);
                statusBar()->showMessage(message, 15000);
                emit reportExported(ok, ok ? pdfPath : message);
            });
    progress->show();
    job->start();
    return true;
#else
    Q_UNUSED(pdfPath);
    return false;
#endif
}

QStringList MainWindow::runningWork() const {
    QStringList work;
#ifdef MOEWB_HAVE_REPORT
    if (m_reportRunning)
        work << tr("The report is being exported.");
#endif
    if (m_importDialog && m_importDialog->isRunning())
        work << tr("An import is running.");
    if (m_demoThread)
        work << tr("The demo project is being written.");
    if (m_cleanThread)
        work << tr("A clean copy of a project is being written.");
    return work;
}

void MainWindow::closeEvent(QCloseEvent* event) {
    const QStringList work = runningWork();
    if (!work.isEmpty()) {
        if (!m_confirmClose(work.join(QLatin1Char('\n')))) {
            event->ignore();
            return;
        }
        // Cancel, then wait: the import rolls back its transaction, the demo writer
        // finishes its temp file and renames it (or leaves nothing).
        if (m_importDialog && m_importDialog->isRunning())
            m_importDialog->cancelImport();
        if (m_importDialog)
            m_importDialog->reject();
        if (m_demoThread)
            m_demoThread->wait();
        if (m_cleanThread)
            m_cleanThread->wait();
#ifdef MOEWB_HAVE_REPORT
        // The export paints on this thread between events; cancel and let it finish.
        if (m_reportJob) {
            QMetaObject::invokeMethod(m_reportJob.data(), "cancel");
            while (m_reportRunning)
                QApplication::processEvents(QEventLoop::AllEvents, 50);
        }
#endif
    }
    QSettings settings;
    settings.setValue(QStringLiteral("mainWindow/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("mainWindow/state"), saveState());
    settings.setValue(QStringLiteral("mainWindow/splitter"), m_splitter->saveState());
    event->accept();
}

} // namespace moewb::gui
