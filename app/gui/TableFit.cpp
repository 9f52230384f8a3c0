#include "TableFit.h"

#include <QEvent>
#include <QHeaderView>
#include <QStyle>
#include <QTableWidget>

#include <algorithm>

namespace moewb::gui {

TableFit::TableFit(QTableWidget* table, QList<int> elastic) : QObject(table), m_table(table), m_elastic(std::move(elastic)) {
    QHeaderView* header = table->horizontalHeader();
    header->setStretchLastSection(false);
    header->setSectionResizeMode(QHeaderView::Fixed);
    table->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    table->setTextElideMode(Qt::ElideMiddle);
    table->viewport()->installEventFilter(this);
}

bool TableFit::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_table->viewport() && event->type() == QEvent::Resize)
        fit();
    return QObject::eventFilter(watched, event);
}

int TableFit::contentWidth(int column) const {
    const QFontMetrics cells = m_table->fontMetrics();
    int width = 0;
    if (const QTableWidgetItem* h = m_table->horizontalHeaderItem(column))
        // The header's text, its margins and the sort arrow.
        width = QFontMetrics(m_table->horizontalHeader()->font()).horizontalAdvance(h->text()) +
                m_table->horizontalHeader()->style()->pixelMetric(QStyle::PM_HeaderMargin) * 2 + 16;
    const int rows = std::min(m_table->rowCount(), 1000);
    for (int r = 0; r < rows; ++r) {
        const QTableWidgetItem* item = m_table->item(r, column);
        if (!item)
            continue;
        int w = cells.horizontalAdvance(item->text());
        if (!item->icon().isNull())
            w += m_table->iconSize().isValid() ? m_table->iconSize().width() + 6 : 22;
        width = std::max(width, w);
    }
    return width;
}

void TableFit::fit() {
    QHeaderView* header = m_table->horizontalHeader();
    const int columns = m_table->columnCount();
    const int available = m_table->viewport()->width();
    if (columns == 0 || available <= 0)
        return;
    const int pad = m_table->fontMetrics().averageCharWidth() * 2;
    QList<int> want(columns);
    int total = 0;
    QList<int> elastic; // the elastic columns shown, in the order given
    for (int c : std::as_const(m_elastic))
        if (c >= 0 && c < columns && !header->isSectionHidden(c))
            elastic << c;
    for (int c = 0; c < columns; ++c) {
        want[c] = header->isSectionHidden(c) ? 0 : contentWidth(c) + pad; // a hidden column takes nothing
        total += want[c];
    }
    QList<int> width = want;
    if (total <= available) {
        // The room left over goes to the elastic columns, alike.
        const int extra = available - total;
        const int share = elastic.isEmpty() ? 0 : extra / int(elastic.size());
        for (int c : std::as_const(elastic))
            width[c] += share;
        if (elastic.isEmpty())
            width[columns - 1] += extra;
    } else {
        // Too wide: the elastic columns shrink first (not below a few characters), the
        // last named first, so the first (the run's name) stays whole the longest...
        const int minimum = m_table->fontMetrics().averageCharWidth() * 8;
        int excess = total - available;
        for (auto c = elastic.crbegin(); c != elastic.crend() && excess > 0; ++c) {
            const int cut = std::min(want[*c] - std::min(want[*c], minimum), excess);
            width[*c] -= cut;
            excess -= cut;
        }
        int now = 0;
        for (int w : std::as_const(width))
            now += w;
        // ...then every column alike.
        if (now > available) {
            const double scale = double(available) / now;
            for (int& w : width)
                w = w > 0 ? std::max(1, int(w * scale)) : 0;
        }
    }
    int sum = 0;
    for (int c = 0; c < columns; ++c)
        sum += width[c];
    // Rounding: never a pixel over.
    for (int c = columns - 1; c >= 0 && sum > available; --c) {
        const int cut = std::min(sum - available, std::max(0, width[c] - 1));
        width[c] -= cut;
        sum -= cut;
    }
    for (int c = 0; c < columns; ++c)
        if (!header->isSectionHidden(c))
            header->resizeSection(c, width[c]);
}

} // namespace moewb::gui
