#include "PlotRender.h"

#include "plotspec/Decimation.h"

#include <QPaintDevice>
#include <QPainter>
#include <QPicture>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace moewb::plots {

namespace {

// QCustomPlot draws a colour map and a colour scale's bar as images. For a vector
// document both are hidden before the plot is drawn (their layout space stays) and
// painted here as filled rectangles: each cell (max-pooled to at most
// kMaxVectorColumns columns and one cell per pixel of the layout, so a hot step or
// expert stays visible) and the bar as thin slices, with the bar's ticks and label.
constexpr int kMaxVectorColumns = 240;
constexpr int kBarSlices = 96;

struct HiddenImages {
    QCPColorMap* map = nullptr;          // the heatmap, if any
    QList<QCPColorScale*> scales;        // heatmap and scatter colour scales
};

HiddenImages hideImages(QCustomPlot& plot) {
    HiddenImages h;
    for (int i = 0; i < plot.plottableCount() && !h.map; ++i)
        if (auto* map = qobject_cast<QCPColorMap*>(plot.plottable(i))) {
            h.map = map;
            map->setVisible(false);
        }
    for (QCPColorScale* scale : plot.findChildren<QCPColorScale*>()) {
        if (!scale->realVisibility())
            continue;
        // The bar is drawn by the scale's inner axis rect; hiding it hides the
        // bar's image and axis (both painted again below). Layout space stays.
        scale->setVisible(false);
        scale->axis()->axisRect()->setVisible(false);
        h.scales << scale;
    }
    return h;
}

void paintHeatmapCells(QCPPainter& p, const QCPColorMap& map) {
    QCPColorMapData* data = map.data();
    const int columns = data->keySize(), rows = data->valueSize();
    if (columns <= 0 || rows <= 0)
        return;
    QCPColorGradient gradient = map.gradient();
    const QCPRange range = map.dataRange();
    const QCPRange keys = data->keyRange(), values = data->valueRange();
    const double keyStep = columns > 1 ? (keys.upper - keys.lower) / (columns - 1) : 1.0;
    const double valueStep = rows > 1 ? (values.upper - values.lower) / (rows - 1) : 1.0;
    const QCPAxis* xa = map.keyAxis();
    const QCPAxis* ya = map.valueAxis();
    const QRect area = xa->axisRect()->rect();
    // Max-pooled as the window pools (plotspec/Decimation.h): at most one cell per
    // pixel of the 96-dpi layout, and kMaxVectorColumns columns.
    Heatmap cells;
    cells.columns = columns;
    cells.rows = rows;
    cells.values.resize(qsizetype(columns) * rows);
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < columns; ++c)
            cells.values[qsizetype(r) * columns + c] = data->cell(c, r);
    const PooledHeatmap pooled = poolHeatmap(cells, 0, columns, 0, rows,
                                             std::min(kMaxVectorColumns, std::max(1, area.width())),
                                             std::max(1, area.height()));
    p.save();
    p.setClipRect(area);
    p.setRenderHint(QPainter::Antialiasing, false);
    p.setPen(Qt::NoPen);
    for (int pr = 0; pr < pooled.rows; ++pr) {
        const int r0 = pooled.rowFrom(pr), r1 = std::min(rows, r0 + pooled.rowBlock);
        const double v0 = values.lower + (r0 - 0.5) * valueStep, v1 = values.lower + (r1 - 0.5) * valueStep;
        for (int pc = 0; pc < pooled.columns; ++pc) {
            const double v = pooled.max[qsizetype(pr) * pooled.columns + pc];
            if (!std::isfinite(v))
                continue;
            const int c0 = pooled.columnFrom(pc), c1 = std::min(columns, c0 + pooled.columnBlock);
            const double k0 = keys.lower + (c0 - 0.5) * keyStep, k1 = keys.lower + (c1 - 0.5) * keyStep;
            const QRectF cellRect = QRectF(QPointF(xa->coordToPixel(k0), ya->coordToPixel(v1)),
                                           QPointF(xa->coordToPixel(k1), ya->coordToPixel(v0)))
                                        .normalized();
            // Slight overlap so no hairline gap shows between neighbours.
            p.fillRect(cellRect.adjusted(-0.15, -0.15, 0.15, 0.15), QColor::fromRgba(gradient.color(v, range)));
        }
    }
    p.restore();
}

