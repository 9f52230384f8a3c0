// MainWindow: the pages and menus, the Help windows, and which page shows what
// (MainWindowProject.cpp opens and closes projects; MainWindowWork.cpp runs long work).
#include "MainWindow.h"

#include "AssessmentView.h"
#include "ClustersPage.h"
#include "CompareRunsView.h"
#include "PreferencesDialog.h"
#include "ProjectOverview.h"
#include "RecordEditor.h"
#include "ReferenceDialog.h"
#include "RunActions.h"
#include "RunPage.h"
#include "RunsView.h"
#include "StageFrame.h"
#include "StartScreen.h"
#include "WarningsBar.h"
#include "store/ProjectStore.h"

#ifdef MOEWB_HAVE_STAGE_PAGES
#include "stages/StagePage.h"
#endif
#ifdef MOEWB_HAVE_LEARN_PAGES
#include "learn/LearnPages.h"
#endif

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QCoreApplication>
#include <QFile>
#include <QDialog>
#include <QScreen>
#include <QDialogButtonBox>
#include <QTextBrowser>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QVBoxLayout>

#include <algorithm>

namespace moewb::gui {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setObjectName(QStringLiteral("mainWindow"));
    m_confirmClose = [this](const QString& work) {
        return QMessageBox::question(this, tr("Quit while work is running?"),
                                     tr("%1\n\nQuit anyway? The work is cancelled; nothing half-done is stored.")
                                         .arg(work),
                                     QMessageBox::Yes | QMessageBox::No, QMessageBox::No) == QMessageBox::Yes;
    };
    buildPages();
    buildMenus();
    setAcceptDrops(true); // files dropped on the window are imported (dropEvent)
    QSettings settings;
    if (!restoreGeometry(settings.value(QStringLiteral("mainWindow/geometry")).toByteArray()))
        resize(defaultWindowSize(screen() ? screen()->availableGeometry().size() : QSize()));
    restoreState(settings.value(QStringLiteral("mainWindow/state")).toByteArray());
    if (!m_splitter->restoreState(settings.value(QStringLiteral("mainWindow/splitter")).toByteArray()))
        m_splitter->setSizes({300, 980});
    closeProject();
}

MainWindow::~MainWindow() {
    // Pages that run work of their own stop it in their destructors; the demo writer
    // must finish before the process may exit (it renames its temp file at the end).
    if (m_demoThread)
        m_demoThread->wait();
    if (m_cleanThread)
        m_cleanThread->wait();
}

