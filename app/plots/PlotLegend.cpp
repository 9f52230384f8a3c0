// Where the legend goes (PlotRender.h placeLegend, PlotSetup.h legendCorner): the
// emptiest corner inside the axis rect, else below or right of it.
#include "PlotSetup.h"

#include "PlotRender.h"
#include "plotspec/Stacking.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace moewb::plots {

// The emptiest corner of the axis rect for the legend: fewest points in each
// corner's 45 % × 40 % box (sampled).
Qt::Alignment legendCorner(const PlotSpec& spec, const QCPRange& xr, const QCPRange& yr, bool xLog,
                           bool* crowded)
{
    int counts[4] = {0, 0, 0, 0}; // top-right, top-left, bottom-right, bottom-left
    auto fx = [&](double x) {
        if (xLog)
            return x > 0 ? std::log(x / xr.lower) / std::log(xr.upper / xr.lower) : -1.0;
        return (x - xr.lower) / xr.size();
    };
    for (const Series& s : spec.series) {
        const qsizetype n = std::min(s.x.size(), s.y.size());
        const qsizetype step = std::max<qsizetype>(1, n / 2000);
        const bool line = s.style != SeriesStyle::Scatter && s.style != SeriesStyle::Bars &&
                          s.style != SeriesStyle::StackedBars;
        // Lines pass between their points: sample each segment too.
        for (qsizetype i = 0; i < n; i += step) {
            const int parts = line && i + step < n ? 24 : 1;
            for (int part = 0; part < parts; ++part) {
                const double f = double(part) / parts;
                const double u0 = fx(s.x[i]);
                const double u = parts > 1 ? u0 + (fx(s.x[i + step]) - u0) * f : u0;
                const double yv = parts > 1 ? s.y[i] + (s.y[i + step] - s.y[i]) * f : s.y[i];
                const double v = (yv - yr.lower) / yr.size();
                if (!(u >= 0 && u <= 1 && v >= 0 && v <= 1))
                    continue;
                const bool right = u >= 0.55, left = u <= 0.45, top = v >= 0.6, bottom = v <= 0.4;
                counts[0] += right && top;
                counts[1] += left && top;
                counts[2] += right && bottom;
                counts[3] += left && bottom;
            }
        }
    }
    const Qt::Alignment corners[4] = {Qt::AlignTop | Qt::AlignRight, Qt::AlignTop | Qt::AlignLeft,
                                      Qt::AlignBottom | Qt::AlignRight, Qt::AlignBottom | Qt::AlignLeft};
    int best = 0;
    for (int i = 1; i < 4; ++i)
        if (counts[i] < counts[best])
            best = i;
    if (crowded)
        *crowded = counts[best] > 0;
    return corners[best];
}

