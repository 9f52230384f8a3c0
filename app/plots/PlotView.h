#pragma once
// A plot in the window: a PlotSpec drawn with QCustomPlot. The mouse wheel scrolls
// the page around the plot; Ctrl+wheel (or the wheel after a click into the plot)
// zooms, drag pans, double-click resets the view. Hovering a line plot shows a
// cross-hair with every series' value at that x; elsewhere the nearest point's
// exact values with units. A click on a legend entry hides or shows its series.
// The toolbar above the plot and the context menu copy the plot to the clipboard,
// export PNG, PDF (vector) and CSV, reset the view, and on bandwidth and time plots
// toggle a logarithmic y axis. An empty spec
// shows "No data". docs/plots.md.
#include "plotspec/Decimation.h"
#include "plotspec/PlotSpec.h"

#include <QSet>
#include <QString>
#include <QWidget>

#include <optional>

class QCustomPlot;
class QCPItemText;

namespace moewb::plots {

class PlotToolBar;

class PlotView : public QWidget {
    Q_OBJECT
public:
    explicit PlotView(QWidget* parent = nullptr);
    ~PlotView() override;

    void setSpec(const PlotSpec& spec);
    const PlotSpec& spec() const { return m_spec; }
    QCustomPlot* customPlot() const { return m_plot; }

    // What the tooltip shows at a widget-relative pixel of customPlot(): the nearest
    // point's series name, run, x and y with units (heatmaps: the cell). Empty when
    // nothing is within reach.
    QString hoverTextAt(const QPoint& pixel) const;
    // The cross-hair's text at axis coordinate x: x, then each visible line series'
    // value at its point nearest to x. Empty for bars, scatters and heatmaps.
    QString crosshairTextAt(double x) const;

    // Legend clicks: series hidden by name (kept across setSpec while the names stay).
    void setSeriesHidden(const QString& name, bool hidden);
    bool isSeriesHidden(const QString& name) const { return m_hidden.contains(name); }

    // Bandwidth and time plots: a logarithmic (true) or linear y axis (the toolbar's
    // "Log y", the context menu).
    bool offersLogY() const;
    void setLogY(bool log);
    bool isLogY() const;

    // Whether the plot takes the mouse wheel without Ctrl (after a click into it,
    // until the pointer leaves it or it loses the focus).
    bool wheelZoomArmed() const { return m_wheelArmed; }

    // The row of buttons above the plot: Log y (bandwidth and time plots), Reset view,
    // Export (PlotToolBar.h).
    PlotToolBar* toolBar() const { return m_toolBar; }

    // Copies the plot as an image to the clipboard.
    void copyToClipboard();

    // Exports; false with a sentence naming the file in *error.
    bool exportPng(const QString& path, QString* error = nullptr);
    bool exportPdf(const QString& path, QString* error = nullptr); // vector
    bool exportCsv(const QString& path, QString* error = nullptr);
    // Asks for a file name and exports ("png", "pdf", "csv").
    void exportWithDialog(const QString& kind);

    // Back to the ranges the spec was drawn with.
    void resetView();

    // Level of detail (docs/plots.md, "Large data"), redone on every zoom, pan and
    // resize for the visible range: the heatmap's cells as drawn (max-pooled to at most
    // one cell per pixel; empty without a heatmap), and the points a long line keeps.
    const PooledHeatmap& heatmapLevelOfDetail() const { return m_pooled; }

    // Small enough that a stage page at 1366×768 shows its verdict and a plot together.
    QSize sizeHint() const override { return {560, 300}; }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void rebuild();
    void showContextMenu(const QPoint& pos);
    void applyHidden();
    void applyTail();
    void fitTicks();
    void fitLegend();
    void updateCrosshair(const QPoint& pixel, const QPoint& global);
    bool hasLineSeries() const;
    void updateLevelOfDetail();

    PlotSpec m_spec;
    QCustomPlot* m_plot = nullptr;
    QSet<QString> m_hidden;
    std::optional<bool> m_logY; // unset: the spec's own scale
    PlotToolBar* m_toolBar = nullptr;
    bool m_wheelArmed = false;
    bool m_fittingTicks = false;
    QString m_lodKey;       // ranges and pixel size the level of detail was made for
    PooledHeatmap m_pooled; // the heatmap as drawn
};

} // namespace moewb::plots
