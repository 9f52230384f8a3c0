#pragma once
// The left-hand browser (docs/UX.md, "Window"): EVALUATION — the checklist of the
// four stages, each with an icon and words for its status (the reason in the
// tooltip) —, the config records (a "!" marks an incomplete one), runs, clusters,
// LEARN and ASSESSMENT. Emits which item the user chose.
#include "StageStatus.h"

#include <QTreeWidget>

namespace moewb::store {
class ProjectStore;
}

namespace moewb::gui {

class ProjectBrowser : public QTreeWidget {
    Q_OBJECT
public:
    enum class ItemKind {
        Overview,
        RecordsSection,
        Record,
        RunsSection,
        Run,
        ClustersSection,
        Cluster,
        EvaluationSection,
        Stage, // name: "1".."4"
        LearnSection,
        LearnCost,
        LearnRouting,
        Assessment,
    };
    static constexpr int KindRole = Qt::UserRole + 1;
    static constexpr int NameRole = Qt::UserRole + 2;

    explicit ProjectBrowser(QWidget* parent = nullptr);
    // Which optional sections this build has pages for (set before showProject).
    void setOptionalPages(bool learn, bool assessment);
    // Rebuilds the tree; the chosen item stays chosen when it still exists.
    void showProject(store::ProjectStore* project);
    // Re-reads only the checklist (after a verdict or an override).
    void refreshStages();
    void setStageRunning(int stage, bool running);
    // Selects the item of this kind and name; false when there is none.
    bool select(ItemKind kind, const QString& name = {});
    QTreeWidgetItem* stageItem(int stage) const;
    StageState stageStateOf(int stage) const;

signals:
    void itemChosen(moewb::gui::ProjectBrowser::ItemKind kind, const QString& name);
    // Right-click (or the menu key) on a run: the window shows the run menu there.
    void runMenuRequested(const QString& run, const QPoint& globalPos);

protected:
    void contextMenuEvent(QContextMenuEvent* event) override;

private:
    QTreeWidgetItem* addSection(const QString& title, ItemKind kind);
    void updateStageItem(int stage);

    store::ProjectStore* m_project = nullptr;
    bool m_learn = false;
    bool m_assessment = false;
    QTreeWidgetItem* m_stageItems[4] = {};
    StageState m_states[4];
    bool m_running[4] = {};
};

} // namespace moewb::gui