namespace {

// Lays the plot's elements out for its viewport now, without drawing (what replot()
// does first): the axis rect and the legend know their pixels afterwards.
void layoutNow(QCustomPlot* plot)
{
    plot->plotLayout()->setOuterRect(plot->viewport());
    plot->plotLayout()->update(QCPLayoutElement::upPreparation);
    plot->plotLayout()->update(QCPLayoutElement::upMargins);
    plot->plotLayout()->update(QCPLayoutElement::upLayout);
}

enum class LegendPlace { Inside, Below, Right };

// Takes the legend out of wherever it sits (the axis rect's inset layout, a row of
// the plot's grid, or the holder that keeps it at the top of a column on the right).
void detachLegend(QCPLegend* legend, QCPAxisRect* rect, QCPLayoutGrid* body)
{
    QCPLayout* parent = legend->layout();
    if (!parent)
        return;
    if (parent == rect->insetLayout()) {
        rect->insetLayout()->take(legend);
        return;
    }
    if (parent == body) {
        body->take(legend);
        body->simplify();
        return;
    }
    parent->take(legend);
    if (parent->property("moewbLegendHolder").toBool() && parent->layout() == body) {
        body->take(parent);
        body->simplify();
        delete parent;
    }
}

void attachLegend(QCustomPlot* plot, QCPLegend* legend, QCPAxisRect* rect, QCPLayoutGrid* body, LegendPlace place,
                  Qt::Alignment corner, int columns)
{
    detachLegend(legend, rect, body);
    legend->setProperty("moewbOutside", place != LegendPlace::Inside);
    legend->setProperty("moewbPlace", int(place));
    if (place == LegendPlace::Inside) {
        rect->insetLayout()->addElement(legend, corner);
        legend->setWrap(0);
        legend->setFillOrder(QCPLayoutGrid::foRowsFirst, true);
        legend->setBrush(QColor(255, 255, 255, 220));
        legend->setBorderPen(QPen(QColor(180, 180, 180)));
        legend->setMargins(QMargins(7, 5, 7, 4));
        return;
    }
    legend->setBrush(Qt::NoBrush);
    legend->setBorderPen(Qt::NoPen);
    legend->setMargins(QMargins(4, 2, 4, 2));
    if (place == LegendPlace::Below) {
        const int row = body->rowCount();
        body->addElement(row, 0, legend);
        legend->setWrap(std::max(1, columns));
        legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true); // rearranges the entries
        for (int r = 0; r < body->rowCount(); ++r)
            body->setRowStretchFactor(r, r == row ? 0.001 : 1.0);
        return;
    }
    // Right: one column at the top of its own grid column; an empty element under it
    // takes the rest of the height (a grid cell would spread the entries out).
    auto* holder = new QCPLayoutGrid;
    holder->setProperty("moewbLegendHolder", true);
    const int column = body->columnCount();
    body->addElement(0, column, holder);
    holder->addElement(0, 0, legend);
    holder->addElement(1, 0, new QCPLayoutElement(plot));
    holder->setRowStretchFactor(0, 0.001);
    holder->setRowStretchFactor(1, 1.0);
    for (int c = 0; c < body->columnCount(); ++c)
        body->setColumnStretchFactor(c, c == column ? 0.001 : 1.0);
    legend->setWrap(0);
    legend->setFillOrder(QCPLayoutGrid::foRowsFirst, true);
}

// Pixels the data occupies: the points, and the segments between the points of a
// line, sampled every 3 px (at most ~20000 points a series).
QVector<QPointF> dataPixels(const PlotSpec& spec, QCPAxis* xa, QCPAxis* ya)
{
    QVector<QPointF> out;
    const bool xLog = xa->scaleType() == QCPAxis::stLogarithmic;
    const bool yLog = ya->scaleType() == QCPAxis::stLogarithmic;
    auto ok = [&](double x, double y) {
        return std::isfinite(x) && std::isfinite(y) && (!xLog || x > 0) && (!yLog || y > 0);
    };
    for (int si = 0; si < spec.series.size(); ++si) {
        const Series& s = spec.series[si];
        const qsizetype n = std::min(s.x.size(), s.y.size());
        const qsizetype step = std::max<qsizetype>(1, n / 20000);
        const bool line = s.style != SeriesStyle::Scatter && s.style != SeriesStyle::Bars &&
                          s.style != SeriesStyle::StackedBars;
        const bool stacked = s.style == SeriesStyle::StackedBars;
        const QVector<double> bottoms = stacked ? stackBottoms(spec, si) : QVector<double>();
        QPointF previous;
        bool hasPrevious = false;
        for (qsizetype i = 0; i < n; i += step) {
            if (!ok(s.x[i], s.y[i])) {
                hasPrevious = false;
                continue;
            }
            const double top = stacked ? bottoms[i] + s.y[i] : s.y[i];
            const QPointF p(xa->coordToPixel(s.x[i]), ya->coordToPixel(top));
            if (line && hasPrevious) {
                const int parts = int(std::clamp(std::ceil(std::hypot(p.x() - previous.x(), p.y() - previous.y()) / 3.0),
                                                 1.0, 256.0));
                for (int part = 1; part < parts; ++part)
                    out << previous + (p - previous) * (double(part) / parts);
            }
            out << p;
            if ((s.style == SeriesStyle::Bars || stacked) && ok(s.x[i], 0.0) && !yLog)
                for (int part = 1; part <= 8; ++part) // the bar down to the axis
                    out << QPointF(p.x(), p.y() + (ya->coordToPixel(0.0) - p.y()) * (part / 8.0));
            previous = p;
            hasPrevious = true;
        }
    }
    return out;
}

} // namespace

