#pragma once
// The few widgets every page shares, built one way: a page title and a read-only table.
#include <QList>

class QLabel;
class QString;
class QTableWidget;
class QWidget;

namespace moewb::gui {

// A bold title, larger than body text by `scale`.
QLabel* makePageTitle(QWidget* parent, double scale = 1.4);
// Read-only, row-selecting, alternating rows, no row numbers, last column stretched.
QTableWidget* makeReadOnlyTable(QWidget* parent, const QList<QString>& headers);

} // namespace moewb::gui