void MainWindow::buildPages() {
    m_top = new QStackedWidget(this);
    setCentralWidget(m_top);
    m_start = new StartScreen(m_top);
    m_top->addWidget(m_start);
    connect(m_start, &StartScreen::newRequested, this, &MainWindow::newProject);
    connect(m_start, &StartScreen::openRequested, this, &MainWindow::openProjectDialog);
    connect(m_start, &StartScreen::demoRequested, this, [this] { openDemo(); });
    connect(m_start, &StartScreen::referenceRequested, this, [this] { openReferenceDialog(); });
    connect(m_start, &StartScreen::openPath, this, [this](const QString& path) {
        QString error;
        if (!openProject(path, false, &error))
            showOpenFailure(tr("Open project"), error);
    });
    m_start->setDemoAvailable(demoAvailable());

    m_workspace = new QWidget(m_top);
    auto* workLayout = new QVBoxLayout(m_workspace);
    workLayout->setContentsMargins(0, 0, 0, 0);
    workLayout->setSpacing(0);
    m_demoBanner = new QLabel(m_workspace);
    m_demoBanner->setObjectName(QStringLiteral("demoBanner"));
    m_demoBanner->setText(tr("DEMO — this project holds synthetic data made up to show every page; it measures "
                             "nothing. Start your own with File → New evaluation."));
    m_demoBanner->setWordWrap(true);
    m_demoBanner->setStyleSheet(QStringLiteral("background:#56B4E9; color:black; padding:4px 8px; font-weight:bold;"));
    workLayout->addWidget(m_demoBanner);
    // The reference evaluation measured on this computer (app/reference): what its numbers are.
    m_referenceBanner = new QLabel(m_workspace);
    m_referenceBanner->setObjectName(QStringLiteral("referenceBanner"));
    m_referenceBanner->setWordWrap(true);
    m_referenceBanner->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_referenceBanner->setStyleSheet(QStringLiteral("background:#CDE8D5; color:black; padding:4px 8px; font-weight:bold;"));
    m_referenceBanner->setVisible(false);
    workLayout->addWidget(m_referenceBanner);

    m_splitter = new QSplitter(m_workspace);
    m_splitter->setObjectName(QStringLiteral("mainSplitter"));
    m_browser = new ProjectBrowser(m_splitter);
    m_pages = new QStackedWidget(m_splitter);
    m_overview = new ProjectOverview(m_pages);
    m_recordEditor = new RecordEditor(m_pages);
    m_runsView = new RunsView(m_pages);
    m_pages->addWidget(m_overview);
    m_pages->addWidget(m_recordEditor);
    m_pages->addWidget(m_runsView);
    // Runs: a run's page, the comparison, and the run menu shared by the browser, the
    // runs list and the run's page (docs/gui.md, "Runs").
    m_runActions = new RunActions(this);
    m_runPage = new RunPage(m_runActions, m_pages);
    m_compareView = new CompareRunsView(m_pages);
    m_pages->addWidget(m_runPage);
    m_pages->addWidget(m_compareView);
    m_runsView->setActions(m_runActions);
    for (int stage = 1; stage <= 4; ++stage) {
        QWidget* page = nullptr;
#ifdef MOEWB_HAVE_STAGE_PAGES
        StagePage* stagePage = StagePage::create(stage, nullptr);
        connect(stagePage, &StagePage::projectModified, this, &MainWindow::onProjectModified);
        connect(stagePage, &StagePage::statusMessage, this,
                [this](const QString& text) { statusBar()->showMessage(text, 10000); });
        page = stagePage;
        // The checklist says "running" while the page's evaluation runs: its Cancel
        // button (docs/gui.md, "Stage pages") is shown exactly then.
        if (auto* cancel = stagePage->findChild<QWidget*>(QStringLiteral("cancelEvaluationButton"))) {
            cancel->setProperty("moewbStage", stage);
            cancel->installEventFilter(this);
        }
#endif
        m_stageFrames[stage - 1] = new StageFrame(stage, page, m_pages);
        m_pages->addWidget(m_stageFrames[stage - 1]);
    }
#ifdef MOEWB_HAVE_LEARN_PAGES
    auto* cost = new CostExplorerPage(m_pages);
    auto* routing = new RoutingLabPage(m_pages);
    m_costPage = cost;
    m_routingPage = routing;
    connect(cost, &CostExplorerPage::referenceProjectRequested, this, [this] {
        const QString path = ReferenceDialog::defaultPath();
        if (!QFileInfo::exists(path)) {
            openReferenceDialog();
            return;
        }
        QString error;
        if (!openProject(path, false, &error)) {
            showOpenFailure(tr("Open project"), error);
            return;
        }
        m_browser->select(ProjectBrowser::ItemKind::LearnCost);
        showItem(ProjectBrowser::ItemKind::LearnCost, {});
    });
    m_pages->addWidget(cost);
    m_pages->addWidget(routing);
#endif
    auto* assessment = new AssessmentView(m_pages);
    m_assessmentPage = assessment;
    m_pages->addWidget(assessment);
    connect(assessment, &AssessmentView::saved, this, &MainWindow::onProjectModified);
    // Clusters: add, edit, check (host keys, inventory); the browser lists them.
    m_clustersPage = new ClustersPage(m_pages);
    m_pages->addWidget(m_clustersPage);
    connect(m_clustersPage, &ClustersPage::statusMessage, this, [this](const QString& text) { statusBar()->showMessage(text, 10000); });
    connect(m_clustersPage, &ClustersPage::clustersChanged, this, [this](const QString& name) {
        reload();
        m_browser->select(name.isEmpty() ? ProjectBrowser::ItemKind::ClustersSection : ProjectBrowser::ItemKind::Cluster, name);
    });
    m_browser->setOptionalPages(m_costPage != nullptr, m_assessmentPage != nullptr);
    m_splitter->addWidget(m_browser);
    m_splitter->addWidget(m_pages);
    m_splitter->setStretchFactor(0, 0);
    m_splitter->setStretchFactor(1, 1);
    m_splitter->setCollapsible(0, false);
    m_splitter->setCollapsible(1, false);
    workLayout->addWidget(m_splitter, 1);
    m_warnings = new WarningsBar(m_workspace);
    workLayout->addWidget(m_warnings);
    m_top->addWidget(m_workspace);

    connect(m_browser, &ProjectBrowser::itemChosen, this, &MainWindow::showItem);
    connect(m_runsView, &RunsView::runActivated, this,
            [this](const QString& run) { m_browser->select(ProjectBrowser::ItemKind::Run, run); });
    connect(m_browser, &ProjectBrowser::runMenuRequested, this, [this](const QString& run, const QPoint& at) {
        QMenu menu(this);
        menu.setObjectName(QStringLiteral("browserRunMenu"));
        menu.addAction(tr("Open"), this, [this, run] { m_browser->select(ProjectBrowser::ItemKind::Run, run); });
        m_runActions->populateMenu(&menu, {run});
        menu.exec(at);
    });
    connect(m_runActions, &RunActions::message, this, [this](const QString& text) { statusBar()->showMessage(text, 10000); });
    connect(m_runActions, &RunActions::runsChanged, this, [this](const QString& showRun) {
        const bool onRun = m_pages->currentWidget() == m_runPage;
        reload();
        if (!showRun.isEmpty() && onRun)
            m_browser->select(ProjectBrowser::ItemKind::Run, showRun);
        else if (onRun || m_pages->currentWidget() == m_runPage)
            m_browser->select(ProjectBrowser::ItemKind::RunsSection);
    });
    connect(m_runActions, &RunActions::compareRequested, this, [this](const QStringList& runs) {
        m_compareView->compare(m_project.get(), runs);
        m_pages->setCurrentWidget(m_compareView);
    });
    connect(m_runPage, &RunPage::recordRequested, this,
            [this](const QString& record) { m_browser->select(ProjectBrowser::ItemKind::Record, record); });
    connect(m_runPage, &RunPage::stageRequested, this, &MainWindow::showStage);
    connect(m_compareView, &CompareRunsView::runRequested, this,
            [this](const QString& run) { m_browser->select(ProjectBrowser::ItemKind::Run, run); });
    connect(m_pages, &QStackedWidget::currentChanged, this, [this] {
        if (m_reloadAction)
            updateReloadShortcut();
    });
    connect(m_recordEditor, &RecordEditor::statusMessage, this,
            [this](const QString& text) { statusBar()->showMessage(text, 10000); });
    // The browser's "!" marks and the record list follow the saved records.
    connect(m_recordEditor, &RecordEditor::recordSaved, this, [this] { reload(); });
    connect(m_recordEditor, &RecordEditor::recordCreated, this, [this](const QString& name) {
        reload();
        m_browser->select(ProjectBrowser::ItemKind::Record, name);
    });

    m_demoBadge = new QLabel(tr(" DEMO · synthetic data "), this);
    m_demoBadge->setObjectName(QStringLiteral("demoBadge"));
    m_demoBadge->setStyleSheet(QStringLiteral("background:#56B4E9; color:black; font-weight:bold;"));
    statusBar()->addPermanentWidget(m_demoBadge);
    m_projectLabel = new QLabel(this);
    m_projectLabel->setObjectName(QStringLiteral("projectPathLabel"));
    m_projectLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_projectLabel->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    statusBar()->addPermanentWidget(m_projectLabel, 1);
}

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* newAction = file->addAction(tr("&New evaluation…"), this, &MainWindow::newProject);
    newAction->setShortcut(QKeySequence::New);
    QAction* openAction = file->addAction(tr("&Open…"), this, &MainWindow::openProjectDialog);
    openAction->setShortcut(QKeySequence::Open);
    m_recentMenu = file->addMenu(tr("Open &recent"));
    connect(m_recentMenu, &QMenu::aboutToShow, this, &MainWindow::rebuildRecentMenu);
    if (demoAvailable())
        file->addAction(tr("Open the &demo (synthetic data)"), this, [this] { openDemo(); });
    file->addAction(tr("Measure a &reference evaluation on this computer…"), this, [this] { openReferenceDialog(); });
    file->addSeparator();
    QAction* importAction = file->addAction(tr("&Import…"), this, [this] { openImportDialog(); });
    importAction->setObjectName(QStringLiteral("actionImport"));
    importAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_I));
