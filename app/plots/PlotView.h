#pragma once
// A plot in the window: a PlotSpec drawn with QCustomPlot. Wheel zooms, drag pans,
// double-click resets the view; hovering shows the nearest point's exact values
// with units; the context menu exports PNG, PDF (vector) and CSV. An empty spec
// shows "No data". docs/plots.md.
#include "plotspec/PlotSpec.h"

#include <QString>
#include <QWidget>

class QCustomPlot;
class QCPItemText;

namespace moewb::plots {

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

    // Exports; false with a sentence naming the file in *error.
    bool exportPng(const QString& path, QString* error = nullptr);
    bool exportPdf(const QString& path, QString* error = nullptr); // vector
    bool exportCsv(const QString& path, QString* error = nullptr);

    // Back to the ranges the spec was drawn with.
    void resetView();

    QSize sizeHint() const override { return {640, 420}; }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void rebuild();
    void showContextMenu(const QPoint& pos);
    void exportWithDialog(const QString& kind);

    PlotSpec m_spec;
    QCustomPlot* m_plot = nullptr;
};

} // namespace moewb::plots
