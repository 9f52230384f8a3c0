#pragma once
// The bottom bar fed by the misjudgment checks (core/checks): "⚠ 2 warnings: first ·
// second ▸". Clicking it opens the list with each warning's explanation and fix.
#include "checks/MisjudgmentChecks.h"

#include <QDialog>
#include <QSet>
#include <QWidget>

class QPushButton;
class QTextBrowser;

namespace moewb::store {
class ProjectStore;
}

namespace moewb::gui {

// The list behind the bar: every warning with what was found and what to do. A
// warning with several findings shows its one-line summary ("4 run pairs faster but
// with a worse loss: …") and a details toggle that unfolds each finding.
class WarningsDialog : public QDialog {
    Q_OBJECT
public:
    explicit WarningsDialog(QWidget* parent = nullptr);
    void setWarnings(const QList<checks::MisjudgmentWarning>& warnings);
    QString text() const;
    QTextBrowser* browser() const { return m_text; }
    // The details of warning `id` (1..6) unfolded; the toggle link does the same.
    void setDetailsShown(int id, bool shown);
    bool detailsShown(int id) const { return m_shown.contains(id); }

private:
    void render();

    QTextBrowser* m_text;
    QList<checks::MisjudgmentWarning> m_warnings;
    QSet<int> m_shown;
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
