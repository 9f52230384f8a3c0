// MainWindow, part two: opening, creating, closing and reloading a project (the demo,
// the recent list, the reference banner, a clean copy of a refused file).
#include "MainWindow.h"

#include "AssessmentView.h"
#include "ClustersPage.h"
#include "ProjectOverview.h"
#include "RecentProjects.h"
#include "RecordEditor.h"
#include "ReferenceDialog.h"
#include "ReferenceMarker.h"
#include "RunActions.h"
#include "RunsView.h"
#include "StageFrame.h"
#include "StartScreen.h"
#include "WarningsBar.h"
#include "Worker.h"
#include "store/ProjectClean.h"
#include "store/ProjectStore.h"

#ifdef MOEWB_HAVE_DEMO
#include "demo/DemoProject.h"
#endif
#ifdef MOEWB_HAVE_STAGE_PAGES
#include "stages/StagePage.h"
#endif
#ifdef MOEWB_HAVE_LEARN_PAGES
#include "learn/LearnPages.h"
#endif

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QStackedWidget>
#include <QStatusBar>

#include <algorithm>

namespace moewb::gui {

void MainWindow::rebuildRecentMenu() {
    m_recentMenu->clear();
    const QStringList paths = RecentProjects::list();
    if (paths.isEmpty())
        m_recentMenu->addAction(tr("(none yet)"))->setEnabled(false);
    for (const QString& path : paths) {
        const bool exists = QFileInfo::exists(path);
        QAction* a = m_recentMenu->addAction(exists ? QDir::toNativeSeparators(path)
                                                    : tr("%1 — missing").arg(QDir::toNativeSeparators(path)));
        a->setEnabled(exists);
        connect(a, &QAction::triggered, this, [this, path] {
            QString error;
            if (!openProject(path, false, &error))
                showOpenFailure(tr("Open project"), error);
        });
    }
}

bool MainWindow::demoAvailable() const {
#ifdef MOEWB_HAVE_DEMO
    return true;
#else
    return false;
#endif
}

bool MainWindow::openDemo() {
#ifdef MOEWB_HAVE_DEMO
    if (m_demoThread)
        return true; // already being written; it opens when done
    const QString path = demo::defaultDemoPath();
    if (QFileInfo::exists(path)) {
        QString error;
        const bool ok = openProject(path, false, &error);
        emit demoOpened(ok, ok ? path : error);
        if (!ok)
            showOpenFailure(tr("Open the demo"), error);
        return ok;
    }
    m_start->setDemoBusy(true);
    statusBar()->showMessage(tr("Writing the demo project to %1…").arg(QDir::toNativeSeparators(path)));
    QApplication::setOverrideCursor(Qt::BusyCursor);
    m_demoThread = runInWorker<QString>(
        this,
        [path]() -> QString {
            auto written = demo::writeDemoProject(path);
            return written ? QString() : written.error().text();
        },
        [this, path](QString error) {
            QApplication::restoreOverrideCursor();
            m_start->setDemoBusy(false);
            m_demoThread = nullptr;
            if (error.isEmpty() && !openProject(path, false, &error))
                error = error.isEmpty() ? tr("The demo could not be opened.") : error;
            emit demoOpened(error.isEmpty(), error.isEmpty() ? path : error);
            if (!error.isEmpty()) {
                statusBar()->showMessage(error);
                showOpenFailure(tr("Open the demo"), error);
            }
        });
    return true;
#else
    return false;
#endif
}

bool MainWindow::openProject(const QString& path, bool create, QString* error) {
    if (!create && !QFileInfo::exists(path)) {
        const QString message = tr("No project file at %1.").arg(path);
        if (error)
            *error = message;
        statusBar()->showMessage(message);
        return false;
    }
    if (create)
        QDir().mkpath(QFileInfo(path).absolutePath());
    auto opened = store::ProjectStore::open(path, create ? store::OpenMode::CreateIfMissing : store::OpenMode::MustExist);
    if (!opened) {
        // A file refused for its schema (objects moewb did not create): showOpenFailure
        // offers the clean copy. The current project stays open.
        m_refusedForeignSchema =
            store::isForeignSchemaRefusal(opened.error()) ? QFileInfo(path).absoluteFilePath() : QString();
        if (error)
            *error = opened.error().text();
        statusBar()->showMessage(opened.error().text());
        return false;
    }
    m_refusedForeignSchema.clear();
    // The pages let go of the old project before it closes.
    m_recordEditor->setProject(nullptr);
    m_clustersPage->setProject(nullptr);
    m_runActions->setProject(nullptr);
    for (StageFrame* frame : m_stageFrames) {
        Q_UNUSED(frame);
#ifdef MOEWB_HAVE_STAGE_PAGES
        static_cast<StagePage*>(frame->page())->setProject(nullptr);
#endif
    }
    m_project = std::move(opened.value());
#ifdef MOEWB_HAVE_DEMO
    m_isDemo = demo::isDemoProject(*m_project);
#else
    m_isDemo = false;
#endif
    RecentProjects::add(path);
    m_start->refresh();
    updateTitle();
    m_browser->clear(); // a new project starts at its overview
    reload();
    m_top->setCurrentWidget(m_workspace);
    return true;
}

void MainWindow::closeProject() {
    for (StageFrame* frame : m_stageFrames) {
        Q_UNUSED(frame);
#ifdef MOEWB_HAVE_STAGE_PAGES
        static_cast<StagePage*>(frame->page())->setProject(nullptr);
#endif
    }
#ifdef MOEWB_HAVE_LEARN_PAGES
    static_cast<CostExplorerPage*>(m_costPage)->setProject(nullptr);
    static_cast<RoutingLabPage*>(m_routingPage)->setProject(nullptr);
#endif
    m_recordEditor->setProject(nullptr);
    m_clustersPage->setProject(nullptr);
    m_runActions->setProject(nullptr);
    static_cast<AssessmentView*>(m_assessmentPage)->showAssessment(nullptr);
    m_browser->showProject(nullptr);
    m_project.reset();
    m_isDemo = false;
    m_start->refresh();
    m_top->setCurrentWidget(m_start);
    updateTitle();
}

void MainWindow::updateTitle() {
    const bool open = m_project != nullptr;
    const QString file = open ? QFileInfo(m_project->path()).fileName() : QString();
    setWindowFilePath(open ? m_project->path() : QString());
    // A project on read-only media opens read-only (ProjectStore::open); say so where the name is.
    const bool readOnly = open && m_project->readOnly();
    setWindowTitle(open ? (m_isDemo     ? tr("%1 [DEMO] — MoE Workbench")
                           : readOnly ? tr("%1 (read-only) — MoE Workbench")
                                      : tr("%1 — MoE Workbench"))
                              .arg(file)
                        : tr("MoE Workbench"));
    const QString shownPath = open ? QDir::toNativeSeparators(QFileInfo(m_project->path()).absoluteFilePath()) : QString();
    m_projectLabel->setText(readOnly ? tr("%1 — read-only").arg(shownPath) : shownPath);
    m_demoBanner->setVisible(m_isDemo);
    m_demoBadge->setVisible(m_isDemo);
    const auto reference = open ? reference::referenceInfo(*m_project) : std::nullopt;
    m_referenceBanner->setText(reference ? reference::bannerText(*reference) : QString());
    m_referenceBanner->setVisible(reference.has_value());
}

QString MainWindow::referenceBannerText() const {
    return m_referenceBanner->text();
}

ReferenceDialog* MainWindow::openReferenceDialog() {
    if (m_referenceDialog) {
        m_referenceDialog->raise();
        m_referenceDialog->activateWindow();
        return m_referenceDialog;
    }
    auto* dialog = new ReferenceDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &ReferenceDialog::finishedProject, this, [this](const QString& path) {
        QString error;
        if (!openProject(path, false, &error))
            showOpenFailure(tr("Open project"), error);
    });
    m_referenceDialog = dialog;
    dialog->show();
    return dialog;
}

