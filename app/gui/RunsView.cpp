#include "RunsView.h"

#include "PageWidgets.h"
#include "RunActions.h"
#include "NumberCell.h"
#include "TableFit.h"

#include "stages/RunSummary.h"
#include "store/ProjectStore.h"

#include <QApplication>
#include <QClipboard>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <optional>

namespace moewb::gui {

namespace {

QTableWidgetItem* textItem(const QString& text) {
    auto* item = new QTableWidgetItem(text);
    item->setToolTip(text);
    return item;
}

enum Column { Name, Kind, Record, Cluster, FinalLoss, ValLoss, Throughput, DropRate, Steps, Samples, Blocks, Created,
              Tags, Columns };
} // namespace

RunsView::RunsView(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("runsView"));
    auto* layout = new QVBoxLayout(this);
    auto* top = new QHBoxLayout;
    m_title = makePageTitle(this);
    top->addWidget(m_title);
    top->addStretch(1);
    auto* hint = new QLabel(tr("Ctrl+click or Shift+click selects several; right-click for rename, tag, move, delete; "
                               "right-click a column header to choose the columns."),
                            this);
    hint->setWordWrap(true);
    hint->setForegroundRole(QPalette::PlaceholderText);
    m_compare = new QPushButton(tr("Compare selected"), this);
    m_compare->setObjectName(QStringLiteral("compareSelectedButton"));
    m_compare->setEnabled(false);
    top->addWidget(m_compare);
    // The summary columns W&B's run table has (the last logged losses, throughput, drop
    // rate), then what data each run holds.
    m_table = makeReadOnlyTable(this, {tr("Run"), tr("Kind"), tr("Config record"), tr("Cluster"), tr("Final loss"),
                                       tr("Val loss"), tr("Tokens/s/GPU"), tr("Drop rate"), tr("Steps"),
                                       tr("Comm. samples"), tr("Expert-load blocks"), tr("Created"), tr("Tags")});
    const QStringList tips{{}, {}, {}, {},
                           tr("lm_loss at the last step that logged it"),
                           tr("val_loss at the last step that logged it"),
                           tr("Steady tokens/s per GPU, warm-up steps excluded (as stage 2 counts it)"),
                           tr("Token drop rate at the last step that logged it")};
    for (int c = 0; c < tips.size(); ++c)
        if (!tips[c].isEmpty())
            m_table->horizontalHeaderItem(c)->setToolTip(tips[c]);
    // The counts of communication samples and expert-load blocks wait behind the header's
    // menu: with the summary columns they would leave the names no room at 1366 px.
    m_table->setColumnHidden(Samples, true);
    m_table->setColumnHidden(Blocks, true);
    m_table->horizontalHeader()->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_table->horizontalHeader(), &QHeaderView::customContextMenuRequested, this, &RunsView::showColumnMenu);
    m_table->setSortingEnabled(true);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->setWordWrap(false);
    m_table->setTextElideMode(Qt::ElideMiddle);
    m_table->setContextMenuPolicy(Qt::CustomContextMenu);
    // Names share what is left after the short columns: the table never scrolls sideways.
    m_fit = new TableFit(m_table, {Name, Record, Cluster, Tags});
    connect(m_table, &QTableWidget::customContextMenuRequested, this, &RunsView::showMenu);
    connect(m_table, &QTableWidget::cellActivated, this, [this](int row, int) {
        if (QTableWidgetItem* item = m_table->item(row, Name))
            emit runActivated(item->text());
    });
    connect(m_table, &QTableWidget::itemSelectionChanged, this,
            [this] { m_compare->setEnabled(selectedRuns().size() >= 2); });
    connect(m_compare, &QPushButton::clicked, this, [this] {
        if (m_actions)
            m_actions->compare(selectedRuns());
    });
    layout->addLayout(top);
    layout->addWidget(hint);
    layout->addWidget(m_table, 1);
}

