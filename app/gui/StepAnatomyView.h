#pragma once
// The run page's "Step anatomy" section (docs/gui.md, "Runs"): where a profiled step's
// time goes on each rank, from the run's stored step anatomy (its PyTorch profiler
// traces). A step chooser (initially the step with the largest imbalance bill), the
// per-rank stacked bars of that step, the rank × step heatmap of busy shares, a summary
// naming the busiest rank (with its node and local rank when the run's config record
// gives the accelerators per node), how often each rank was the busiest, and the
// training's all-to-all against stage 1's baseline, and the chosen step as a timeline
// with ranks as rows (StepTimelineView). Shown only for a run with anatomy.
#include "RunMeasurements.h"

#include <QWidget>

#include <functional>

class QComboBox;
class QLabel;
class QTableWidget;

namespace moewb::plots {
class PlotView;
}

namespace moewb::gui {

class StepTimelineView;

class StepAnatomyView : public QWidget {
    Q_OBJECT
public:
    explicit StepAnatomyView(QWidget* parent = nullptr);

    // Shows the run's step anatomy; hides itself when it has none.
    void showRun(const RunMeasurements& m);
    void clear();
    // Where the chosen step's timeline is read from (the run page's store); unset: no timeline.
    using TimelineSource = std::function<QVector<store::RankStepTimeline>(qint64 step, QString* problem)>;
    void setTimelineSource(TimelineSource source) { m_timelineSource = std::move(source); }

    // The step the bars show (−1: none).
    qint64 currentStep() const;
    // Chooses `step` when it is one of the chooser's; false otherwise.
    bool chooseStep(qint64 step);

    QComboBox* stepChooser() const { return m_stepChooser; }
    plots::PlotView* barsPlot() const { return m_barsPlot; }
    plots::PlotView* busyHeatmap() const { return m_heatmapPlot; }
    QLabel* summaryLabel() const { return m_summary; }
    QLabel* runLabel() const { return m_runLine; }
    QTableWidget* stragglerTable() const { return m_stragglers; }
    QTableWidget* a2aTable() const { return m_a2a; }
    StepTimelineView* timeline() const { return m_timeline; }

private:
    void drawStep();
    void drawTimeline(qint64 step, int busiestRank);
    void fillStragglers();
    void fillA2a(const anatomy::A2aBaselineReport& report);
    // "rank 2 (node 0, local rank 2)", or "rank 2" when the node is unknown.
    QString rankText(int rank) const;

    QString m_runName;
    store::RunAnatomy m_anatomy;
    anatomy::AnatomySummary m_summaryData;
    int m_ranksPerNode = 0;
    store::TimelineExtent m_timelineExtent;
    TimelineSource m_timelineSource;

    QLabel* m_summary = nullptr;
    QComboBox* m_stepChooser = nullptr;
    plots::PlotView* m_barsPlot = nullptr;
    plots::PlotView* m_heatmapPlot = nullptr;
    QLabel* m_runLine = nullptr;
    QTableWidget* m_stragglers = nullptr;
    QLabel* m_a2aCaption = nullptr;
    QTableWidget* m_a2a = nullptr;
    StepTimelineView* m_timeline = nullptr;
};

} // namespace moewb::gui
