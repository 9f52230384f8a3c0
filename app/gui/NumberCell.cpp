#include "NumberCell.h"

#include "common/Units.h"

#include <QHeaderView>
#include <QTableWidget>

#include <cmath>

namespace moewb::gui {

namespace {
QTableWidgetItem* formattedCell(std::optional<double> value, QString (*format)(double)) {
    if (value && !std::isfinite(*value))
        value.reset();
    return new NumberCell(value, value ? format(*value) : QStringLiteral("–"));
}
} // namespace

QTableWidgetItem* numberCell(std::optional<double> value, int decimals) {
    if (value && !std::isfinite(*value))
        value.reset();
    return new NumberCell(value, value ? QString::number(*value, 'f', decimals) : QStringLiteral("–"));
}

QTableWidgetItem* percentCell(std::optional<double> fraction) {
    return formattedCell(fraction, [](double v) { return units::formatPercent(v); });
}

QTableWidgetItem* ratioCell(std::optional<double> ratio) {
    return formattedCell(ratio, [](double v) { return units::formatRatio(v); });
}

QTableWidgetItem* integerCell(std::optional<double> value) {
    return formattedCell(value, [](double v) { return units::formatInteger(v); });
}

NumberCell::NumberCell(std::optional<double> value, const QString& text) : QTableWidgetItem(text), m_value(value) {
    setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
}

NumberCell::NumberCell(qint64 value) : NumberCell(double(value), units::formatInteger(double(value))) {}

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
