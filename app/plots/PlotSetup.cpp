#include "PlotSetup.h"

#include "PlotFont.h"
#include "PlotRender.h"
#include "plotspec/Decimation.h"
#include "plotspec/Palette.h"
#include "plotspec/Stacking.h"
#include "plotspec/StagePlots.h"
#include "plotspec/TailView.h"

#include <QFontMetricsF>
#include <QtMath>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace moewb::plots {

namespace {

void applyAxis(QCPAxis* axis, const Axis& spec, double upper)
{
    axis->setTicker(makeTicker(spec, upper));
    axis->setScaleType(spec.scale == AxisScale::Linear ? QCPAxis::stLinear : QCPAxis::stLogarithmic);
    axis->setLabel(axisTitleFor(spec, upper));
    axis->setNumberFormat(QStringLiteral("g"));
    axis->setNumberPrecision(6);
}

// The data bounds of a spec along x and y (finite values; positives only on log axes).
struct Bounds {
    double xMin = std::numeric_limits<double>::infinity(), xMax = -xMin;
    double yMin = xMin, yMax = -xMin;
    void add(double x, double y, bool xLog, bool yLog)
    {
        if (std::isfinite(x) && (!xLog || x > 0)) {
            xMin = std::min(xMin, x);
            xMax = std::max(xMax, x);
        }
        if (std::isfinite(y) && (!yLog || y > 0)) {
            yMin = std::min(yMin, y);
            yMax = std::max(yMax, y);
        }
    }
};

QCPRange padded(double lo, double hi, bool log, bool includeZero)
{
    if (!(lo <= hi))
        return log ? QCPRange(1, 1024) : QCPRange(0, 1);
    if (log) {
        if (lo == hi)
            return QCPRange(lo / 2, hi * 2);
        return QCPRange(lo / std::pow(hi / lo, 0.04), hi * std::pow(hi / lo, 0.04));
    }
    if (includeZero) {
        lo = std::min(lo, 0.0);
        hi = std::max(hi, 0.0);
    }
    if (lo == hi) {
        const double d = lo == 0 ? 1.0 : std::fabs(lo) * 0.1;
        return QCPRange(lo - d, hi + d);
    }
    const double pad = (hi - lo) * 0.05;
    return QCPRange(includeZero && lo == 0 ? 0 : lo - pad, hi + pad);
}

QPen seriesPen(const Series& s)
{
    QColor c = seriesColour(s.colour);
    QPen pen(c, 2.0);
    switch (s.style) {
    case SeriesStyle::DashedLine:
        pen.setStyle(Qt::DashLine);
        if (s.colour < 0)
            pen.setWidthF(1.5);
        break;
    case SeriesStyle::FaintLine:
        c.setAlpha(70);
        pen.setColor(c);
        pen.setWidthF(1.0);
        break;
    default: break;
    }
    return pen;
}

QString wrapped(const QString& text, const QFont& font, double width)
{
    if (text.isEmpty() || width <= 0)
        return text;
    const QFontMetricsF fm(font);
    QStringList lines;
    QString line;
    for (const QString& word : text.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        const QString candidate = line.isEmpty() ? word : line + QLatin1Char(' ') + word;
        if (!line.isEmpty() && fm.horizontalAdvance(candidate) > width) {
            lines << line;
            line = word;
        } else {
            line = candidate;
        }
    }
    if (!line.isEmpty())
        lines << line;
    return lines.join(QLatin1Char('\n'));
}


// Bars of long category names (runs) lie on their side: each name reads whole, left of
// its bar, where upright bars would leave it rotated under a narrow bar.
bool horizontalBars(const PlotSpec& spec)
{
    if (spec.categoryLabels.isEmpty() || spec.heatmap || spec.series.isEmpty())
        return false;
    for (const Series& s : spec.series)
        if (s.style != SeriesStyle::Bars)
            return false;
    qsizetype total = 0;
    for (const QString& label : spec.categoryLabels)
        total += label.size();
    return total > 60;
}

// A category name of at most kCategoryChars characters: a longer one keeps its start and
// its longer end (where run names differ), the middle elided; hover shows it whole.
constexpr qsizetype kCategoryChars = 32;
QString shortCategory(const QString& label)
{
    if (label.size() <= kCategoryChars)
        return label;
    const qsizetype head = kCategoryChars / 3;
    return label.left(head) + QChar(0x2026) + label.right(kCategoryChars - head - 1);
}

// The note under the plot, word-wrapped to the plot's current width each time the
// layout is computed (window resize, PNG/PDF export size, report rectangle).
class NoteElement : public QCPTextElement {
public:
    NoteElement(QCustomPlot* plot, const QString& text, const QFont& font)
        : QCPTextElement(plot, text, font), m_raw(text)
    {
    }
    void update(UpdatePhase phase) override
    {
        if (phase == upPreparation && mParentPlot) {
            const QString text = wrapText(m_raw, font(), mParentPlot->viewport().width() - 16.0);
            if (text != this->text())
                setText(text);
        }
        QCPTextElement::update(phase);
    }

private:
    QString m_raw;
};

// The axis rect of every plot. For category ticks (bars) it widens its right margin
// so the last labels fit: QCustomPlot drops a tick label that would cross the
// plot's edge, and rotated labels reach right of their tick.
class PlotAxisRect : public QCPAxisRect {
public:
    using QCPAxisRect::QCPAxisRect;

protected:
    int calculateAutoMargin(QCP::MarginSide side) override
    {
        const int margin = QCPAxisRect::calculateAutoMargin(side);
        if (side != QCP::msRight || !mParentPlot)
            return margin;
        QCPAxis* xa = axis(QCPAxis::atBottom);
        const auto text = xa ? xa->ticker().dynamicCast<QCPAxisTickerText>() : nullptr;
        const QCPRange range = xa ? xa->range() : QCPRange();
        if (!text || !xa->visible() || !xa->tickLabels() || range.size() <= 0)
            return margin;
        // This margin is asked for before the layout places the rect: take the plot's
        // width, less the left margin, as the room the rect and this margin share.
        const double outer = mParentPlot->viewport().width() -
                             std::max(QCPAxisRect::calculateAutoMargin(QCP::msLeft), minimumMargins().left());
        const double radians = qDegreesToRadians(xa->tickLabelRotation());
        const QFontMetricsF fm(xa->tickLabelFont());
        double needed = margin;
        for (auto it = text->ticks().cbegin(); it != text->ticks().cend(); ++it) {
            if (!range.contains(it.key()))
                continue;
            const QRectF bounds = fm.boundingRect(QRectF(), Qt::TextDontClip | Qt::AlignHCenter, it.value());
            // How far the label reaches right of its tick (QCustomPlot's placement:
            // centred, or a positive rotation hanging from the tick to the right).
            const double reach = radians > 0 ? bounds.height() * std::sin(radians) / 2 +
                                                   bounds.width() * std::cos(radians)
                                             : bounds.width() / 2;
            // The tick sits `share` of the rect's width left of its right edge.
            const double share = (range.upper - it.key()) / range.size();
            if (share < 1.0)
                needed = std::max(needed, (reach + 4.0 - share * outer) / (1.0 - share));
        }
        return int(std::ceil(std::min(needed, outer / 2)));
    }
};

// A scatter point's label: right of and above its point, or left of it / below it
// where it would leave the axis rect there (the rightmost and topmost points).
class PointLabel : public QCPItemText {
public:
    using QCPItemText::QCPItemText;

protected:
    void draw(QCPPainter* painter) override
    {
        constexpr int gapX = 8, gapY = 6;
        const QPointF at = position->pixelPosition();
        const QRect clip = clipRect();
        const QRectF text = QFontMetricsF(mainFont()).boundingRect(QRectF(), Qt::TextDontClip | textAlignment(),
                                                                    this->text());
        const bool left = at.x() + gapX + text.width() > clip.right() && at.x() - gapX - text.width() >= clip.left();
        const bool below =
            at.y() - gapY - text.height() < clip.top() && at.y() + gapY + text.height() <= clip.bottom();
        setPositionAlignment((left ? Qt::AlignRight : Qt::AlignLeft) | (below ? Qt::AlignTop : Qt::AlignBottom));
        setPadding(QMargins(left ? 0 : gapX, below ? gapY : 0, left ? gapX : 0, below ? 0 : gapY));
        QCPItemText::draw(painter);
    }
};

} // namespace