#ifdef MOEWB_HAVE_REPORT
    QAction* exportAction = file->addAction(tr("&Export report…"), this, [this] {
        if (!m_project)
            return;
        const QString suggested = QFileInfo(m_project->path()).absolutePath() + QLatin1Char('/') +
                                  QFileInfo(m_project->path()).completeBaseName() + QStringLiteral("-report.pdf");
        const QString pdf = QFileDialog::getSaveFileName(this, tr("Export report"), suggested, tr("PDF (*.pdf)"));
        if (!pdf.isEmpty())
            exportReport(pdf);
    });
    exportAction->setObjectName(QStringLiteral("actionExportReport"));
    exportAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
#endif
    m_reloadAction = file->addAction(tr("&Reload"), this, &MainWindow::reload);
    m_reloadAction->setObjectName(QStringLiteral("actionReload"));
    m_reloadAction->setToolTip(tr("Re-read the project file (F5; Ctrl+R on a stage page, where F5 evaluates)"));
    updateReloadShortcut();
    file->addAction(tr("&Close project"), this, &MainWindow::closeProject);
    file->addSeparator();
    QAction* preferencesAction = file->addAction(tr("&Preferences…"), this, [this] {
        PreferencesDialog dialog(this);
        dialog.exec();
    });
    preferencesAction->setObjectName(QStringLiteral("actionPreferences"));
    preferencesAction->setShortcut(QKeySequence::Preferences);
    QAction* quitAction = file->addAction(tr("&Quit"), this, &QWidget::close);
    quitAction->setShortcut(QKeySequence::Quit);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    for (int stage = 1; stage <= 4; ++stage) {
        QAction* a = view->addAction(tr("Stage &%1 · %2").arg(stage).arg(stageName(stage)), this,
                                     [this, stage] { showStage(stage); });
        a->setObjectName(QStringLiteral("actionStage%1").arg(stage));
        a->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_0 + stage)));
    }
    view->addSeparator();
    QAction* clustersAction = view->addAction(tr("C&lusters"), this, [this] {
        if (m_project)
            m_browser->select(ProjectBrowser::ItemKind::ClustersSection);
    });
    clustersAction->setObjectName(QStringLiteral("actionClusters"));
    view->addAction(tr("&Warnings…"), this, [this] {
        if (m_project)
            m_warnings->openList();
    });

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* guideAction = help->addAction(tr("&Guide"), this, [this] { showGuide(); });
    guideAction->setObjectName(QStringLiteral("actionGuide"));
    guideAction->setShortcut(QKeySequence::HelpContents);
    QAction* keysAction = help->addAction(tr("&Keyboard shortcuts"), this, [this] { showShortcuts(); });
    keysAction->setObjectName(QStringLiteral("actionShortcuts"));
    help->addSeparator();
    help->addAction(tr("&About MoE Workbench"), this, [this] {
        QMessageBox::about(this, tr("About MoE Workbench"),
                           tr("<p><b>MoE Workbench %1</b></p><p>Evaluate Mixture-of-Experts training on real "
                              "clusters: communication baseline, dense control, expert load and loss, transfer "
                              "to another cluster.</p><p>Project schema version %2.</p>")
                               .arg(QStringLiteral(MOEWB_VERSION))
                               .arg(store::ProjectStore::kSchemaVersion));
    });
}