void paintColourBar(QCPPainter& p, const QCPColorScale& scale) {
    QCPColorGradient gradient = scale.gradient();
    const QRect bar = scale.axis()->axisRect()->rect();
    if (bar.isEmpty())
        return;
    const QCPRange range = scale.dataRange();
    p.save();
    p.setRenderHint(QPainter::Antialiasing, false);
    p.setPen(Qt::NoPen);
    for (int i = 0; i < kBarSlices; ++i) {
        const double f0 = double(i) / kBarSlices, f1 = double(i + 1) / kBarSlices;
        const double value = range.lower + (f0 + f1) / 2 * range.size();
        const QRectF slice(QPointF(bar.left(), bar.bottom() - f1 * bar.height()),
                           QPointF(bar.right() + 1, bar.bottom() - f0 * bar.height()));
        p.fillRect(slice.adjusted(0, -0.15, 0, 0.15), QColor::fromRgba(gradient.color(value, range)));
    }
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setPen(QPen(Qt::black, 1));
    p.setBrush(Qt::NoBrush);
    p.drawRect(QRectF(bar).adjusted(0, 0, 1, 0));
    // Ticks and labels on the right, as the scale's own axis would draw them.
    QCPAxis* axis = scale.axis();
    QVector<double> ticks;
    QVector<QString> labels;
    axis->ticker()->generate(range, axis->numberFormat().isEmpty() ? QLocale() : QLocale::c(),
                             axis->numberFormat().isEmpty() ? QLatin1Char('g') : axis->numberFormat().at(0),
                             axis->numberPrecision(), ticks, nullptr, &labels);
    p.setFont(axis->tickLabelFont());
    const QFontMetricsF fm(axis->tickLabelFont());
    double widest = 0;
    for (int i = 0; i < ticks.size(); ++i) {
        if (!range.contains(ticks[i]))
            continue;
        const double y = bar.bottom() - (ticks[i] - range.lower) / range.size() * bar.height();
        p.drawLine(QPointF(bar.right() + 1, y), QPointF(bar.right() + 5, y));
        const QString text = i < labels.size() ? labels[i] : QString::number(ticks[i]);
        widest = std::max(widest, fm.horizontalAdvance(text));
        p.drawText(QPointF(bar.right() + 8, y + fm.ascent() / 2 - 1), text);
    }
    if (!axis->label().isEmpty()) {
        p.setFont(axis->labelFont());
        p.translate(bar.right() + 8 + widest + 6 + QFontMetricsF(axis->labelFont()).ascent(), bar.center().y());
        p.rotate(90);
        const double w = QFontMetricsF(axis->labelFont()).horizontalAdvance(axis->label());
        p.drawText(QPointF(-w / 2, 0), axis->label());
    }
    p.restore();
}

} // namespace

void renderPlot(const PlotSpec& spec, QPainter* painter, const QRectF& target)
{
    if (!painter || !painter->isActive() || target.width() <= 0 || target.height() <= 0)
        return;
    // Lay the plot out at 96 dpi for the target's physical size, so fonts and line
    // widths keep their on-screen proportions, then scale it into the target.
    const QPaintDevice* device = painter->device();
    const double deviceDpi = device && device->logicalDpiX() > 0 ? device->logicalDpiX() : 96.0;
    const QTransform t = painter->worldTransform();
    const double worldScale = std::sqrt(std::fabs(t.m11() * t.m22() - t.m12() * t.m21()));
    const double toPlotPixels = (worldScale > 0 ? worldScale : 1.0) * 96.0 / deviceDpi;
    const int width = std::max(200, int(std::lround(target.width() * toPlotPixels)));
    const int height = std::max(150, int(std::lround(target.height() * toPlotPixels)));

    QCustomPlot plot;
    plot.setAttribute(Qt::WA_DontShowOnScreen);
    plot.resize(width, height);
    plot.setPlottingHint(QCP::phCacheLabels, false);
    // Fonts in pixels of the plot's 96-dpi layout: a QPicture replayed into a
    // high-resolution device would otherwise resize point-sized text for that
    // device's dpi, on top of the scaling below.
    QFont font = plot.font(); // configurePlot() below sets the UI families
    if (font.pixelSize() <= 0)
        font.setPixelSize(std::max(1, int(std::lround(font.pointSizeF() * 96.0 / 72.0))));
    plot.setFont(font);
    configurePlot(&plot, spec);
    plot.setViewport(QRect(0, 0, width, height)); // as toPainter() lays it out
    placeLegend(&plot, spec);
    const HiddenImages hidden = hideImages(plot);
    if (hidden.map || !hidden.scales.isEmpty())
        plot.replot(QCustomPlot::rpImmediateRefresh); // lay out, so the cells know their pixels

    // Recorded as vector commands and replayed into the caller's painter (a PDF
    // stays vector: heatmap cells and the colour bar are drawn as rectangles).
    QPicture picture;
    {
        QCPPainter p(&picture);
        p.setMode(QCPPainter::pmVectorized);
        p.setMode(QCPPainter::pmNoCaching);
        p.setRenderHint(QPainter::Antialiasing);
        plot.toPainter(&p, width, height);
        if (hidden.map)
            paintHeatmapCells(p, *hidden.map);
        for (const QCPColorScale* scale : hidden.scales)
            paintColourBar(p, *scale);
    }
    painter->save();
    painter->setClipRect(target, Qt::IntersectClip);
    painter->translate(target.topLeft());
    // QPainter::drawPicture itself scales by the device's dpi over the picture's
    // (96): take that out so the plot fills exactly `target`.
    const double replayScale = deviceDpi / (picture.logicalDpiX() > 0 ? picture.logicalDpiX() : 96.0);
    painter->scale(target.width() / width / replayScale, target.height() / height / replayScale);
    painter->drawPicture(QPointF(0, 0), picture);
    painter->restore();
}

} // namespace moewb::plots
