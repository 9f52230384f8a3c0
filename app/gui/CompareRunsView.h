#pragma once
// Two or more runs side by side (docs/gui.md, "Runs"): a table of what each run is and
// its headline figures, then the runs' loss curves, worst-layer load ratio (max/mean)
// over steps and all-to-all bandwidth vs message size overlaid — one colour per run,
// the same in every plot, a click on a legend entry hides or shows its run. A plot
// that no chosen run has data for is left out, and the page says which runs lack what.
// Read on a worker thread (RunMeasurements.h).
#include "RunMeasurements.h"

#include <QPointer>
#include <QWidget>

class QLabel;
class QTableWidget;
class QThread;

namespace moewb::plots {
class PlotView;
}

namespace moewb::gui {

class TableFit;

class CompareRunsView : public QWidget {
    Q_OBJECT
public:
    explicit CompareRunsView(QWidget* parent = nullptr);
    ~CompareRunsView() override; // waits for a read still running

    void compare(store::ProjectStore* project, const QStringList& runs);
    QStringList runs() const { return m_runs; }
    bool isLoading() const { return m_loading; }

    plots::PlotView* lossPlot() const { return m_loss; }
    plots::PlotView* loadRatioPlot() const { return m_load; }
    plots::PlotView* bandwidthPlot() const { return m_bandwidth; }
    QTableWidget* table() const { return m_table; }

signals:
    void loaded();
    void runRequested(const QString& run);

private:
    void show(const LoadedRuns& loaded);

    QStringList m_runs;
    int m_generation = 0;
    bool m_loading = false;
    QList<QPointer<QThread>> m_readers;

    QLabel* m_title = nullptr;
    QLabel* m_status = nullptr;
    QTableWidget* m_table = nullptr;
    TableFit* m_fit = nullptr;
    plots::PlotView* m_loss = nullptr;
    plots::PlotView* m_load = nullptr;
    plots::PlotView* m_bandwidth = nullptr;
};

} // namespace moewb::gui