QSize MainWindow::defaultWindowSize(const QSize& available) {
    // 1600 × 1000 at most; on a smaller screen (1366 × 768 less its panels) the
    // available area less room for the title bar, so the window never opens larger
    // than the screen.
    if (!available.isValid() || available.isEmpty())
        return {1280, 720};
    return {std::min(1600, available.width()), std::min(1000, available.height() - 40)};
}

QString MainWindow::guidePath() {
    // The installed copy (share/doc/…), then the source tree beside the build folder.
    const QString app = QCoreApplication::applicationDirPath();
    QStringList candidates;
    const QDir docRoot(app + QStringLiteral("/../share/doc"));
    for (const QString& sub : docRoot.entryList(QDir::Dirs | QDir::NoDotAndDotDot))
        candidates << docRoot.filePath(sub + QStringLiteral("/guide.md"));
    candidates << app + QStringLiteral("/../docs/guide.md") << app + QStringLiteral("/../../docs/guide.md")
               << app + QStringLiteral("/../../../docs/guide.md");
    for (const QString& c : candidates)
        if (QFileInfo(c).isFile())
            return QFileInfo(c).canonicalFilePath();
    return {};
}

void MainWindow::showGuide() {
    const QString path = guidePath();
    QFile file(path);
    if (path.isEmpty() || !file.open(QIODevice::ReadOnly)) {
        QMessageBox::information(this, tr("Guide"),
                                 tr("The guide (guide.md) is not installed with this copy of MoE Workbench."));
        return;
    }
    auto* dialog = new QDialog(this);
    dialog->setObjectName(QStringLiteral("guideDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("MoE Workbench guide"));
    auto* layout = new QVBoxLayout(dialog);
    auto* text = new QTextBrowser(dialog);
    text->setObjectName(QStringLiteral("guideText"));
    text->setOpenExternalLinks(true);
    text->setSearchPaths({QFileInfo(path).absolutePath()});
    text->setMarkdown(QString::fromUtf8(file.readAll()));
    layout->addWidget(text);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::close);
    layout->addWidget(buttons);
    const QSize room = screen() ? screen()->availableGeometry().size() : QSize(1000, 700);
    dialog->resize(std::min(900, room.width() - 60), std::min(700, room.height() - 80));
    dialog->show();
}

void MainWindow::showShortcuts() {
    const QList<QPair<QString, QString>> keys{
        {QKeySequence(QKeySequence::New).toString(QKeySequence::NativeText), tr("New evaluation")},
        {QKeySequence(QKeySequence::Open).toString(QKeySequence::NativeText), tr("Open a project")},
        {QKeySequence(Qt::CTRL | Qt::Key_I).toString(QKeySequence::NativeText), tr("Import files")},
        {QKeySequence(Qt::CTRL | Qt::Key_E).toString(QKeySequence::NativeText), tr("Export the report")},
        {tr("Ctrl+1 … Ctrl+4"), tr("Open stage 1 … 4")},
        {QKeySequence(Qt::Key_F5).toString(QKeySequence::NativeText), tr("Evaluate (on a stage page)")},
        {QKeySequence(Qt::CTRL | Qt::Key_R).toString(QKeySequence::NativeText), tr("Reload the project")},
        {tr("Ctrl+wheel"), tr("Zoom a plot (or click into it, then use the wheel)")},
        {tr("Double-click"), tr("Reset a plot's view")},
        {QKeySequence(Qt::SHIFT | Qt::Key_F10).toString(QKeySequence::NativeText),
         tr("A plot's menu: copy, export, logarithmic y axis")},
        {QKeySequence(QKeySequence::Copy).toString(QKeySequence::NativeText), tr("Copy table rows as TSV")},
        {QKeySequence(QKeySequence::HelpContents).toString(QKeySequence::NativeText), tr("This guide")},
    };
    QString html = QStringLiteral("<table cellspacing=\"4\">");
    for (const auto& k : keys)
        html += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(k.first.toHtmlEscaped(),
                                                                          k.second.toHtmlEscaped());
    html += QStringLiteral("</table>");
    QMessageBox box(QMessageBox::NoIcon, tr("Keyboard shortcuts"), html, QMessageBox::Close, this);
    box.setObjectName(QStringLiteral("shortcutsBox"));
    box.setTextFormat(Qt::RichText);
    box.exec();
}

bool MainWindow::eventFilter(QObject* watched, QEvent* event) {
    // ShowToParent/HideToParent: the button itself was shown or hidden, whether or not
    // its page is the one on screen.
    if ((event->type() == QEvent::ShowToParent || event->type() == QEvent::HideToParent) &&
        watched->property("moewbStage").isValid()) {
        const int stage = watched->property("moewbStage").toInt();
        m_browser->setStageRunning(stage, event->type() == QEvent::ShowToParent);
        if (m_project)
            m_stageFrames[stage - 1]->setState(m_browser->stageStateOf(stage));
    }
    return QMainWindow::eventFilter(watched, event);
}

void MainWindow::updateReloadShortcut() {
    // On a stage page F5 is the page's Evaluate; the window's reload keeps Ctrl+R there.
    const bool onStage = std::find(std::begin(m_stageFrames), std::end(m_stageFrames), m_pages->currentWidget()) !=
                         std::end(m_stageFrames);
    if (onStage)
        m_reloadAction->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_R)});
    else
        m_reloadAction->setShortcuts({QKeySequence(Qt::Key_F5), QKeySequence(Qt::CTRL | Qt::Key_R)});
}