void MainWindow::reload() {
    store::ProjectStore* p = m_project.get();
    if (!p) {
        closeProject();
        return;
    }
    m_overview->showProject(p);
    m_runActions->setProject(p);
    m_runsView->showRuns(p);
    // Unsaved edits in the record editor survive a reload of the same project.
    if (!(m_recordEditor->isModified() && m_recordEditor->project() == p)) {
        const QString record = m_recordEditor->project() == p ? m_recordEditor->recordName() : QString();
        m_recordEditor->setProject(p);
        if (!record.isEmpty())
            m_recordEditor->showRecord(record);
    }
    for (StageFrame* frame : m_stageFrames) {
        Q_UNUSED(frame);
#ifdef MOEWB_HAVE_STAGE_PAGES
        auto* page = static_cast<StagePage*>(frame->page());
        page->setProject(p);
        page->refresh();
#endif
    }
#ifdef MOEWB_HAVE_LEARN_PAGES
    static_cast<CostExplorerPage*>(m_costPage)->setProject(p);
    static_cast<RoutingLabPage*>(m_routingPage)->setProject(p);
#endif
    static_cast<AssessmentView*>(m_assessmentPage)->showAssessment(p);
    m_clustersPage->setProject(p);
    m_warnings->setProject(p);
    // Last: rebuilding the browser re-shows the chosen page.
    m_browser->showProject(p);
    updateStageFrames();
}

