#pragma once
// Widgets the four stage pages share: a results table that sorts numbers as numbers
// and copies as TSV, a collapsible section, and the override dialog.
#include "NumberCell.h"

#include <QDialog>
#include <QTableWidget>
#include <QTableWidgetItem>
#include <QWidget>

#include <optional>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QToolButton;
class QVBoxLayout;

namespace moewb::gui {

class TableFit;

// A read-only, sortable table; numbers right-aligned; Ctrl+C copies the selected
// rows (all rows when nothing is selected) as TSV with the header line.
class ResultTable : public QTableWidget {
    Q_OBJECT
public:
    ResultTable(const QStringList& headers, QWidget* parent = nullptr);
    // Replaces all rows. Call addRow between beginRows/endRows (sorting is held off).
    void beginRows();
    void addRow(const QList<QTableWidgetItem*>& cells);
    void endRows();
    // The selected rows (all rows when none is selected) as TSV, header first.
    QString toTsv() const;
    // Grows to show every row up to maxRows, then scrolls.
    void fitHeight(int maxRows = 14);
    // Column widths that fill the table's width without a horizontal scroll bar
    // (TableFit.h: headers wrap before columns shrink alike); the header's growth
    // grows the table.
    void fitColumns();

protected:
    void keyPressEvent(QKeyEvent* event) override;

private:
    TableFit* m_fit;
    int m_maxRows = 14;
};

// Installs (once) an application-wide filter: spin boxes, sliders and combo boxes
// take the mouse wheel only while they have the keyboard focus; otherwise the wheel
// goes to the page, which scrolls.
void installWheelGuard();

// Text cell; number cell with `decimals` decimals ("–" when empty or not finite).
QTableWidgetItem* textCell(const QString& text);

// A titled section whose body folds away with a click on its header.
class CollapsibleSection : public QWidget {
    Q_OBJECT
public:
    CollapsibleSection(const QString& title, QWidget* parent = nullptr);
    QVBoxLayout* body() const { return m_bodyLayout; }
    void setExpanded(bool expanded);
    bool isExpanded() const;

private:
    QToolButton* m_header = nullptr;
    QWidget* m_body = nullptr;
    QVBoxLayout* m_bodyLayout = nullptr;
};

// Asks for the justification (required) and the author of an override.
class OverrideDialog : public QDialog {
    Q_OBJECT
public:
    // `justification`: the text to start from (confirming an override on older data).
    OverrideDialog(int stage, const QStringList& stopReasons, QWidget* parent = nullptr,
                   const QString& justification = {});
    QString justification() const;
    QString author() const;
    QPlainTextEdit* justificationEdit() const { return m_text; }
    QLabel* errorLabel() const { return m_error; }

public slots:
    void accept() override; // refuses a blank justification, saying so

private:
    void fitToScreen();
    QPlainTextEdit* m_text = nullptr;
    QLineEdit* m_author = nullptr;
    QLabel* m_error = nullptr;
    QWidget* m_reasons = nullptr; // the scrolling stop reasons, when there are any
};

} // namespace moewb::gui