QWidget* MainWindow::currentPage() const {
    return m_top->currentWidget() == m_start ? static_cast<QWidget*>(m_start) : m_pages->currentWidget();
}

StageFrame* MainWindow::stageFrame(int stage) const {
    return stage >= 1 && stage <= 4 ? m_stageFrames[stage - 1] : nullptr;
}

void MainWindow::showStage(int stage) {
    if (m_project)
        m_browser->select(ProjectBrowser::ItemKind::Stage, QString::number(stage));
}

void MainWindow::showItem(ProjectBrowser::ItemKind kind, const QString& name) {
    using K = ProjectBrowser::ItemKind;
    if (!m_project) {
        m_pages->setCurrentWidget(m_overview);
        return;
    }
    switch (kind) {
    case K::Stage: {
        const int stage = name.toInt();
        if (StageFrame* frame = stageFrame(stage)) {
            frame->setState(m_browser->stageStateOf(stage));
            m_pages->setCurrentWidget(frame);
        }
        return;
    }
    case K::Record:
        if (m_recordEditor->recordName() != name || !m_recordEditor->isModified())
            m_recordEditor->showRecord(name);
        m_pages->setCurrentWidget(m_recordEditor);
        return;
    case K::RecordsSection:
        if (!m_recordEditor->isModified())
            m_recordEditor->setProject(m_project.get());
        m_pages->setCurrentWidget(m_recordEditor);
        return;
    case K::Run:
        m_runPage->showRun(m_project.get(), name);
        m_pages->setCurrentWidget(m_runPage);
        return;
    case K::RunsSection:
        m_runsView->showRuns(m_project.get(), name);
        m_pages->setCurrentWidget(m_runsView);
        return;
    case K::LearnCost:
        if (m_costPage)
            m_pages->setCurrentWidget(m_costPage);
        return;
    case K::LearnRouting:
        if (m_routingPage)
            m_pages->setCurrentWidget(m_routingPage);
        return;
    case K::Assessment:
        if (m_assessmentPage)
            m_pages->setCurrentWidget(m_assessmentPage);
        return;
    case K::ClustersSection:
    case K::Cluster:
        if (!name.isEmpty())
            m_clustersPage->selectCluster(name);
        m_pages->setCurrentWidget(m_clustersPage);
        return;
    default:
        m_overview->showProject(m_project.get());
        m_pages->setCurrentWidget(m_overview);
        return;
    }
}

} // namespace moewb::gui
