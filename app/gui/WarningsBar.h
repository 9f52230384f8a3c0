#pragma once
// The bottom bar fed by the misjudgment checks (core/checks): "⚠ 2 warnings: first ·
// second ▸". Clicking it opens the list with each warning's explanation and fix.
#include "checks/MisjudgmentChecks.h"

#include <QDialog>
#include <QWidget>

class QPushButton;
class QTextBrowser;

namespace moewb::store {
class ProjectStore;
}

namespace moewb::gui {

// The list behind the bar: every warning with what was found and what to do.
class WarningsDialog : public QDialog {
    Q_OBJECT
public:
    explicit WarningsDialog(QWidget* parent = nullptr);
    void setWarnings(const QList<checks::MisjudgmentWarning>& warnings);
    QString text() const;

private:
    QTextBrowser* m_text;
};

class WarningsBar : public QWidget {
    Q_OBJECT
public:
    explicit WarningsBar(QWidget* parent = nullptr);
    // Runs the checks over the project (null: the bar is empty).
    void setProject(const store::ProjectStore* project);
    void setWarnings(const QList<checks::MisjudgmentWarning>& warnings);
    const QList<checks::MisjudgmentWarning>& warnings() const { return m_warnings; }
    QString text() const;
    QPushButton* button() const { return m_button; }
    // Opens (and returns) the list of warnings.
    WarningsDialog* openList();

private:
    QList<checks::MisjudgmentWarning> m_warnings;
    QPushButton* m_button;
    WarningsDialog* m_dialog = nullptr;
};

} // namespace moewb::gui
