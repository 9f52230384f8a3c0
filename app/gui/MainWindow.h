#pragma once
// The workbench window: the project browser on the left, the chosen page on the right.
#include "ProjectBrowser.h"

#include <QMainWindow>
#include <memory>

class QLabel;
class QStackedWidget;

namespace moewb::store {
class ProjectStore;
}

namespace moewb::gui {

class ProjectOverview;
class RecordView;
class RunsView;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Opens (or, with create, creates) a project file; on failure shows the reason and
    // keeps the current project. Returns whether the project is now open.
    bool openProject(const QString& path, bool create = false, QString* error = nullptr);
    store::ProjectStore* project() const { return m_project.get(); }

    ProjectBrowser* browser() const { return m_browser; }
    RecordView* recordView() const { return m_recordView; }
    RunsView* runsView() const { return m_runsView; }
    ProjectOverview* overview() const { return m_overview; }
    QWidget* currentPage() const;

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void buildMenus();
    void showItem(ProjectBrowser::ItemKind kind, const QString& name);
    void newProject();
    void openProjectDialog();
    void reload();

    std::unique_ptr<store::ProjectStore> m_project;
    ProjectBrowser* m_browser = nullptr;
    QStackedWidget* m_pages = nullptr;
    ProjectOverview* m_overview = nullptr;
    RecordView* m_recordView = nullptr;
    RunsView* m_runsView = nullptr;
    QLabel* m_projectLabel = nullptr;
};

} // namespace moewb::gui
