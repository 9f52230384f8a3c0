#include "MainWindow.h"

#include "ProjectOverview.h"
#include "RecordView.h"
#include "RunsView.h"
#include "store/ProjectStore.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>

namespace moewb::gui {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(tr("MoE Workbench"));
    auto* splitter = new QSplitter(this);
    splitter->setObjectName(QStringLiteral("mainSplitter"));
    m_browser = new ProjectBrowser(splitter);
    m_pages = new QStackedWidget(splitter);
    m_overview = new ProjectOverview(m_pages);
    m_recordView = new RecordView(m_pages);
    m_runsView = new RunsView(m_pages);
    m_pages->addWidget(m_overview);
    m_pages->addWidget(m_recordView);
    m_pages->addWidget(m_runsView);
    splitter->addWidget(m_browser);
    splitter->addWidget(m_pages);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({260, 900});
    setCentralWidget(splitter);
    m_projectLabel = new QLabel(this);
    m_projectLabel->setObjectName(QStringLiteral("projectPathLabel"));
    m_projectLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_projectLabel->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    statusBar()->addPermanentWidget(m_projectLabel, 1);
    buildMenus();
    connect(m_browser, &ProjectBrowser::itemChosen, this, &MainWindow::showItem);

    QSettings settings;
    if (!restoreGeometry(settings.value(QStringLiteral("mainWindow/geometry")).toByteArray()))
        resize(1280, 800);
    restoreState(settings.value(QStringLiteral("mainWindow/state")).toByteArray());
    splitter->restoreState(settings.value(QStringLiteral("mainWindow/splitter")).toByteArray());
    m_overview->showProject(nullptr);
}

MainWindow::~MainWindow() = default;

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* newAction = file->addAction(tr("&New project…"), this, &MainWindow::newProject);
    newAction->setShortcut(QKeySequence::New);
    QAction* openAction = file->addAction(tr("&Open project…"), this, &MainWindow::openProjectDialog);
    openAction->setShortcut(QKeySequence::Open);
    QAction* reloadAction = file->addAction(tr("&Reload"), this, &MainWindow::reload);
    reloadAction->setShortcut(QKeySequence::Refresh);
    file->addSeparator();
    QAction* quitAction = file->addAction(tr("&Quit"), this, &QWidget::close);
    quitAction->setShortcut(QKeySequence::Quit);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About MoE Workbench"), this, [this] {
        QMessageBox::about(this, tr("About MoE Workbench"),
                           tr("<p><b>MoE Workbench %1</b></p><p>Evaluate Mixture-of-Experts training on real "
                              "clusters: communication baseline, dense control, expert load and loss, transfer "
                              "to another cluster.</p><p>Project schema version %2.</p>")
                               .arg(QStringLiteral(MOEWB_VERSION))
                               .arg(store::ProjectStore::kSchemaVersion));
    });
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
        if (error)
            *error = opened.error().text();
        statusBar()->showMessage(opened.error().text());
        return false;
    }
    m_project = std::move(opened.value());
    setWindowTitle(tr("%1 — MoE Workbench").arg(QFileInfo(path).fileName()));
    m_projectLabel->setText(QDir::toNativeSeparators(QFileInfo(path).absoluteFilePath()));
    reload();
    return true;
}

void MainWindow::reload() {
    m_browser->showProject(m_project.get());
    m_overview->showProject(m_project.get());
    m_pages->setCurrentWidget(m_overview);
}

QWidget* MainWindow::currentPage() const { return m_pages->currentWidget(); }

void MainWindow::showItem(ProjectBrowser::ItemKind kind, const QString& name) {
    using K = ProjectBrowser::ItemKind;
    if (!m_project) {
        m_pages->setCurrentWidget(m_overview);
        return;
    }
    switch (kind) {
    case K::Record:
        if (const auto row = m_project->configRecord(name)) {
            m_recordView->showRecord(*row);
            m_pages->setCurrentWidget(m_recordView);
        }
        return;
    case K::Run:
    case K::RunsSection:
        m_runsView->showRuns(m_project.get(), name);
        m_pages->setCurrentWidget(m_runsView);
        return;
    default:
        m_overview->showProject(m_project.get());
        m_pages->setCurrentWidget(m_overview);
        return;
    }
}

void MainWindow::newProject() {
    const QString path = QFileDialog::getSaveFileName(this, tr("New project"), QDir::homePath(),
                                                      tr("MoE Workbench projects (*.moewb)"));
    if (path.isEmpty())
        return;
    const QString file = path.endsWith(QLatin1String(".moewb")) ? path : path + QStringLiteral(".moewb");
    if (QFileInfo::exists(file)) {
        QMessageBox::warning(this, tr("New project"), tr("%1 already exists; choose another name.").arg(file));
        return;
    }
    QString error;
    if (!openProject(file, true, &error))
        QMessageBox::warning(this, tr("New project"), error);
}

void MainWindow::openProjectDialog() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open project"), QDir::homePath(),
                                                      tr("MoE Workbench projects (*.moewb)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!openProject(path, false, &error))
        QMessageBox::warning(this, tr("Open project"), error);
}

void MainWindow::closeEvent(QCloseEvent* event) {
    QSettings settings;
    settings.setValue(QStringLiteral("mainWindow/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("mainWindow/state"), saveState());
    if (auto* splitter = findChild<QSplitter*>(QStringLiteral("mainSplitter")))
        settings.setValue(QStringLiteral("mainWindow/splitter"), splitter->saveState());
    event->accept();
}

} // namespace moewb::gui
