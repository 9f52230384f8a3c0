#pragma once
// One run's page (docs/gui.md, "Runs"): its name, kind, config record, cluster, tags,
// the files it came from and when; which stages' verdicts used it and whether those
// verdicts are current; its metrics over steps; for a run with expert load the
// worst-layer load ratio over steps and the layer × expert heatmap of its last step;
// for a communication run its bandwidth vs message size and the per-size table; for a
// run with profiler traces its step anatomy (StepAnatomyView).
// Measurements are read on a worker thread (RunMeasurements.h); the window never
// waits for them. Rename, Tag, Move, Delete and Compare go through RunActions.
#include "RunMeasurements.h"

#include <QPointer>
#include <QWidget>

class QComboBox;
class QLabel;
class QPushButton;
class QScrollArea;
class QTableWidget;
class QThread;

namespace moewb::plots {
class PlotView;
}

namespace moewb::gui {

class RunActions;
class StepAnatomyView;

class RunPage : public QWidget {
    Q_OBJECT
public:
    RunPage(RunActions* actions, QWidget* parent = nullptr);
    ~RunPage() override; // waits for a read still running

    // Shows the run (its header at once, its measurements when read); a run that is
    // not there shows so.
    void showRun(store::ProjectStore* project, const QString& name);
    QString runName() const { return m_name; }
    // The measurements are being read.
    bool isLoading() const { return m_loading; }

    plots::PlotView* metricsPlot() const { return m_metricsPlot; }
    plots::PlotView* loadRatioPlot() const { return m_loadPlot; }
    plots::PlotView* heatmapPlot() const { return m_heatmapPlot; }
    plots::PlotView* bandwidthPlot() const { return m_bandwidthPlot; }
    QComboBox* metricChooser() const { return m_metricChooser; }
    QTableWidget* commTable() const { return m_commTable; }
    StepAnatomyView* stepAnatomyView() const { return m_anatomyView; }
    QLabel* usedByLabel() const { return m_usedBy; }
    QLabel* headerLabel() const { return m_header; }

signals:
    // The measurements of the run shown were read and drawn.
    void loaded();
    void recordRequested(const QString& record);
    void stageRequested(int stage);

private:
    void showHeader(const store::RunRow& run);
    void showUsedBy(const store::RunRow& run);
    void showMeasurements(const LoadedRuns& loaded);
    void drawMetric();
    void clearMeasurements();

    RunActions* m_actions;
    store::ProjectStore* m_project = nullptr;
    QString m_name;
    int m_generation = 0;
    bool m_loading = false;
    QList<QPointer<QThread>> m_readers;
    std::optional<RunMeasurements> m_data;

    QScrollArea* m_scroll = nullptr;
    QLabel* m_title = nullptr;
    QLabel* m_header = nullptr;
    QLabel* m_sources = nullptr;
    QLabel* m_usedBy = nullptr;
    QLabel* m_status = nullptr;
    QList<QPushButton*> m_editButtons;
    QWidget* m_metricsSection = nullptr;
    QComboBox* m_metricChooser = nullptr;
    plots::PlotView* m_metricsPlot = nullptr;
    QWidget* m_loadSection = nullptr;
    QLabel* m_loadSummary = nullptr;
    plots::PlotView* m_loadPlot = nullptr;
    plots::PlotView* m_heatmapPlot = nullptr;
    QWidget* m_commSection = nullptr;
    plots::PlotView* m_bandwidthPlot = nullptr;
    QTableWidget* m_commTable = nullptr;
    StepAnatomyView* m_anatomyView = nullptr;
    QString m_moreHolds; // what the measurements read add to "Holds" (the step anatomy)
};

} // namespace moewb::gui
