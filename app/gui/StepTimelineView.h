#pragma once
// The one-step timeline of the run page's "Step anatomy" (docs/gui.md, "Runs";
// docs/anatomy.md, "The one-step timeline"): ranks as rows, each with three lanes —
// compute (merged kernels), communication (all-to-all, dispatch, combine, other
// communication, and each call's waiting before the group's latest rank arrived),
// memcpy/memset — on the ranks' common clock from the step's start, the rank's own
// ProfilerStep span shaded behind. The busiest rank's row is marked. The wheel zooms the
// time axis (after a click into the plot, or with Ctrl, as every plot of the window),
// drag pans, double-click or "Reset zoom" resets; hovering names the kernel, its process
// group, its bytes and its duration ("compute (merged kernels)" for compute).
#include "store/StepTimelineRows.h"

#include <QWidget>

class QCustomPlot;
class QLabel;
class QPushButton;

namespace moewb::gui {

class TimelineRowsPlottable;

class StepTimelineView : public QWidget {
    Q_OBJECT
public:
    explicit StepTimelineView(QWidget* parent = nullptr);

    // Draws `ranks` (one traced rank each, one step); `busiestRank` marked (−1: none);
    // `note` one line under the plot (what the bounds cut), may be empty.
    void showStep(qint64 step, const QVector<store::RankStepTimeline>& ranks, int busiestRank, const QString& note);
    // A sentence instead of the plot (no timeline stored for the step or the run).
    void showMessage(const QString& text);

    int rowCount() const;
    // The rank drawn in row `row` (top row 0), −1 outside.
    int rankOfRow(int row) const;
    // What hovering shows at a pixel of customPlot(); empty where nothing is drawn.
    QString hoverTextAt(const QPoint& pixel) const;
    // The pixel of customPlot() at time `ns` (from the step's start) in `rank`'s lane for `cls`.
    QPoint pixelAt(int rank, qint64 ns, store::TimelineClass cls) const;
    // The visible time range, µs from the step's start.
    double visibleLowerUs() const;
    double visibleUpperUs() const;
    // Zooms the time axis by `factor` (< 1 in) around `centreUs`; kept within the step.
    void zoomBy(double factor, double centreUs);
    void resetView();
    bool wheelZoomArmed() const { return m_wheelArmed; }

    QCustomPlot* customPlot() const { return m_plot; }
    QLabel* messageLabel() const { return m_message; }
    QLabel* noteLabel() const { return m_note; }
    QLabel* legendLabel() const { return m_legend; }

    // The legend's words for a class, translated ("all-to-all waiting" for Waiting).
    static QString className(store::TimelineClass cls);
    static quint32 classColour(store::TimelineClass cls);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void fitHeight();
    void applyTicks();

    QLabel* m_legend = nullptr;
    QLabel* m_message = nullptr;
    QLabel* m_note = nullptr;
    QPushButton* m_reset = nullptr;
    QCustomPlot* m_plot = nullptr;
    TimelineRowsPlottable* m_rows = nullptr;
    double m_fullLower = 0, m_fullUpper = 1; // µs
    bool m_wheelArmed = false;
};

} // namespace moewb::gui