void RunsView::showRuns(store::ProjectStore* project, const QString& highlightRun) {
    m_project = project;
    const auto runs = project ? project->runs() : QList<store::RunRow>{};
    m_title->setText(tr("Runs (%1)").arg(runs.size()));
    m_table->setSortingEnabled(false);
    m_table->clearSelection();
    m_table->setRowCount(int(runs.size()));
    int highlightRow = -1;
    for (int r = 0; r < runs.size(); ++r) {
        const auto& run = runs[r];
        m_table->setItem(r, Name, textItem(run.name));
        m_table->setItem(r, Kind, new QTableWidgetItem(store::runKindTitle(run.kind)));
        m_table->setItem(r, Record, textItem(run.recordName));
        m_table->setItem(r, Cluster, textItem(run.clusterName.isEmpty() ? QStringLiteral("—") : run.clusterName));
        const stages::RunSummary summary = stages::runSummary(*project, run);
        m_table->setItem(r, FinalLoss, numberCell(summary.finalLoss, 3));
        m_table->setItem(r, ValLoss, numberCell(summary.valLoss, 3));
        m_table->setItem(r, Throughput, integerCell(summary.tokensPerSecondPerGpu));
        m_table->setItem(r, DropRate, percentCell(summary.dropRate));
        m_table->setItem(r, Samples, new NumberCell(run.commSampleCount));
        m_table->setItem(r, Steps, new NumberCell(run.stepCount));
        m_table->setItem(r, Blocks, new NumberCell(run.expertLoadBlocks));
        m_table->setItem(r, Created,
                         new QTableWidgetItem(run.created.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm"))));
        m_table->setItem(r, Tags, textItem(store::ProjectStore::runTags(run).join(QStringLiteral(", "))));
        if (run.name == highlightRun)
            highlightRow = r;
    }
    m_table->setSortingEnabled(true);
    m_fit->fit();
    if (highlightRow >= 0)
        selectRuns({highlightRun});
    m_compare->setEnabled(selectedRuns().size() >= 2);
}

QStringList RunsView::selectedRuns() const {
    QList<int> rows;
    for (const QModelIndex& index : m_table->selectionModel()->selectedRows())
        rows << index.row();
    std::sort(rows.begin(), rows.end());
    QStringList names;
    for (int r : std::as_const(rows))
        if (QTableWidgetItem* item = m_table->item(r, Name))
            names << item->text();
    return names;
}

void RunsView::selectRuns(const QStringList& names) {
    m_table->clearSelection();
    for (int r = 0; r < m_table->rowCount(); ++r) {
        QTableWidgetItem* item = m_table->item(r, Name);
        if (item && names.contains(item->text())) {
            m_table->selectionModel()->select(m_table->model()->index(r, 0),
                                              QItemSelectionModel::Select | QItemSelectionModel::Rows);
            m_table->setCurrentCell(r, Name, QItemSelectionModel::NoUpdate);
        }
    }
}

void RunsView::showMenu(const QPoint& pos) {
    if (!m_actions)
        return;
    // A right-click outside the selection selects the row under the pointer first.
    if (QTableWidgetItem* item = m_table->itemAt(pos); item && !item->isSelected())
        m_table->selectRow(item->row());
    const QStringList runs = selectedRuns();
    if (runs.isEmpty())
        return;
    QMenu menu(this);
    menu.setObjectName(QStringLiteral("runsMenu"));
    if (runs.size() == 1)
        menu.addAction(tr("Open"), this, [this, run = runs.first()] { emit runActivated(run); });
    m_actions->populateMenu(&menu, runs);
    menu.exec(m_table->viewport()->mapToGlobal(pos));
}

void RunsView::showColumnMenu(const QPoint& pos) {
    QMenu menu(this);
    menu.setObjectName(QStringLiteral("runsColumnsMenu"));
    for (int c = Kind; c < Columns; ++c) { // the name always shows
        QAction* a = menu.addAction(m_table->horizontalHeaderItem(c)->text());
        a->setCheckable(true);
        a->setChecked(!m_table->isColumnHidden(c));
        connect(a, &QAction::toggled, this, [this, c](bool on) { setColumnShown(c, on); });
    }
    menu.exec(m_table->horizontalHeader()->viewport()->mapToGlobal(pos));
}

void RunsView::setColumnShown(int column, bool shown) {
    if (column <= Name || column >= Columns)
        return;
    m_table->setColumnHidden(column, !shown);
    m_fit->fit();
}

QString RunsView::selectionAsTsv() const {
    QString tsv;
    const auto ranges = m_table->selectedRanges();
    for (const auto& range : ranges) {
        for (int r = range.topRow(); r <= range.bottomRow(); ++r) {
            QStringList cells;
            for (int c = range.leftColumn(); c <= range.rightColumn(); ++c)
                cells << (m_table->item(r, c) ? m_table->item(r, c)->text() : QString());
            tsv += cells.join(QLatin1Char('\t')) + QLatin1Char('\n');
        }
    }
    return tsv;
}

void RunsView::keyPressEvent(QKeyEvent* event) {
    if (event->matches(QKeySequence::Copy)) {
        QApplication::clipboard()->setText(selectionAsTsv());
        return;
    }
    if (event->matches(QKeySequence::Delete) && m_actions && !selectedRuns().isEmpty()) {
        m_actions->remove(selectedRuns());
        return;
    }
    QWidget::keyPressEvent(event);
}

} // namespace moewb::gui
