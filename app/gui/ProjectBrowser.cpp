#include "ProjectBrowser.h"

#include "record/RecordValidation.h"
#include "store/ProjectStore.h"

#include <QHeaderView>

namespace moewb::gui {

ProjectBrowser::ProjectBrowser(QWidget* parent) : QTreeWidget(parent) {
    setObjectName(QStringLiteral("projectBrowser"));
    setHeaderHidden(true);
    setColumnCount(1);
    setRootIsDecorated(true);
    setUniformRowHeights(true);
    setMinimumWidth(220);
    connect(this, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* item) {
        if (!item)
            return;
        emit itemChosen(static_cast<ItemKind>(item->data(0, KindRole).toInt()), item->data(0, NameRole).toString());
    });
}

QTreeWidgetItem* ProjectBrowser::addSection(const QString& title, ItemKind kind) {
    auto* item = new QTreeWidgetItem(this, {title});
    item->setData(0, KindRole, int(kind));
    QFont f = item->font(0);
    f.setBold(true);
    item->setFont(0, f);
    item->setExpanded(true);
    return item;
}

void ProjectBrowser::showProject(store::ProjectStore* project) {
    clear();
    if (!project)
        return;
    auto* overview = addSection(tr("Project overview"), ItemKind::Overview);
    overview->setFont(0, font());

    const auto records = project->configRecords();
    auto* recordSection = addSection(tr("Config records (%1)").arg(records.size()), ItemKind::RecordsSection);
    for (const auto& r : records) {
        const int missing = int(record::validateJson(r.json).size());
        auto* item = new QTreeWidgetItem(recordSection);
        // Never colour alone: an incomplete record carries a "!" and says why in its tooltip.
        item->setText(0, missing ? r.name + QStringLiteral("  !") : r.name);
        item->setToolTip(0, missing ? tr("Incomplete: %n field(s) missing or invalid; comparisons using it are refused.",
                                         "", missing)
                                    : tr("Complete config record"));
        item->setData(0, KindRole, int(ItemKind::Record));
        item->setData(0, NameRole, r.name);
    }

    const auto runs = project->runs();
    auto* runSection = addSection(tr("Runs (%1)").arg(runs.size()), ItemKind::RunsSection);
    for (const auto& r : runs) {
        auto* item = new QTreeWidgetItem(runSection, {r.name});
        item->setToolTip(0, tr("%1 run of record %2").arg(store::runKindName(r.kind), r.recordName));
        item->setData(0, KindRole, int(ItemKind::Run));
        item->setData(0, NameRole, r.name);
    }

    const auto clusters = project->clusters();
    auto* clusterSection = addSection(tr("Clusters (%1)").arg(clusters.size()), ItemKind::ClustersSection);
    for (const auto& c : clusters) {
        const auto nodes = project->nodes(c.id);
        auto* item = new QTreeWidgetItem(clusterSection, {tr("%1 (%n node(s))", "", int(nodes.size())).arg(c.name)});
        item->setData(0, KindRole, int(ItemKind::Cluster));
        item->setData(0, NameRole, c.name);
    }
    setCurrentItem(overview);
}

bool ProjectBrowser::select(ItemKind kind, const QString& name) {
    for (QTreeWidgetItemIterator it(this); *it; ++it) {
        if (static_cast<ItemKind>((*it)->data(0, KindRole).toInt()) == kind &&
            (name.isEmpty() || (*it)->data(0, NameRole).toString() == name)) {
            setCurrentItem(*it);
            return true;
        }
    }
    return false;
}

} // namespace moewb::gui
