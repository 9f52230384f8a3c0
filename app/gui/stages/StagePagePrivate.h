#pragma once
// What StagePage.cpp, StageVerdictBox.cpp and StageThresholds.cpp share: the page's
// widgets and state, and the evaluation that runs on a pool thread. Not for other files.
#include "StagePage.h"

#include "stages/StageEvaluation.h"

#include <QString>
#include <QStringList>
#include <QtGlobal>

#include <optional>

class QFrame;
class QLabel;
class QListWidget;
class QProgressBar;
class QPushButton;
class QScrollArea;
class QTableWidget;
class QToolButton;
template <typename T>
class QFutureWatcher;

namespace moewb::gui {

class CollapsibleSection;

// What the worker thread hands back.
struct WorkerOutcome {
    int generation = 0;
    std::optional<stages::StageEvaluation> evaluation;
    QString error;
};

// Runs on a pool thread: its own ProjectStore on the same file (ProjectStore.h).
WorkerOutcome evaluateInWorker(int generation, const QString& path, int stage, const QStringList& runNames,
                               bool preview);

struct StagePage::Private {
    int stage = 1;
    store::ProjectStore* project = nullptr;

    QLabel* title = nullptr;
    QToolButton* infoButton = nullptr;
    QLabel* question = nullptr;
    QLabel* teaching = nullptr;
    QLabel* noProject = nullptr;
    QLabel* lockLabel = nullptr;
    CollapsibleSection* inputs = nullptr;
    QListWidget* runList = nullptr;
    QLabel* runHint = nullptr;
    QPushButton* evaluateButton = nullptr;
    QPushButton* previewButton = nullptr; // a locked stage: its data, no verdict
    QPushButton* cancelButton = nullptr;
    QProgressBar* progress = nullptr;
    QLabel* progressLabel = nullptr;
    QFrame* verdictFrame = nullptr;
    QLabel* verdictTitle = nullptr;
    QLabel* verdictBody = nullptr;
    QToolButton* detailsButton = nullptr; // thresholds and notes of the verdict, folded
    QLabel* verdictDetails = nullptr;
    QPushButton* overrideButton = nullptr;
    QPushButton* reevaluateButton = nullptr; // new data since the saved verdict
    QPushButton* confirmOverrideButton = nullptr;
    QPushButton* withdrawOverrideButton = nullptr;
    CollapsibleSection* thresholdSection = nullptr;
    QTableWidget* thresholds = nullptr;
    QPushButton* suggestButton = nullptr;
    QWidget* resultsBox = nullptr;
    QScrollArea* scroll = nullptr;
    QWidget* content = nullptr;

    QFutureWatcher<WorkerOutcome>* watcher = nullptr;
    // Loading the project's data for the plots and tables before Evaluate (no verdict
    // decided or saved): its own watcher, dropped when Evaluate starts.
    QFutureWatcher<WorkerOutcome>* lookWatcher = nullptr;
    bool lastIsLook = false;   // d->last holds loaded data, not an evaluation
    QString lookSignature;     // the runs the loaded data came from
    int generation = 0;
    bool evaluating = false;
    bool fillingThresholds = false;
    bool fitQueued = false; // a fitPlotHeights is posted
    std::optional<stages::StageEvaluation> last;
};

} // namespace moewb::gui
