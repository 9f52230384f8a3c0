#pragma once
// The project's runs as a sortable table (docs/gui.md, "Runs"): beside each name its
// record and cluster, the summary W&B's run table shows (final and validation loss,
// tokens/s/GPU, drop rate; stages/RunSummary.h; numbers sort as numbers, a missing
// value shows "—" and sorts last), and what data it holds (its steps; samples and
// expert-load blocks from the header's context menu). Several can be
// selected (Ctrl/Shift+click); the context menu renames, tags, moves, deletes and
// compares them (RunActions); double-click or Return opens a run's page; Ctrl+C
// copies the selection as TSV. Columns share the width (long names are elided, whole
// in the tooltip), so the table never scrolls sideways.
#include <QWidget>

class QLabel;
class QPushButton;
class QTableWidget;

namespace moewb::store {
class ProjectStore;
}

namespace moewb::gui {

class RunActions;
class TableFit;

class RunsView : public QWidget {
    Q_OBJECT
public:
    explicit RunsView(QWidget* parent = nullptr);
    void setActions(RunActions* actions) { m_actions = actions; }
    void showRuns(store::ProjectStore* project, const QString& highlightRun = {});
    QTableWidget* table() const { return m_table; }
    QPushButton* compareButton() const { return m_compare; }
    QString selectionAsTsv() const;
    // The names of the selected runs, top to bottom.
    QStringList selectedRuns() const;
    // Selects exactly these runs.
    void selectRuns(const QStringList& names);
    // Shows or hides a column (the header's context menu; the run's name always shows).
    // Hidden at first: communication samples and expert-load blocks.
    void setColumnShown(int column, bool shown);

signals:
    void runActivated(const QString& run);

protected:
    void keyPressEvent(QKeyEvent* event) override;

private:
    void showMenu(const QPoint& pos);
    void showColumnMenu(const QPoint& pos);

    RunActions* m_actions = nullptr;
    store::ProjectStore* m_project = nullptr;
    QLabel* m_title;
    QPushButton* m_compare;
    QTableWidget* m_table;
    TableFit* m_fit;
};

} // namespace moewb::gui
