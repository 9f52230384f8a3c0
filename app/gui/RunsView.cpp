#include "RunsView.h"

#include "PageWidgets.h"

#include "store/ProjectStore.h"

#include <QApplication>
#include <QClipboard>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

namespace moewb::gui {

namespace {

// Sorts numerically while showing the formatted text.
class NumberItem : public QTableWidgetItem {
public:
    explicit NumberItem(qint64 v) : QTableWidgetItem(QString::number(v)), m_v(v) {
        setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    }
    bool operator<(const QTableWidgetItem& other) const override {
        if (auto* n = dynamic_cast<const NumberItem*>(&other))
            return m_v < n->m_v;
        return QTableWidgetItem::operator<(other);
    }

private:
    qint64 m_v;
};
} // namespace

RunsView::RunsView(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("runsView"));
    auto* layout = new QVBoxLayout(this);
    m_title = makePageTitle(this);
    m_table = makeReadOnlyTable(this, {tr("Run"), tr("Kind"), tr("Config record"), tr("Cluster"), tr("Comm. samples"),
                                       tr("Steps"), tr("Expert-load blocks"), tr("Created")});
    m_table->setSortingEnabled(true);
    layout->addWidget(m_title);
    layout->addWidget(m_table, 1);
}

void RunsView::showRuns(store::ProjectStore* project, const QString& highlightRun) {
    const auto runs = project ? project->runs() : QList<store::RunRow>{};
    m_title->setText(tr("Runs (%1)").arg(runs.size()));
    m_table->setSortingEnabled(false);
    m_table->setRowCount(int(runs.size()));
    int highlightRow = -1;
    for (int r = 0; r < runs.size(); ++r) {
        const auto& run = runs[r];
        m_table->setItem(r, 0, new QTableWidgetItem(run.name));
        m_table->setItem(r, 1, new QTableWidgetItem(store::runKindTitle(run.kind)));
        m_table->setItem(r, 2, new QTableWidgetItem(run.recordName));
        m_table->setItem(r, 3, new QTableWidgetItem(run.clusterName.isEmpty() ? QStringLiteral("—") : run.clusterName));
        m_table->setItem(r, 4, new NumberItem(run.commSampleCount));
        m_table->setItem(r, 5, new NumberItem(run.stepCount));
        m_table->setItem(r, 6, new NumberItem(run.expertLoadBlocks));
        m_table->setItem(r, 7,
                         new QTableWidgetItem(run.created.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm"))));
        if (run.name == highlightRun)
            highlightRow = r;
    }
    m_table->setSortingEnabled(true);
    if (highlightRow >= 0)
        m_table->selectRow(highlightRow);
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
    QWidget::keyPressEvent(event);
}

} // namespace moewb::gui
