#pragma once
// Start screen ▸ "Measure a reference evaluation on this computer" (docs/gui.md,
// docs/reference.md): where to write the project, quick or full, then progress and
// Cancel while app/reference's ReferenceEvaluation runs on a worker thread. At the end
// the dialog closes and finishedProject(path) opens the project. Cancel ends the
// trainings and probes and keeps nothing; closing the dialog while it runs cancels too.
#include <QDialog>

#include <memory>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QThread;

namespace moewb::reference {
class ReferenceEvaluation;
}

namespace moewb::gui {

class ReferenceDialog : public QDialog {
    Q_OBJECT
public:
    explicit ReferenceDialog(QWidget* parent = nullptr);
    ~ReferenceDialog() override;

    // The default project: reference.moewb beside the default project.
    static QString defaultPath();
    bool running() const { return m_thread != nullptr; }

    // Tests: the widgets.
    QLineEdit* pathEdit() const { return m_path; }
    QCheckBox* quickBox() const { return m_quick; }
    QPushButton* startButton() const { return m_start; }
    QPushButton* cancelButton() const { return m_cancel; }
    QProgressBar* progressBar() const { return m_progress; }
    QLabel* statusLabel() const { return m_status; }

    void start();

signals:
    void finishedProject(const QString& path);

protected:
    void reject() override;
    void closeEvent(QCloseEvent* event) override;

private:
    void onProgress(double fraction, const QString& what);
    void onLog(const QString& line);
    void setRunning(bool running);

    QLineEdit* m_path = nullptr;
    QPushButton* m_browse = nullptr;
    QCheckBox* m_quick = nullptr;
    QCheckBox* m_force = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_status = nullptr;
    QPlainTextEdit* m_log = nullptr;
    QPushButton* m_start = nullptr;
    QPushButton* m_cancel = nullptr;
    QThread* m_thread = nullptr;
    std::shared_ptr<reference::ReferenceEvaluation> m_evaluation;
    bool m_cancelling = false;
};

} // namespace moewb::gui
