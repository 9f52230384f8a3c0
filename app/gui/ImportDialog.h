#pragma once
// File → Import… (Ctrl+I, or files dropped on the window): files and folders that one
// training left behind — a Megatron-Core --save folder with its rank files, a
// TensorBoard folder, console logs — become ONE run of a chosen config record, or are
// added to an existing run, as `moewb import PATH... --run NAME` / `--into NAME` does
// (core/runimport, docs/formats.md "One run from many files").
//
// Whenever the list, the record or an option changes the files are read and checked
// in the worker (ImportJob::startPlan) and the plan is shown — which file was read as
// what, how many rows, what it gave; what was skipped and why; what the merge did — or
// every error, naming file and line. Nothing is stored until Import, which stores
// exactly the plan shown (ImportJob::startStore) with progress and Cancel.
#include "ImportJob.h"

#include <QDialog>
#include <QStringList>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QTreeWidget;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QTableWidget;
class QTimer;

namespace moewb::store {
class ProjectStore;
}

namespace moewb::gui {

class ElidedLabel;

class ImportDialog : public QDialog {
    Q_OBJECT
public:
    ImportDialog(store::ProjectStore* project, QWidget* parent = nullptr);
    ~ImportDialog() override;

    // The files and folders to import: replace the list, add to it (duplicates are
    // left out), or the list as it is. Each change checks the files again.
    void setPaths(const QStringList& paths);
    void addPaths(const QStringList& paths);
    void setFile(const QString& path) { setPaths({path}); }
    QStringList paths() const;
    void setRecord(const QString& name);
    QString record() const;
    // A new run of this name (empty: the first path's name, made unique).
    void setRunName(const QString& name);
    // Add to this existing run instead of making a new one (its record is used); an
    // empty name goes back to a new run.
    void setIntoRun(const QString& name);
    void setAllowPartialSteps(bool allow);
    void setExclude(const QStringList& patterns);
    // Reads and checks the files now (in the worker); the plan or the errors follow.
    void check();
    bool isChecking() const;
    // A plan without errors is there to import.
    bool hasPlan() const { return bool(m_plan); }
    QStringList planErrors() const { return m_errors; }
    // Stores the plan shown. While the files are still being checked it is stored once
    // the check finds no error. False (with the reason in resultText()) when it cannot.
    bool startImport();
    void cancelImport();
    // An import is being stored, or waits for its check.
    bool isRunning() const;
    // What the last check or import came to; with the errors, when the files have any.
    QString resultText() const;
    // The formats the plan read, joined by '+' ("megatron-tpe-jsonl+megatron-log").
    QString detectedFormat() const;
    QProgressBar* progressBar() const { return m_progress; }
    QTableWidget* planTable() const { return m_planTable; }
    // Closing the dialog during an import cancels it and waits for the rollback.
    void reject() override;
    // The size it opens with where the screen has room (it fits 1366 × 768).
    static QSize preferredSize();

signals:
    // A run was stored: the window reloads.
    void imported(const QString& runName);

protected:
    void keyPressEvent(QKeyEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void browseFiles();
    void browseFolder();
    void addTypedPath();
    void removeSelected();
    void pathsChanged();
    void reloadRuns();
    void recordChanged();
    void modeChanged();
    void invalidatePlan();
    void startCheck();
    void onPlanned(quint64 generation, ImportPlanPtr plan, const QStringList& errors, bool cancelled);
    void onStored(bool ok, const QString& message, bool cancelled);
    void showPlan();
    void showErrors();
    void showCollectiveChoice();
    void fitPlanColumns();
    void setBusy(bool busy);
    void updateState();
    bool storePlan();
    QString defaultRunName() const;
    // Why the plan cannot be stored as it stands (name taken, no record); empty when it can.
    QString blocker() const;
    bool intoMode() const;

    store::ProjectStore* m_project;
    ImportJob* m_job;
    QTimer* m_checkTimer;
    QLineEdit* m_pathEdit;
    QTreeWidget* m_paths;
    QPushButton* m_removeButton;
    QComboBox* m_record;
    QLabel* m_recordWarning;
    QComboBox* m_mode; // a new run | added to an existing run
    QLineEdit* m_runName;
    QComboBox* m_intoRunName;
    QComboBox* m_format;
    QComboBox* m_collective; // moewb import --collective, for a log of several all-to-all tests
    QLineEdit* m_exclude;
    QCheckBox* m_allowPartial;
    QCheckBox* m_strict; // moewb import --strict
    QPushButton* m_checkButton;
    QLabel* m_planSummary;
    QTableWidget* m_planTable;
    QPlainTextEdit* m_planNotes;
    QProgressBar* m_progress;
    ElidedLabel* m_now;
    QLabel* m_result;
    QPushButton* m_import;
    QPushButton* m_cancel;
    QDialogButtonBox* m_buttons;

    ImportPlanPtr m_plan;     // the plan shown, without errors; null when there is none
    QStringList m_errors;     // the last check's errors
    QStringList m_planPaths;  // what the plan was made of (for the messages)
    quint64 m_generation = 0; // bumped whenever the inputs change
    bool m_recheck = false;   // inputs changed while a check ran
    bool m_importQueued = false;
    bool m_storing = false;
    bool m_cancelling = false;
};

} // namespace moewb::gui
