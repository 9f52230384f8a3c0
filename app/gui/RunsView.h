#pragma once
// The project's runs as a sortable table; Ctrl+C copies the selection as TSV.
#include <QWidget>

class QLabel;
class QTableWidget;

namespace moewb::store {
class ProjectStore;
}

namespace moewb::gui {

class RunsView : public QWidget {
    Q_OBJECT
public:
    explicit RunsView(QWidget* parent = nullptr);
    void showRuns(store::ProjectStore* project, const QString& highlightRun = {});
    QTableWidget* table() const { return m_table; }
    QString selectionAsTsv() const;

protected:
    void keyPressEvent(QKeyEvent* event) override;

private:
    QLabel* m_title;
    QTableWidget* m_table;
};

} // namespace moewb::gui
