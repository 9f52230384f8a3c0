#pragma once
// The row of buttons above a plot (PlotView), as W&B and TensorBoard panels have
// them: "Log y" on bandwidth and time plots (a curve far below the others — another
// cluster's, a slow run's — no longer sits flat on the axis), "Reset view", and
// "Export" (copy image, PNG, PDF, CSV). The context menu offers the same.
#include <QWidget>

class QToolButton;

namespace moewb::plots {

class PlotView;

class PlotToolBar : public QWidget {
    Q_OBJECT
public:
    explicit PlotToolBar(PlotView* view);

    QToolButton* logYButton() const { return m_logY; }
    QToolButton* resetButton() const { return m_reset; }
    QToolButton* exportButton() const { return m_export; }

    // Follows the plot's spec: Log y shown where the plot offers it, checked as the axis
    // is; the buttons disabled while the plot has no data.
    void sync();

private:
    PlotView* m_view;
    QToolButton* m_logY;
    QToolButton* m_reset;
    QToolButton* m_export;
};

} // namespace moewb::plots