void setHeatmapCells(QCPColorMap* map, const Heatmap& h)
{
    // QCustomPlot draws a single column (row) with no width: a one-cell axis is drawn
    // as two half-width copies of the cell.
    const int columns = std::max(1, h.columns), rows = std::max(1, h.rows);
    const bool wideX = columns == 1, wideY = rows == 1;
    const double wx = columns > 1 ? (h.xLast - h.xFirst) / (columns - 1) : 1.0;
    const double wy = rows > 1 ? (h.yLast - h.yFirst) / (rows - 1) : 1.0;
    map->data()->setSize(wideX ? 2 : columns, wideY ? 2 : rows);
    map->data()->setRange(wideX ? QCPRange(h.xFirst - wx / 4, h.xFirst + wx / 4) : QCPRange(h.xFirst, h.xLast),
                          wideY ? QCPRange(h.yFirst - wy / 4, h.yFirst + wy / 4) : QCPRange(h.yFirst, h.yLast));
    const qsizetype size = h.values.size();
    for (int r = 0; r < (wideY ? 2 : rows); ++r)
        for (int c = 0; c < (wideX ? 2 : columns); ++c) {
            const qsizetype i = qsizetype(wideY ? 0 : r) * h.columns + (wideX ? 0 : c);
            map->data()->setCell(c, r, i < size ? h.values[i] : std::numeric_limits<double>::quiet_NaN());
        }
    map->data()->recalculateDataBounds();
}

