#pragma once
// Column widths that follow the table's width (the runs list, the comparison of runs):
// each column gets its content's width; what is left over goes to the `elastic`
// columns (names), and when the columns do not fit, the elastic columns give up width
// first, the last of the list first (down to a few characters, their text elided in the
// middle, whole in the tooltip), so the first one stays whole the longest; then all
// alike. Hidden columns take no width. The table never scrolls sideways. Refitted on
// every resize and on fit().
#include <QList>
#include <QObject>

class QTableWidget;

namespace moewb::gui {

class TableFit : public QObject {
    Q_OBJECT
public:
    TableFit(QTableWidget* table, QList<int> elastic);
    void fit();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    int contentWidth(int column) const;

    QTableWidget* m_table;
    QList<int> m_elastic;
};

} // namespace moewb::gui
