#include "ProjectBrowser.h"

#include "record/RecordValidation.h"
#include "store/ProjectStore.h"

#include <QContextMenuEvent>
#include <QHeaderView>

namespace moewb::gui {

ProjectBrowser::ProjectBrowser(QWidget* parent) : QTreeWidget(parent) {
    setObjectName(QStringLiteral("projectBrowser"));
    setHeaderHidden(true);
    setColumnCount(1);
    setRootIsDecorated(true);
    setUniformRowHeights(true);
    setMinimumWidth(240);
    connect(this, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* item) {
        if (!item)
            return;
        emit itemChosen(static_cast<ItemKind>(item->data(0, KindRole).toInt()), item->data(0, NameRole).toString());
    });
}

void ProjectBrowser::setOptionalPages(bool learn, bool assessment) {
    m_learn = learn;
    m_assessment = assessment;
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

namespace {
QTreeWidgetItem* addChild(QTreeWidgetItem* parent, const QString& text, ProjectBrowser::ItemKind kind,
                          const QString& name, const QString& tip = {}) {
    auto* item = new QTreeWidgetItem(parent, {text});
    item->setData(0, ProjectBrowser::KindRole, int(kind));
    item->setData(0, ProjectBrowser::NameRole, name);
    if (!tip.isEmpty())
        item->setToolTip(0, tip);
    return item;
}
} // namespace

void ProjectBrowser::showProject(store::ProjectStore* project) {
    const QTreeWidgetItem* was = currentItem();
    const auto wasKind = was ? static_cast<ItemKind>(was->data(0, KindRole).toInt()) : ItemKind::Overview;
    const QString wasName = was ? was->data(0, NameRole).toString() : QString();
    const bool sameProject = project && project == m_project;

    m_project = project;
    blockSignals(true);
    clear();
    for (auto*& item : m_stageItems)
        item = nullptr;
    blockSignals(false);
    if (!project)
        return;
    blockSignals(true);
    auto* overview = addSection(tr("Project overview"), ItemKind::Overview);
    overview->setFont(0, font());

    auto* evaluation = addSection(tr("EVALUATION"), ItemKind::EvaluationSection);
    evaluation->setToolTip(0, tr("The four stages, in order: each opens once the one before passed or its stop was "
                                 "overridden with a written justification."));
    for (int stage = 1; stage <= 4; ++stage) {
        m_stageItems[stage - 1] = addChild(evaluation, QString(), ItemKind::Stage, QString::number(stage));
        m_states[stage - 1] = stageState(*project, stage);
        updateStageItem(stage);
    }

    const auto records = project->configRecords();
    auto* recordSection = addSection(tr("RECORDS (%1)").arg(records.size()), ItemKind::RecordsSection);
    recordSection->setToolTip(0, tr("Config records: what each run ran with (SPEC §1)."));
    for (const auto& r : records) {
        const int missing = int(record::validateJson(r.json).size());
        // Never colour alone: an incomplete record carries a "!" and says why in its tooltip.
        addChild(recordSection, missing ? r.name + QStringLiteral("  !") : r.name, ItemKind::Record, r.name,
                 missing ? tr("Incomplete: %n field(s) missing or invalid; comparisons using it are refused.", "",
                              missing)
                         : tr("Complete config record"));
    }

    const auto runs = project->runs();
    auto* runSection = addSection(tr("RUNS (%1)").arg(runs.size()), ItemKind::RunsSection);
    for (const auto& r : runs)
        addChild(runSection, r.name, ItemKind::Run, r.name,
                 tr("%1 run of record %2").arg(store::runKindTitle(r.kind), r.recordName));
    runSection->setExpanded(runs.size() <= 12);

    const auto clusters = project->clusters();
    auto* clusterSection = addSection(tr("CLUSTERS (%1)").arg(clusters.size()), ItemKind::ClustersSection);
    for (const auto& c : clusters) {
        const auto nodes = project->nodes(c.id);
        // A local cluster (cluster add --local, docs/remote.md): its nodes are ranks here.
        if (c.facts.value(QStringLiteral("launcher")).toString() == QLatin1String("local"))
            addChild(clusterSection, tr("%1 (this computer, %2 ranks)").arg(c.name).arg(nodes.size()), ItemKind::Cluster, c.name);
        else
            addChild(clusterSection, tr("%1 (%n node(s))", "", int(nodes.size())).arg(c.name), ItemKind::Cluster, c.name);
    }

    if (m_learn) {
        auto* learn = addSection(tr("LEARN"), ItemKind::LearnSection);
        learn->setToolTip(0, tr("How MoE costs and routing work, for someone who knows dense training."));
        addChild(learn, tr("Cost structure"), ItemKind::LearnCost, QString(),
                 tr("Where an MoE's cost comes from: parameters, memory, all-to-all bytes, step time."));
        addChild(learn, tr("Routing lab"), ItemKind::LearnRouting, QString(),
                 tr("How Top-K, Expert-Choice and bias-balanced routers spread the load."));
    }
    if (m_assessment)
        addSection(tr("ASSESSMENT"), ItemKind::Assessment)
            ->setToolTip(0, tr("The assessment sheet that goes into the report."));
    blockSignals(false);

    if (!(sameProject && select(wasKind, wasName)))
        setCurrentItem(overview);
}

void ProjectBrowser::updateStageItem(int stage) {
    QTreeWidgetItem* item = m_stageItems[stage - 1];
    if (!item)
        return;
    const StageState s = m_running[stage - 1] ? runningState() : m_states[stage - 1];
    item->setText(0, stageChecklistText(stage, s));
    item->setToolTip(0, tr("Stage %1 · %2 — %3\n%4").arg(stage).arg(stageName(stage), s.words, s.detail));
    QFont f = font();
    f.setBold(s.kind == StageState::Kind::Stopped || s.kind == StageState::Kind::Running);
    item->setFont(0, f);
    item->setForeground(0, palette().brush(s.kind == StageState::Kind::Locked ? QPalette::PlaceholderText
                                                                              : QPalette::Text));
}

void ProjectBrowser::refreshStages() {
    if (!m_project)
        return;
    for (int stage = 1; stage <= 4; ++stage) {
        m_states[stage - 1] = stageState(*m_project, stage);
        updateStageItem(stage);
    }
}

void ProjectBrowser::setStageRunning(int stage, bool running) {
    if (stage < 1 || stage > 4)
        return;
    m_running[stage - 1] = running;
    updateStageItem(stage);
}

QTreeWidgetItem* ProjectBrowser::stageItem(int stage) const {
    return stage >= 1 && stage <= 4 ? m_stageItems[stage - 1] : nullptr;
}

StageState ProjectBrowser::stageStateOf(int stage) const {
    if (stage < 1 || stage > 4)
        return {};
    return m_running[stage - 1] ? runningState() : m_states[stage - 1];
}

void ProjectBrowser::contextMenuEvent(QContextMenuEvent* event) {
    QTreeWidgetItem* item = event->reason() == QContextMenuEvent::Mouse ? itemAt(event->pos()) : currentItem();
    if (item && static_cast<ItemKind>(item->data(0, KindRole).toInt()) == ItemKind::Run) {
        const QPoint at = event->reason() == QContextMenuEvent::Mouse
                              ? event->globalPos()
                              : viewport()->mapToGlobal(visualItemRect(item).bottomLeft());
        emit runMenuRequested(item->data(0, NameRole).toString(), at);
        event->accept();
        return;
    }
    QTreeWidget::contextMenuEvent(event);
}

bool ProjectBrowser::select(ItemKind kind, const QString& name) {
    for (QTreeWidgetItemIterator it(this); *it; ++it) {
        if (static_cast<ItemKind>((*it)->data(0, KindRole).toInt()) == kind &&
            (name.isEmpty() || (*it)->data(0, NameRole).toString() == name)) {
            if (currentItem() == *it)
                emit itemChosen(kind, (*it)->data(0, NameRole).toString());
            else
                setCurrentItem(*it);
            return true;
        }
    }
    return false;
}

} // namespace moewb::gui
