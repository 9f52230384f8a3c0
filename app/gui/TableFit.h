#pragma once
// Column widths that follow a table's width, for every table of the window (the runs
// list, the comparison of runs, the stage pages' results): the table never scrolls
// sideways. Each shown column gets its content's width (cells and one-line header).
// Room left over goes to the `elastic` columns (names), alike, or to the last column
// when there are none. When the columns do not fit, every column is capped at one
// common width, the largest that fits, never below its floor (its header's widest
// unbreakable piece, so headers wrap at their spaces rather than cut, and a few
// characters of its cells; the first elastic column's floor is its whole content while
// the others' floors leave it room): the widest give up room first, long headers wrap (the
// header grows to the most wrapped one), long text elides in the middle (its tooltip
// has it whole). Only then do all columns shrink alike. Hidden columns take no width.
// Refitted on every resize of the viewport and on fit(); a column the user resizes
// keeps its width until the next fit.
#include <QList>
#include <QObject>

class QTableWidget;

namespace moewb::gui {

class TableFit : public QObject {
    Q_OBJECT
public:
    explicit TableFit(QTableWidget* table, QList<int> elastic = {});
    void fit();
    // The header's height after the last fit: one line, or its most wrapped text.
    int headerHeight() const { return m_headerHeight; }

signals:
    void headerHeightChanged(int height);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void fitOnce();
    void fitHeaderHeight();

    QTableWidget* m_table;
    QList<int> m_elastic;
    bool m_fitting = false; // inside fit()
    bool m_refit = false;   // the viewport changed while fitting
    int m_headerHeight = 0;
};

} // namespace moewb::gui
