#pragma once
// The workbench window (docs/UX.md, docs/gui.md): the start screen until a project
// is open; then the browser on the left (the four-stage checklist, records, runs,
// clusters, Learn, Assessment), the chosen page on the right and the warnings bar
// at the bottom. Long work (import, writing the demo, report export) runs off the
// GUI thread; closing during it asks, then cancels cleanly.
#include "ProjectBrowser.h"

#include <QMainWindow>
#include <QPointer>
#include <QThread>

#include <functional>
#include <memory>

class QLabel;
class QSplitter;
class QStackedWidget;

namespace moewb::store {
class ProjectStore;
}

namespace moewb::gui {

class ClustersPage;
class CompareRunsView;
class RunActions;
class RunPage;
class ImportDialog;
class ProjectOverview;
class RecordEditor;
class RunsView;
class StageFrame;
class StartScreen;
class WarningsBar;

class ReferenceDialog;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Opens (or, with create, creates) a project file; on failure shows the reason and
    // keeps the current project. Returns whether the project is now open.
    bool openProject(const QString& path, bool create = false, QString* error = nullptr);
    // Opens the demo at demo::defaultDemoPath(), writing it first (off the GUI thread)
    // when it is missing. Returns false when this build has no demo.
    bool openDemo();
    bool demoAvailable() const;
    bool isDemoBusy() const { return m_demoThread != nullptr; }
    void closeProject();
    store::ProjectStore* project() const { return m_project.get(); }
    bool isDemo() const { return m_isDemo; }
    // Help menu: the guide (docs/guide.md, installed or beside the build) in a window
    // of its own, and the keyboard shortcuts.
    void showGuide();
    void showShortcuts();
    static QString guidePath();
    // The window's first size: fits the screen's available area (1366 × 768 too).
    static QSize defaultWindowSize(const QSize& available);
    // Start screen / File ▸ "Measure a reference evaluation on this computer": the dialog
    // (app/reference); the project it writes is opened at the end.
    ReferenceDialog* openReferenceDialog();
    // The reference evaluation's banner above every page (empty when hidden).
    QString referenceBannerText() const;

    ProjectBrowser* browser() const { return m_browser; }
    StartScreen* startScreen() const { return m_start; }
    RecordEditor* recordEditor() const { return m_recordEditor; }
    RunsView* runsView() const { return m_runsView; }
    // A run's page (browser ▸ RUNS ▸ a run), the comparison of runs, and the run menu.
    RunPage* runPage() const { return m_runPage; }
    CompareRunsView* compareView() const { return m_compareView; }
    RunActions* runActions() const { return m_runActions; }
    ProjectOverview* overview() const { return m_overview; }
    WarningsBar* warningsBar() const { return m_warnings; }
    // The frame of stage 1..4 (lock banner + the stage page).
    StageFrame* stageFrame(int stage) const;
    // The Learn and Assessment pages; null when this build has none.
    QWidget* costPage() const { return m_costPage; }
    QWidget* routingPage() const { return m_routingPage; }
    QWidget* assessmentPage() const { return m_assessmentPage; }
    ClustersPage* clustersPage() const { return m_clustersPage; }
    QWidget* currentPage() const;
    // Shows stage 1..4 (Ctrl+1..4).
    void showStage(int stage);
    // File → Import… with these files and folders added to its list (the dialog stays
    // open; null without a project). Files dropped on the window open it too.
    ImportDialog* openImportDialog(const QStringList& paths);
    ImportDialog* openImportDialog(const QString& file = {});
    // Writes the PDF report (off the GUI thread where it can; progress and Cancel);
    // false when this build has no report or an export is running.
    bool exportReport(const QString& pdfPath);
    // Re-reads the project everywhere (F5).
    void reload();
    // Work that closing would interrupt, in words; empty when idle.
    QStringList runningWork() const;
    // How closing during work asks; the default shows a question box. Tests replace it.
    void setCloseConfirmation(std::function<bool(const QString&)> ask) { m_confirmClose = std::move(ask); }
    // Says why opening a project failed, in a box titled `title`. When the last
    // openProject() refused the file for schema objects moewb did not create (a planted
    // trigger or view, a foreign table, an altered definition), the box names them and
    // offers "Save a clean copy…": store::cleanProjectCopy (as `moewb project clean`),
    // then the copy can be opened. The window stays as it was.
    void showOpenFailure(const QString& title, const QString& error);
    // Writes the clean copy of `source` to `target` (off the GUI thread), then says what
    // it kept and offers to open it; cleanCopyWritten() tells the end.
    void saveCleanCopy(const QString& source, const QString& target);
    // Where "Save a clean copy…" writes (the default asks with a file dialog, starting at
    // `suggested`; empty: cancelled). Tests replace it.
    void setCleanCopyTarget(std::function<QString(const QString& suggested)> choose) {
        m_chooseCleanTarget = std::move(choose);
    }

signals:
    // The demo was written (or found) and opened; false with the reason otherwise.
    void demoOpened(bool ok, const QString& message);
    // The report export ended: the PDF's path, or the reason it was not written.
    void reportExported(bool ok, const QString& pathOrMessage);
    // A clean copy (saveCleanCopy) was written: its path, or the reason it was not.
    void cleanCopyWritten(bool ok, const QString& pathOrMessage);

protected:
    void closeEvent(QCloseEvent* event) override;
    // Local files and folders dropped on the window open the import dialog with them.
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dragMoveEvent(QDragMoveEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void buildPages();
    void buildMenus();
    void showItem(ProjectBrowser::ItemKind kind, const QString& name);
    void newProject();
    void openProjectDialog();
    void onProjectModified();
    void updateStageFrames();
    void updateTitle();
    void rebuildRecentMenu();
    void updateReloadShortcut();

    std::unique_ptr<store::ProjectStore> m_project;
    bool m_isDemo = false;
    QStackedWidget* m_top = nullptr; // start screen | workspace
    StartScreen* m_start = nullptr;
    QWidget* m_workspace = nullptr;
    QSplitter* m_splitter = nullptr;
    ProjectBrowser* m_browser = nullptr;
    QStackedWidget* m_pages = nullptr;
    ProjectOverview* m_overview = nullptr;
    RecordEditor* m_recordEditor = nullptr;
    RunsView* m_runsView = nullptr;
    RunPage* m_runPage = nullptr;
    CompareRunsView* m_compareView = nullptr;
    RunActions* m_runActions = nullptr;
    StageFrame* m_stageFrames[4] = {};
    QWidget* m_costPage = nullptr;
    QWidget* m_routingPage = nullptr;
    QWidget* m_assessmentPage = nullptr;
    ClustersPage* m_clustersPage = nullptr;
    WarningsBar* m_warnings = nullptr;
    QLabel* m_demoBanner = nullptr;
    QLabel* m_demoBadge = nullptr;
    QLabel* m_referenceBanner = nullptr;
    QPointer<ReferenceDialog> m_referenceDialog;
    QLabel* m_projectLabel = nullptr;
    QMenu* m_recentMenu = nullptr;
    QAction* m_reloadAction = nullptr;
    QPointer<ImportDialog> m_importDialog;
    QPointer<QThread> m_demoThread;
    QPointer<QObject> m_reportJob; // report::ReportExportJob (deletes itself when done)
    bool m_reportRunning = false;
    std::function<bool(const QString&)> m_confirmClose;
    std::function<QString(const QString&)> m_chooseCleanTarget;
    // The file the last openProject() refused for a foreign schema (empty otherwise).
    QString m_refusedForeignSchema;
    QPointer<QThread> m_cleanThread;
};

} // namespace moewb::gui