void setDecimatedData(QCPGraph* graph, const Series& s, double lower, double upper, int columns, bool logX)
{
    const QVector<qsizetype> keep = decimateLine(s.x, s.y, lower, upper, columns, logX);
    QVector<QCPGraphData> data;
    data.reserve(keep.size());
    for (qsizetype i : keep)
        data.append(QCPGraphData(s.x[i], s.y[i]));
    graph->data()->set(data, true);
}

QFont scaledFont(const QFont& font, double factor)
{
    QFont f = font;
    if (font.pixelSize() > 0)
        f.setPixelSize(std::max(1, int(std::lround(font.pixelSize() * factor))));
    else if (font.pointSizeF() > 0)
        f.setPointSizeF(font.pointSizeF() * factor);
    return f;
}

QString wrapText(const QString& text, const QFont& font, double width)
{
    return wrapped(text, font, width);
}

QColor qColour(quint32 rgb)
{
    return QColor(int((rgb >> 16) & 0xFF), int((rgb >> 8) & 0xFF), int(rgb & 0xFF));
}

QColor seriesColour(int index)
{
    return qColour(paletteColour(index));
}

QCPColorGradient sequentialGradient()
{
    QCPColorGradient g;
    g.clearColorStops();
    const QVector<quint32> stops = sequentialStops();
    for (int i = 0; i < stops.size(); ++i)
        g.setColorStopAt(double(i) / (stops.size() - 1), qColour(stops[i]));
    g.setColorInterpolation(QCPColorGradient::ciRGB);
    g.setNanHandling(QCPColorGradient::nhNanColor);
    g.setNanColor(QColor(230, 230, 230));
    return g;
}


