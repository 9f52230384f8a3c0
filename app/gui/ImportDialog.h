#pragma once
// File → Import…: a measurement file into a chosen config record, as one run. The
// format is detected (importers::detectFormat) or chosen; the import runs off the
// GUI thread (ImportJob) with a progress bar and Cancel; an error names the file,
// line and field.
#include <QDialog>

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;

namespace moewb::store {
class ProjectStore;
}

namespace moewb::gui {

class ImportJob;

class ImportDialog : public QDialog {
    Q_OBJECT
public:
    ImportDialog(store::ProjectStore* project, QWidget* parent = nullptr);
    ~ImportDialog() override;

    void setFile(const QString& path);
    void setRecord(const QString& name);
    void setRunName(const QString& name);
    // Starts the import; false (with the reason in resultText()) when it cannot.
    bool startImport();
    void cancelImport();
    bool isRunning() const;
    QString resultText() const;
    QString detectedFormat() const { return m_detected; }
    QProgressBar* progressBar() const { return m_progress; }
    // Closing the dialog during an import cancels it and waits for the rollback.
    void reject() override;

signals:
    // A run was stored: the window reloads.
    void imported(const QString& runName);

private:
    void browse();
    void detect();
    void setBusy(bool busy);

    store::ProjectStore* m_project;
    ImportJob* m_job;
    QLineEdit* m_file;
    QComboBox* m_format;
    QComboBox* m_record;
    QLineEdit* m_runName;
    QLabel* m_detectedLabel;
    QProgressBar* m_progress;
    QLabel* m_now;
    QLabel* m_result;
    QPushButton* m_import;
    QPushButton* m_cancel;
    QDialogButtonBox* m_buttons;
    QString m_detected;
    bool m_cancelling = false;
};

} // namespace moewb::gui
