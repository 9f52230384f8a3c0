#pragma once
// Column widths that follow the table's width (the runs list, the comparison of runs):
// each column gets its content's width; what is left over goes to the `elastic`
// columns (names), and when the columns do not fit, the elastic columns give up width
// first (down to a few characters, their text elided, whole in the tooltip), then all
// alike. The table never scrolls sideways. Refitted on every resize and on fit().
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