bool configurePlot(QCustomPlot* plot, const PlotSpec& spec)
{
    // Latin text in DejaVu Sans, Chinese in the Simplified Chinese face (PlotFont.h):
    // set before the axes, legend and texts below copy the plot's font.
    plot->setFont(withUiFamilies(plot->font()));
    plot->clearPlottables();
    plot->clearItems();
    plot->plotLayout()->clear();
    qDeleteAll(plot->findChildren<QCPMarginGroup*>(Qt::FindDirectChildrenOnly));
    // One column: [title] / [axis rect | colour scale] / [note], so title and note
    // span the full width.
    auto* body = new QCPLayoutGrid;
    plot->plotLayout()->addElement(0, 0, body);
    body->setColumnSpacing(8);
    auto* rect = new PlotAxisRect(plot);
    body->addElement(0, 0, rect);
    // Keep QCustomPlot's convenience pointers valid for callers (customPlot()->xAxis).
    plot->xAxis = rect->axis(QCPAxis::atBottom);
    plot->yAxis = rect->axis(QCPAxis::atLeft);
    plot->xAxis2 = rect->axis(QCPAxis::atTop);
    plot->yAxis2 = rect->axis(QCPAxis::atRight);
    plot->legend = new QCPLegend;
    rect->insetLayout()->addElement(plot->legend, Qt::AlignTop | Qt::AlignRight);
    plot->legend->setLayer(QStringLiteral("legend"));
    plot->legend->setVisible(false);
    plot->setBackground(Qt::white);

    const QFont base = plot->font();
    QFont titleFont = scaledFont(base, 1.15);
    titleFont.setBold(true);
    const QFont small = scaledFont(base, 0.85);
    plot->legend->setFont(small);
    // Compact entries (a short line for the pen, no extra row gap): ten runs' curves
    // still leave the data its room (placeLegend).
    plot->legend->setIconSize(24, 10);
    plot->legend->setIconTextPadding(5);
    plot->legend->setRowSpacing(0);
    plot->legend->setBrush(QColor(255, 255, 255, 220));
    plot->legend->setBorderPen(QPen(QColor(180, 180, 180)));

    int row = 0;
    if (!spec.title.isEmpty()) {
        plot->plotLayout()->insertRow(0);
        plot->plotLayout()->addElement(0, 0, new QCPTextElement(plot, spec.title, titleFont));
        row = 1;
    }
    const int axisRow = row;
    if (!spec.note.isEmpty()) {
        auto* note = new NoteElement(plot, spec.note, small);
        note->setTextColor(QColor(70, 70, 70));
        note->setTextFlags(Qt::AlignLeft | Qt::AlignVCenter);
        note->setObjectName(QStringLiteral("note"));
        note->setMargins(QMargins(8, 2, 8, 4));
        plot->plotLayout()->addElement(axisRow + 1, 0, note);
    }
    plot->plotLayout()->setRowStretchFactor(axisRow, 1);
    for (int r = 0; r < plot->plotLayout()->rowCount(); ++r)
        if (r != axisRow)
            plot->plotLayout()->setRowStretchFactor(r, 0.001);

    QCPAxis* xa = rect->axis(QCPAxis::atBottom);
    QCPAxis* ya = rect->axis(QCPAxis::atLeft);
    xa->grid()->setPen(QPen(QColor(225, 225, 225), 0, Qt::SolidLine));
    ya->grid()->setPen(QPen(QColor(225, 225, 225), 0, Qt::SolidLine));
    rect->setRangeDrag(Qt::Horizontal | Qt::Vertical);
    rect->setRangeZoom(Qt::Horizontal | Qt::Vertical);
    rect->setRangeDragAxes(xa, ya);
    rect->setRangeZoomAxes(xa, ya);

    if (isEmpty(spec)) {
        xa->setVisible(false);
        ya->setVisible(false);
        auto* text = new QCPItemText(plot);
        text->setClipToAxisRect(false);
        text->position->setType(QCPItemPosition::ptAxisRectRatio);
        text->position->setAxisRect(rect);
        text->position->setCoords(0.5, 0.5);
        text->setPositionAlignment(Qt::AlignCenter);
        text->setFont(scaledFont(base, 1.4));
        text->setColor(QColor(120, 120, 120));
        text->setText(QCoreApplication::translate("moewb::plots::Plots", "No data"));
        return false;
    }

    const bool xLog = spec.x.scale != AxisScale::Linear;
    const bool yLog = spec.y.scale != AxisScale::Linear;
    Bounds b;
    bool bars = false;
    for (int si = 0; si < spec.series.size(); ++si) {
        const Series& s = spec.series[si];
        const qsizetype n = std::min(s.x.size(), s.y.size());
        // A stacked segment reaches from the ones under it to their sum with it.
        const QVector<double> bottoms = stackBottoms(spec, si);
        for (qsizetype i = 0; i < n; ++i)
            b.add(s.x[i], s.y[i] + (s.style == SeriesStyle::StackedBars ? bottoms[i] : 0.0), xLog, yLog);
        bars = bars || s.style == SeriesStyle::Bars || s.style == SeriesStyle::StackedBars;
    }
    if (spec.heatmap && spec.heatmap->columns > 0 && spec.heatmap->rows > 0) {
        const Heatmap& h = *spec.heatmap;
        const double dx = h.columns > 1 ? (h.xLast - h.xFirst) / (h.columns - 1) / 2 : 0.5;
        const double dy = h.rows > 1 ? (h.yLast - h.yFirst) / (h.rows - 1) / 2 : 0.5;
        b.add(h.xFirst - dx, h.yFirst - dy, false, false);
        b.add(h.xLast + dx, h.yLast + dy, false, false);
    }

    QCPRange xr = padded(b.xMin, b.xMax, xLog, false);
    QCPRange yr = padded(b.yMin, b.yMax, yLog, bars || spec.y.unit == AxisUnit::BytesPerSec ||
                                                    spec.y.unit == AxisUnit::Microseconds ||
                                                    spec.y.unit == AxisUnit::Fraction ||
                                                    spec.y.unit == AxisUnit::TokensPerSec);
    if (spec.heatmap) {
        xr = QCPRange(b.xMin, b.xMax);
        yr = QCPRange(b.yMin, b.yMax);
    }
    if (bars)
        xr = QCPRange(-0.6, std::max<double>(spec.categoryLabels.size(), b.xMax + 1) - 0.4);

    // The axes the spec's x and y are drawn on: bottom and left, swapped for bars on
    // their side (the first category at the top).
    const bool horizontal = horizontalBars(spec);
    QCPAxis* keyAxis = horizontal ? ya : xa;
    QCPAxis* valueAxis = horizontal ? xa : ya;
    applyAxis(keyAxis, spec.x, std::max(std::fabs(xr.lower), std::fabs(xr.upper)));
    applyAxis(valueAxis, spec.y, std::max(std::fabs(yr.lower), std::fabs(yr.upper)));
    if (!spec.categoryLabels.isEmpty()) {
        auto text = QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText);
        int total = 0;
        for (int i = 0; i < spec.categoryLabels.size(); ++i) {
            text->addTick(i, horizontal ? shortCategory(spec.categoryLabels[i]) : spec.categoryLabels[i]);
            total += int(spec.categoryLabels[i].size());
        }
        keyAxis->setTicker(text);
        keyAxis->setTickLabelRotation(!horizontal && total > 60 ? 30 : 0);
        keyAxis->setRangeReversed(horizontal);
        keyAxis->setSubTicks(false);
        keyAxis->grid()->setVisible(false);
    }

    // Heatmap under the series.
    if (spec.heatmap && spec.heatmap->columns > 0 && spec.heatmap->rows > 0) {
        // A colour map drawn into fewer pixels than cells keeps only every n-th cell:
        // max-pooled here (a single hot cell stays), and again for the visible range
        // on every zoom and pan by PlotView (setHeatmapCells).
        const Heatmap h = pooledHeatmap(*spec.heatmap, kHeatmapCells, kHeatmapCells);
        auto* map = new QCPColorMap(xa, ya);
        map->setProperty("moewbHeatmap", true);
        setHeatmapCells(map, h);
        // The colour range of every cell, so zooming in does not change the colours.
        double lo = std::numeric_limits<double>::infinity(), hi = -lo;
        for (double v : spec.heatmap->values)
            if (std::isfinite(v)) {
                lo = std::min(lo, v);
                hi = std::max(hi, v);
            }
        map->setGradient(sequentialGradient());
        map->setInterpolate(false);
        map->setTightBoundary(false);
        auto* scale = new QCPColorScale(plot);
        scale->setObjectName(QStringLiteral("colourScale"));
        body->addElement(0, 1, scale);
        scale->setType(QCPAxis::atRight);
        scale->setLabel(h.colourLabel);
        scale->setGradient(sequentialGradient());
        scale->setRangeDrag(false);
        scale->setRangeZoom(false);
        map->setColorScale(scale);
        if (lo <= hi)
            scale->setDataRange(lo < hi ? QCPRange(lo, hi) : QCPRange(lo - 0.5, hi + 0.5));
        auto* group = new QCPMarginGroup(plot);
        rect->setMarginGroup(QCP::msTop | QCP::msBottom, group);
        scale->setMarginGroup(QCP::msTop | QCP::msBottom, group);
        if (h.rows <= 64 && h.yLast - h.yFirst == h.rows - 1) {
            // Integer rows (layers, experts): integer ticks only.
            auto fixed = QSharedPointer<QCPAxisTickerFixed>(new QCPAxisTickerFixed);
            fixed->setTickStep(1.0);
            fixed->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
            ya->setTicker(fixed);
            ya->setSubTicks(false);
        }
        if (spec.x.unit == AxisUnit::None && h.xLast - h.xFirst == h.columns - 1) {
            auto fixed = QSharedPointer<QCPAxisTickerFixed>(new QCPAxisTickerFixed);
            fixed->setTickStep(1.0);
            fixed->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
            xa->setTicker(fixed);
            xa->setSubTicks(false);
        }
        xa->grid()->setVisible(false);
        ya->grid()->setVisible(false);
    }

    int legendItems = 0;
    QCPBars* stackTop = nullptr; // the last stacked segment: the next one goes on it
    for (int si = 0; si < spec.series.size(); ++si) {
        const Series& s = spec.series[si];
        const qsizetype n = std::min(s.x.size(), s.y.size());
        if (s.style == SeriesStyle::Bars) {
            auto* bar = new QCPBars(keyAxis, valueAxis);
            bar->setProperty("moewbSeries", si);
            bar->setName(s.name);
            bar->setData(s.x.first(n), s.y.first(n));
            bar->setWidth(0.6);
            QColor c = seriesColour(s.colour);
            bar->setPen(QPen(c.darker(130), 1));
            c.setAlpha(210);
            bar->setBrush(c);
            bar->removeFromLegend();
            continue;
        }
        if (s.style == SeriesStyle::StackedBars) {
            // One segment of each bar: on the segments before it, named in the legend.
            auto* bar = new QCPBars(xa, ya);
            bar->setProperty("moewbSeries", si);
            bar->setName(s.name);
            bar->setData(s.x.first(n), s.y.first(n));
            bar->setWidth(0.7);
            bar->setStackingGap(0);
            const QColor c = seriesColour(s.colour);
            bar->setPen(QPen(QColor(255, 255, 255), 0.8)); // a hairline between segments
            bar->setBrush(c);
            if (stackTop)
                bar->moveAbove(stackTop);
            stackTop = bar;
            ++legendItems;
            continue;
        }
        if (s.style == SeriesStyle::Scatter) {
            double lo = std::numeric_limits<double>::infinity(), hi = -lo;
            for (double v : s.colourValues)
                if (std::isfinite(v)) {
                    lo = std::min(lo, v);
                    hi = std::max(hi, v);
                }
            const bool coloured = lo <= hi;
            for (qsizetype i = 0; i < n; ++i) {
                auto* g = new QCPGraph(xa, ya);
                g->setProperty("moewbSeries", si);
                g->setProperty("moewbPoint", qlonglong(i));
                g->setName(s.name);
                g->setLineStyle(QCPGraph::lsNone);
                QColor c = seriesColour(s.colour);
                if (coloured) {
                    const double v = i < s.colourValues.size() ? s.colourValues[i] : std::nan("");
                    c = std::isfinite(v) ? qColour(sequentialColour(hi > lo ? (v - lo) / (hi - lo) : 0.5))
                                         : QColor(150, 150, 150);
                }
                g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(QColor(40, 40, 40), 1.2), c, 12));
                g->setData({s.x[i]}, {s.y[i]}, true);
                g->removeFromLegend();
                if (i < s.pointLabels.size() && !s.pointLabels[i].isEmpty()) {
                    auto* label = new PointLabel(plot);
                    label->position->setAxes(xa, ya);
                    label->position->setCoords(s.x[i], s.y[i]);
                    label->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
                    label->setPadding(QMargins(8, 0, 0, 6));
                    label->setFont(small);
                    label->setText(s.pointLabels[i]);
                }
            }
            if (coloured && !spec.heatmap) {
                auto* scale = new QCPColorScale(plot);
                scale->setObjectName(QStringLiteral("colourScale"));
                body->addElement(0, 1, scale);
                scale->setType(QCPAxis::atRight);
                scale->setLabel(s.colourLabel);
                scale->setGradient(sequentialGradient());
                scale->setDataRange(hi > lo ? QCPRange(lo, hi) : QCPRange(lo - 0.5, hi + 0.5));
                scale->setRangeDrag(false);
                scale->setRangeZoom(false);
                auto* group = new QCPMarginGroup(plot);
                rect->setMarginGroup(QCP::msTop | QCP::msBottom, group);
                scale->setMarginGroup(QCP::msTop | QCP::msBottom, group);
            }
            // Room for the labels right of the points.
            xr.upper += xr.size() * 0.15;
            continue;
        }
        auto* g = new QCPGraph(xa, ya);
        g->setProperty("moewbSeries", si);
        g->setName(s.name);
        g->setPen(seriesPen(s));
        g->setAdaptiveSampling(true);
        const bool sorted = std::is_sorted(s.x.begin(), s.x.begin() + n);
        if (sorted && n > kDecimateAbove) {
            // Long curves: the first, lowest, highest and last point of each of
            // kDecimateColumns columns (PlotView redoes it for the visible range and
            // the plot's width on every zoom and pan).
            g->setProperty("moewbDecimated", true);
            setDecimatedData(g, s, s.x.first(), s.x[n - 1], kDecimateColumns, xLog);
        } else {
            g->setData(s.x.first(n), s.y.first(n), sorted);
        }
        if (n <= 40 && s.style != SeriesStyle::FaintLine && s.colour >= 0)
            g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 4));
        if (s.style == SeriesStyle::FaintLine || s.name.isEmpty())
            g->removeFromLegend();
        else
            ++legendItems;
    }
    // A zoomed panel opens at its tail (plotspec/TailView.h), in the window and the report.
    if (const std::optional<ViewRanges> tail = tailViewRanges(spec)) {
        xr = QCPRange(tail->xLower, tail->xUpper);
        yr = QCPRange(tail->yLower, tail->yUpper);
    }
    keyAxis->setRange(xr);
    valueAxis->setRange(yr);
    // moewbNoLegend: a second panel of a plot whose first panel has the legend.
    if ((legendItems >= 2 || (legendItems == 1 && !bars && !spec.heatmap)) &&
        !plot->property("moewbNoLegend").toBool()) {
        plot->legend->setVisible(true);
        bool crowded = false;
        Qt::Alignment corner = legendCorner(spec, xr, yr, xLog, &crowded);
        // More than six entries cover the data wherever they sit inside.
        if (crowded || legendItems > 6) {
            // Every corner holds data: the legend goes below the axis rect, outside the
            // data area, its entries in up to two columns.
            rect->insetLayout()->take(plot->legend);
            rect->insetLayout()->simplify();
            body->addElement(1, 0, plot->legend);
            plot->legend->setWrap(std::min(2, legendItems));
            plot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true); // rearranges the entries
            plot->legend->setBrush(Qt::NoBrush);
            plot->legend->setBorderPen(Qt::NoPen);
            plot->legend->setMargins(QMargins(4, 2, 4, 2));
            body->setRowStretchFactor(0, 1);
            body->setRowStretchFactor(1, 0.001);
            plot->legend->setProperty("moewbOutside", true);
        } else {
            rect->insetLayout()->setInsetAlignment(0, corner);
        }
    }
    // The ranges a double-click returns to, per axis (bottom, left).
    plot->setProperty("moewbXRange", QVariant::fromValue(QPointF(xa->range().lower, xa->range().upper)));
    plot->setProperty("moewbYRange", QVariant::fromValue(QPointF(ya->range().lower, ya->range().upper)));
    return true;
}

} // namespace moewb::plots
