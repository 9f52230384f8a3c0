#pragma once
// One page of the four-stage checklist (docs/gui.md, "Stage pages"): the stage's
// question, its inputs, [Evaluate] (run off the GUI thread on a ProjectStore of its
// own), the results tables and plots, and the verdict with its thresholds, their
// source, the next step and — on a stop — an override with a written justification.
// The shell creates one page per stage and re-reads them when the project changes.
#include <QStringList>
#include <QWidget>

#include <memory>

class QFrame;
class QVBoxLayout;

namespace moewb::store {
class ProjectStore;
struct RunRow;
} // namespace moewb::store

namespace moewb::stages {
struct StageEvaluation;
struct StageStatus;
} // namespace moewb::stages

namespace moewb::gui {

class CollapsibleSection;

class StagePage : public QWidget {
    Q_OBJECT
public:
    // stage: 1..4 (anything else is clamped into that range).
    static StagePage* create(int stage, QWidget* parent = nullptr);
    ~StagePage() override;

    int stage() const;
    // Not owned; may be null (the page then says that no project is open). An
    // evaluation still running on the previous project is discarded.
    void setProject(store::ProjectStore* project);
    // Re-read the project: runs, thresholds, the saved verdict, the lock.
    void refresh();

    // Whether an evaluation is running in the background.
    bool isEvaluating() const;
    // The last evaluation shown (null before the first one finished; the data loaded
    // before Evaluate does not count).
    const stages::StageEvaluation* lastEvaluation() const;
    // Whether the plots and tables show data (loaded before Evaluate, or evaluated).
    bool hasResults() const;

signals:
    // A verdict, override, threshold or run was written to the project file.
    void projectModified();
    void statusMessage(const QString& text);
    // An evaluation finished and its result is on the page (also when not ready).
    void evaluationFinished();
    // The project's data was loaded into the plots and tables before Evaluate.
    void dataLoaded();

protected:
    explicit StagePage(int stage, QWidget* parent = nullptr);

    // What each stage's page adds (StageOnePage.cpp …).
    virtual QString titleText() const = 0;
    virtual QString questionText() const = 0;
    virtual QString teachingText() const = 0; // rich text behind the ⓘ button
    // Whether the run list offers this run (the stage's default runs, StageInputs.h).
    virtual bool takesRun(const store::ProjectStore& project, const store::RunRow& run) const = 0;
    // Extra inputs below the run list (stage 1: the sweep on a cluster).
    virtual void buildInputs(QVBoxLayout* inputs);
    // Results: tables and plots.
    virtual void buildResults(QVBoxLayout* results) = 0;
    virtual void showResults(const stages::StageEvaluation& evaluation) = 0;
    virtual void clearResults() = 0;
    // Called by refresh() after the base has re-read the project.
    virtual void refreshInputs() {}
    // The runs to evaluate: empty = the stage's default runs. Default: the checked
    // runs of the list, or empty when all are checked.
    virtual QStringList selectedRunNames() const;
    // Stage 1 offers "Suggest thresholds from this round".
    virtual bool offersSuggestions() const { return false; }

    store::ProjectStore* project() const;
    // Starts an evaluation (as the Evaluate button does).
    void evaluate();
    // Lays the page out at once after its results changed size (tables grown or shrunk),
    // so no intermediate layout with overlapping widgets is ever painted.
    void relayoutNow();
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void build();
    // The verdict strip with its buttons (StageVerdictBox.cpp) and the thresholds
    // section (StageThresholds.cpp), made by build().
    QFrame* buildVerdictBox(QWidget* content);
    CollapsibleSection* buildThresholdSection(QWidget* content);
    void finishEvaluation();
    void showVerdict();
    void showSavedState();
    void fillThresholds();
    void thresholdEdited(int row, int column);
    void overrideStop();
    void withdrawOverride();
    void suggestThresholds();
    void loadData();
    void finishLook();
    // The plots take the height the window gives (docs/gui.md, "Stage pages"): the
    // first one ends at the bottom of the first screen, none below kMinPlotHeight; a
    // plot with the property "moewbHeightFactor" gets that many times the height.
    void fitPlotHeights();
    // A saved verdict's reasons, in the window's language where the loaded data allows.
    QStringList savedReasons(const stages::StageStatus& status) const;

    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace moewb::gui
