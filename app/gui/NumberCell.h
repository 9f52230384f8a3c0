#pragma once
// A table cell that shows formatted text and sorts by its number; a missing value
// sorts last in either direction (not as 0). Right-aligned. Used by every table of
// numbers: the runs list, the comparison of runs, the stage pages' results.
#include <QTableWidgetItem>

#include <optional>

namespace moewb::gui {

class NumberCell : public QTableWidgetItem {
public:
    NumberCell(std::optional<double> value, const QString& text);
    // A count, grouped as everywhere ("2,000").
    explicit NumberCell(qint64 value);
    std::optional<double> value() const { return m_value; }
    bool operator<(const QTableWidgetItem& other) const override;

private:
    std::optional<double> m_value;
};

// Cells written as the CLI and the report write them (common/Units.h), sorted by value;
// a missing or non-finite value shows "–": a share, rate or difference as "14.3 %", a
// ratio as "1.6×", a count as "19,292".
QTableWidgetItem* percentCell(std::optional<double> fraction);
// A plain measure with fixed decimals ("2.842").
QTableWidgetItem* numberCell(std::optional<double> value, int decimals);
QTableWidgetItem* ratioCell(std::optional<double> ratio);
QTableWidgetItem* integerCell(std::optional<double> value);

} // namespace moewb::gui
