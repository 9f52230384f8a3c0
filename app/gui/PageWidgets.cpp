#include "PageWidgets.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>

namespace moewb::gui {

QLabel* makePageTitle(QWidget* parent, double scale) {
    auto* title = new QLabel(parent);
    QFont f = title->font();
    f.setPointSizeF(f.pointSizeF() * scale);
    f.setBold(true);
    title->setFont(f);
    return title;
}

QTableWidget* makeReadOnlyTable(QWidget* parent, const QList<QString>& headers) {
    auto* table = new QTableWidget(parent);
    table->setColumnCount(int(headers.size()));
    table->setHorizontalHeaderLabels(headers);
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table->horizontalHeader()->setStretchLastSection(true);
    table->verticalHeader()->setVisible(false);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setAlternatingRowColors(true);
    table->setTabKeyNavigation(false); // the arrows move between cells, Tab moves on
    return table;
}

} // namespace moewb::gui
