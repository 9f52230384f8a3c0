#pragma once
// One config record: every field with its value; missing and invalid fields are
// marked with "!" and a message, and the header says whether runs using it can be compared.
#include <QWidget>

class QLabel;
class QTableWidget;

namespace moewb::store {
struct ConfigRecordRow;
}

namespace moewb::gui {

class RecordView : public QWidget {
    Q_OBJECT
public:
    explicit RecordView(QWidget* parent = nullptr);
    void showRecord(const store::ConfigRecordRow& row);
    QTableWidget* fieldTable() const { return m_table; }
    QString statusText() const;

private:
    QLabel* m_title;
    QLabel* m_status;
    QTableWidget* m_table;
};

} // namespace moewb::gui