void MainWindow::onProjectModified() {
    if (!m_project)
        return;
    m_browser->refreshStages();
    updateStageFrames();
    m_warnings->setProject(m_project.get());
    m_overview->showProject(m_project.get());
#ifdef MOEWB_HAVE_STAGE_PAGES
    // Another stage's verdict changes what the others may do (the lock, staleness).
    auto* sender = qobject_cast<StagePage*>(QObject::sender());
    for (StageFrame* frame : m_stageFrames)
        if (frame->page() != sender)
            static_cast<StagePage*>(frame->page())->refresh();
#endif
}

void MainWindow::updateStageFrames() {
    if (!m_project)
        return;
    for (int stage = 1; stage <= 4; ++stage)
        m_stageFrames[stage - 1]->setState(m_browser->stageStateOf(stage));
}

void MainWindow::newProject() {
    const QString path = QFileDialog::getSaveFileName(this, tr("New evaluation"), QDir::homePath(),
                                                      tr("MoE Workbench projects (*.moewb)"));
    if (path.isEmpty())
        return;
    const QString file = path.endsWith(QLatin1String(".moewb")) ? path : path + QStringLiteral(".moewb");
    if (QFileInfo::exists(file)) {
        QMessageBox::warning(this, tr("New evaluation"), tr("%1 already exists; choose another name.").arg(file));
        return;
    }
    QString error;
    if (!openProject(file, true, &error))
        QMessageBox::warning(this, tr("New evaluation"), error);
}

void MainWindow::openProjectDialog() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open project"), QDir::homePath(),
                                                      tr("MoE Workbench projects (*.moewb)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!openProject(path, false, &error))
        showOpenFailure(tr("Open project"), error);
}

void MainWindow::showOpenFailure(const QString& title, const QString& error) {
    const QString refused = m_refusedForeignSchema;
    if (refused.isEmpty()) {
        QMessageBox::warning(this, title, error);
        return;
    }
    // Refused for its schema: nothing in it ran; offer a copy with only what moewb knows.
    QMessageBox box(QMessageBox::Warning, title, error, QMessageBox::NoButton, this);
    box.setObjectName(QStringLiteral("foreignSchemaBox"));
    box.setInformativeText(tr("Nothing stored in it was run. A clean copy is a new project with moewb's own tables "
                              "and their rows, each checked; what moewb did not create is left out, and this file "
                              "is not changed."));
    QPushButton* clean = box.addButton(tr("Save a clean copy…"), QMessageBox::AcceptRole);
    clean->setObjectName(QStringLiteral("saveCleanCopy"));
    box.addButton(QMessageBox::Close);
    box.setDefaultButton(clean);
    box.exec();
    if (box.clickedButton() != clean)
        return;
    const QFileInfo info(refused);
    QString suggested = info.dir().filePath(info.completeBaseName() + QStringLiteral("-clean.moewb"));
    for (int k = 2; QFileInfo::exists(suggested); ++k)
        suggested = info.dir().filePath(info.completeBaseName() + QStringLiteral("-clean-%1.moewb").arg(k));
    QString target = m_chooseCleanTarget ? m_chooseCleanTarget(suggested)
                                         : QFileDialog::getSaveFileName(this, tr("Save a clean copy"), suggested,
                                                                        tr("MoE Workbench projects (*.moewb)"));
    if (target.isEmpty())
        return;
    if (!target.endsWith(QLatin1String(".moewb")))
        target += QStringLiteral(".moewb");
    saveCleanCopy(refused, target);
}

