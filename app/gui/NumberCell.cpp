#include "NumberCell.h"

#include <QHeaderView>
#include <QTableWidget>

namespace moewb::gui {

NumberCell::NumberCell(std::optional<double> value, const QString& text) : QTableWidgetItem(text), m_value(value) {
    setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
}

NumberCell::NumberCell(qint64 value) : NumberCell(double(value), QString::number(value)) {}

bool NumberCell::operator<(const QTableWidgetItem& other) const {
    const auto* n = dynamic_cast<const NumberCell*>(&other);
    if (!n)
        return QTableWidgetItem::operator<(other);
    if (m_value && n->m_value)
        return *m_value < *n->m_value;
    if (!m_value && !n->m_value)
        return false;
    // Descending order places b before a when a < b: a missing value is then the
    // "smaller" one, so it still ends up last.
    const bool descending =
        tableWidget() && tableWidget()->horizontalHeader()->sortIndicatorOrder() == Qt::DescendingOrder;
    return descending ? !m_value.has_value() : m_value.has_value();
}

} // namespace moewb::gui
