#pragma once
// The left-hand browser: the project's config records (a "!" marks an incomplete
// one), runs and clusters. Emits which item the user chose.
#include <QTreeWidget>

namespace moewb::store {
class ProjectStore;
}

namespace moewb::gui {

class ProjectBrowser : public QTreeWidget {
    Q_OBJECT
public:
    enum class ItemKind { Overview, RecordsSection, Record, RunsSection, Run, ClustersSection, Cluster };
    static constexpr int KindRole = Qt::UserRole + 1;
    static constexpr int NameRole = Qt::UserRole + 2;

    explicit ProjectBrowser(QWidget* parent = nullptr);
    void showProject(store::ProjectStore* project);
    // Selects the item of this kind and name; false when there is none.
    bool select(ItemKind kind, const QString& name = {});

signals:
    void itemChosen(moewb::gui::ProjectBrowser::ItemKind kind, const QString& name);

private:
    QTreeWidgetItem* addSection(const QString& title, ItemKind kind);
};

} // namespace moewb::gui