bool placeLegend(QCustomPlot* plot, const PlotSpec& spec)
{
    QCPLegend* legend = plot->legend;
    QCPAxisRect* rect = plot->axisRect();
    if (!legend || !rect || !legend->visible() || legend->itemCount() == 0 || plot->viewport().isEmpty())
        return false;
    auto* body = qobject_cast<QCPLayoutGrid*>(rect->layout());
    if (!body)
        return false;
    const int before = legend->property("moewbPlace").isValid() ? legend->property("moewbPlace").toInt() : -1;
    const int beforeWrap = legend->wrap();
    const Qt::Alignment beforeCorner =
        legend->layout() == rect->insetLayout() ? rect->insetLayout()->insetAlignment(0) : Qt::Alignment();

    // The data area as it is with the legend inside (where the data gets all the room).
    attachLegend(plot, legend, rect, body, LegendPlace::Inside, Qt::AlignTop | Qt::AlignRight, 0);
    layoutNow(plot);
    const QRect area = rect->rect();
    const QSize box = legend->minimumOuterSizeHint(); // one column
    const QVector<QPointF> pixels = dataPixels(spec, rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    const int gap = 6; // the legend keeps this far from the data
    // Inside only where it covers no data and leaves most of the area to it.
    if (!spec.heatmap && box.width() <= area.width() * 0.5 && box.height() <= area.height() * 0.6) {
        const Qt::Alignment corners[4] = {Qt::AlignTop | Qt::AlignRight, Qt::AlignTop | Qt::AlignLeft,
                                          Qt::AlignBottom | Qt::AlignRight, Qt::AlignBottom | Qt::AlignLeft};
        for (const Qt::Alignment corner : corners) {
            QRect r(QPoint(0, 0), box);
            r.moveLeft(corner & Qt::AlignLeft ? area.left() : area.right() + 1 - box.width());
            r.moveTop(corner & Qt::AlignTop ? area.top() : area.bottom() + 1 - box.height());
            const QRectF keepOut = QRectF(r).adjusted(-gap, -gap, gap, gap);
            bool free = true;
            for (const QPointF& p : pixels)
                if (keepOut.contains(p)) {
                    free = false;
                    break;
                }
            if (!free)
                continue;
            rect->insetLayout()->setInsetAlignment(0, corner);
            return before != int(LegendPlace::Inside) || beforeCorner != corner;
        }
    }

    // Outside the data area: below in as many columns as the width takes, or on the
    // right when below would take much of the height and the right has room.
    int itemW = 0, itemH = 0;
    const int n = legend->itemCount();
    for (int i = 0; i < n; ++i) {
        const QSize s = legend->item(i)->minimumOuterSizeHint();
        itemW = std::max(itemW, s.width());
        itemH = std::max(itemH, s.height());
    }
    const QMargins m(4, 2, 4, 2);
    const QRect view = plot->viewport();
    const int avail = view.width() - m.left() - m.right();
    int columns = std::clamp((avail + legend->columnSpacing()) / std::max(1, itemW + legend->columnSpacing()), 1, n);
    const int rows = (n + columns - 1) / columns;
    columns = (n + rows - 1) / rows; // as few columns as those rows need (the last row not left nearly empty)
    const int belowH = rows * itemH + (rows - 1) * legend->rowSpacing() + m.top() + m.bottom();
    const int rightW = itemW + m.left() + m.right();
    const int rightH = n * itemH + (n - 1) * legend->rowSpacing() + m.top() + m.bottom();
    if (belowH > view.height() * 0.2 && rightW <= view.width() * 0.45 && rightH <= area.height()) {
        attachLegend(plot, legend, rect, body, LegendPlace::Right, {}, 0);
        return before != int(LegendPlace::Right);
    }
    attachLegend(plot, legend, rect, body, LegendPlace::Below, {}, columns);
    return before != int(LegendPlace::Below) || beforeWrap != columns;
}

} // namespace moewb::plots
