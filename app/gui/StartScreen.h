#pragma once
// The first screen when no project is open (docs/UX.md, "First start"): New
// evaluation…, Open…, the recent projects (most recent first; a missing file is
// marked and cannot be opened), "Open the demo (synthetic data)" and "Measure a reference
// evaluation on this computer" (ReferenceDialog).
#include <QWidget>

class QLabel;
class QListWidget;
class QPushButton;

namespace moewb::gui {

class StartScreen : public QWidget {
    Q_OBJECT
public:
    explicit StartScreen(QWidget* parent = nullptr);
    // Re-reads the recent list from QSettings.
    void refresh();
    QListWidget* recentList() const { return m_recent; }
    QPushButton* demoButton() const { return m_demo; }
    QPushButton* referenceButton() const { return m_reference; }
    // While the demo is being written: the button is disabled and says so.
    void setDemoBusy(bool busy);
    // Whether this build can write the demo (the demo library is linked).
    void setDemoAvailable(bool available);

signals:
    void newRequested();
    void openRequested();
    void demoRequested();
    void referenceRequested();
    void openPath(const QString& path);

private:
    QListWidget* m_recent = nullptr;
    QPushButton* m_demo = nullptr;
    QPushButton* m_reference = nullptr;
    QLabel* m_recentHint = nullptr;
};

} // namespace moewb::gui