void MainWindow::saveCleanCopy(const QString& source, const QString& target) {
    if (m_cleanThread)
        return; // one at a time
    struct Outcome {
        QString error;   // empty: written
        QString summary; // what was kept and left out
    };
    statusBar()->showMessage(tr("Writing a clean copy to %1…").arg(QDir::toNativeSeparators(target)));
    QApplication::setOverrideCursor(Qt::BusyCursor);
    m_cleanThread = runInWorker<Outcome>(
        this,
        [source, target]() -> Outcome {
            auto cleaned = store::cleanProjectCopy(source, target);
            if (!cleaned)
                return {cleaned.error().text(), {}};
            const store::CleanReport& r = cleaned.value();
            QStringList lines;
            lines << tr("%n row(s) copied", "", int(std::min<qint64>(r.copied(), INT_MAX))) + QStringLiteral(", ") +
                         tr("%n skipped.", "", int(std::min<qint64>(r.skipped(), INT_MAX)));
            for (const QString& what : r.leftOut.mid(0, 8))
                lines << tr("Left out: %1").arg(what);
            if (r.leftOut.size() > 8)
                lines << tr("… and %n more left out", "", int(r.leftOut.size() - 8));
            for (const store::CleanTable& t : r.tables) {
                if (!t.notRead.isEmpty())
                    lines << tr("Table %1 not read: %2").arg(t.table, t.notRead);
                else if (t.skipped > 0)
                    lines << tr("Table %1: %n row(s) skipped", "", int(std::min<qint64>(t.skipped, INT_MAX))).arg(t.table) +
                                 (t.skippedRows.isEmpty() ? QString() : QStringLiteral(" (") + t.skippedRows.first() +
                                                                            (t.skipped > 1 ? QStringLiteral(", …)") : QStringLiteral(")")));
            }
            return {{}, lines.join(QLatin1Char('\n'))};
        },
        [this, target](Outcome outcome) {
            QApplication::restoreOverrideCursor();
            m_cleanThread = nullptr;
            emit cleanCopyWritten(outcome.error.isEmpty(), outcome.error.isEmpty() ? target : outcome.error);
            if (!outcome.error.isEmpty()) {
                statusBar()->showMessage(outcome.error);
                QMessageBox::warning(this, tr("Save a clean copy"), outcome.error);
                return;
            }
            statusBar()->showMessage(tr("Wrote the clean copy %1.").arg(QDir::toNativeSeparators(target)));
            QMessageBox box(QMessageBox::Information, tr("Save a clean copy"),
                            tr("Wrote the clean copy %1.").arg(QDir::toNativeSeparators(target)), QMessageBox::NoButton,
                            this);
            box.setObjectName(QStringLiteral("cleanCopyWrittenBox"));
            box.setInformativeText(outcome.summary);
            QPushButton* open = box.addButton(tr("Open the clean copy"), QMessageBox::AcceptRole);
            open->setObjectName(QStringLiteral("openCleanCopy"));
            box.addButton(QMessageBox::Close);
            box.setDefaultButton(open);
            box.exec();
            if (box.clickedButton() == open) {
                QString error;
                if (!openProject(target, false, &error))
                    showOpenFailure(tr("Open project"), error);
            }
        });
}

} // namespace moewb::gui
