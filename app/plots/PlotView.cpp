#include "PlotView.h"

#include "PlotRender.h"
#include "PlotSetup.h"
#include "plotspec/PlotCsv.h"
#include "plotspec/Stacking.h"
#include "plotspec/StagePlots.h"
#include "plotspec/TailView.h"
#include "PlotToolBar.h"

#include <QAbstractScrollArea>
#include <QApplication>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QFile>
#include <QFileDialog>
#include <QKeyEvent>
#include <QMenu>
#include <QMessageBox>
#include <QResizeEvent>
#include <QWheelEvent>
#include <QSaveFile>
#include <QToolTip>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace moewb::plots {

namespace {
constexpr double hoverRadius = 24.0; // pixels

QString runLine(const Series& s)
{
    return s.run.isEmpty() || s.name.contains(s.run) ? QString() : PlotView::tr("run %1").arg(s.run);
}
} // namespace

PlotView::PlotView(QWidget* parent)
    : QWidget(parent), m_plot(new QCustomPlot(this))
{
    auto* layout = new QVBoxLayout(this);
    // A 2 px rim that turns the highlight colour while the plot has the keyboard focus.
    layout->setContentsMargins(2, 2, 2, 2);
    layout->setSpacing(0);
    m_toolBar = new PlotToolBar(this);
    layout->addWidget(m_toolBar);
    layout->addWidget(m_plot, 1); // the toolbar keeps its one row
    setAutoFillBackground(true);
    // Reached with Tab; Shift+F10 or the menu key opens the export menu.
    m_plot->setFocusPolicy(Qt::StrongFocus);
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    // Solid lines drawn as one polyline each, not segment by segment: a 2 px
    // antialiased line of a few thousand points (a decimated long curve) costs a
    // tenth (tests/bench/gui/bench_plot_replot).
    m_plot->setPlottingHint(QCP::phFastPolylines, true);
    m_plot->setMouseTracking(true);
    m_plot->setContextMenuPolicy(Qt::CustomContextMenu);
    m_plot->installEventFilter(this);
    m_plot->setMinimumSize(240, 180);
    connect(m_plot, &QCustomPlot::customContextMenuRequested, this, &PlotView::showContextMenu);
    connect(m_plot, &QCustomPlot::mouseDoubleClick, this, [this](QMouseEvent*) { resetView(); });
    connect(m_plot, &QCustomPlot::mouseMove, this, [this](QMouseEvent* e) {
        if (hasLineSeries()) {
            updateCrosshair(e->position().toPoint(), e->globalPosition().toPoint());
            return;
        }
        const QString text = hoverTextAt(e->position().toPoint());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(e->globalPosition().toPoint(), text, m_plot);
    });
    connect(m_plot, &QCustomPlot::legendClick, this, [this](QCPLegend*, QCPAbstractLegendItem* item, QMouseEvent*) {
        if (auto* pi = qobject_cast<QCPPlottableLegendItem*>(item))
            setSeriesHidden(pi->plottable()->name(), !m_hidden.contains(pi->plottable()->name()));
    });
    // Thin the tick labels to the width the axis has (after every layout).
    // Queued: inside afterReplot QCustomPlot is still replotting and ignores a replot.
    connect(m_plot, &QCustomPlot::afterReplot, this, [this] {
        if (!m_fittingTicks)
            QMetaObject::invokeMethod(this, [this] {
                fitLegend();
                fitTicks();
            }, Qt::QueuedConnection);
    });
    // Level of detail for the range and size about to be drawn: after the layout
    // (the axis rect's pixel size is known), before the layers are drawn.
    connect(m_plot, &QCustomPlot::afterLayout, this, [this] { updateLevelOfDetail(); });
    rebuild();
}

PlotView::~PlotView() = default;

void PlotView::setSpec(const PlotSpec& spec)
{
    m_spec = spec;
    rebuild();
}

void PlotView::rebuild()
{
    PlotSpec shown = m_spec;
    if (m_logY && offersLogY())
        shown.y.scale = *m_logY ? AxisScale::Log10 : AxisScale::Linear;
    // Legend names that no longer exist are forgotten.
    QSet<QString> names;
    for (const Series& s : m_spec.series)
        names.insert(s.name);
    m_hidden.intersect(names);
    m_fittingTicks = true;
    m_lodKey.clear();
    m_pooled = PooledHeatmap();
    const bool hasData = configurePlot(m_plot, shown);
    m_plot->setInteractions(hasData ? QCP::iRangeDrag | QCP::iRangeZoom : QCP::Interactions());
    if (QCPAxisRect* rect = m_plot->axisRect())
        m_plot->setProperty("moewbTickCount", rect->axis(QCPAxis::atBottom)->ticker()->tickCount());
    if (hasData) {
        applyHidden();
        applyTail();
    }
    // The legend where it covers no data, for the size the plot has now (fitLegend
    // places it again when the size changes).
    m_plot->setProperty("moewbLegendKey", QString());
    if (hasData && m_plot->legend && m_plot->legend->visible()) {
        placeLegend(m_plot, m_spec);
        m_plot->setProperty("moewbLegendKey", QStringLiteral("%1x%2").arg(m_plot->width()).arg(m_plot->height()));
    }
    m_plot->replot();
    m_fittingTicks = false;
    m_plot->setProperty("moewbTickKey", QString()); // a new ticker: fit it again
    fitTicks();
    m_toolBar->sync();
}

bool PlotView::hasLineSeries() const
{
    if (m_spec.heatmap || isEmpty(m_spec))
        return false;
    for (const Series& s : m_spec.series)
        if (s.style == SeriesStyle::Line || s.style == SeriesStyle::DashedLine)
            return true;
    return false;
}

void PlotView::updateLevelOfDetail()
{
    QCPAxisRect* rect = m_plot->axisRect();
    if (!rect || isEmpty(m_spec))
        return;
    QCPAxis* xa = rect->axis(QCPAxis::atBottom);
    QCPAxis* ya = rect->axis(QCPAxis::atLeft);
    const double ratio = std::max(1.0, m_plot->bufferDevicePixelRatio());
    const int width = std::max(1, int(rect->width() * ratio));
    const int height = std::max(1, int(rect->height() * ratio));
    const QCPRange xr = xa->range(), yr = ya->range();
    const QString key = QStringLiteral("%1 %2 %3 %4 %5 %6")
                            .arg(xr.lower, 0, 'g', 17)
                            .arg(xr.upper, 0, 'g', 17)
                            .arg(yr.lower, 0, 'g', 17)
                            .arg(yr.upper, 0, 'g', 17)
                            .arg(width)
                            .arg(height);
    if (key == m_lodKey)
        return;
    m_lodKey = key;
    for (int p = 0; p < m_plot->plottableCount(); ++p) {
        QCPAbstractPlottable* plottable = m_plot->plottable(p);
        if (plottable->property("moewbHeatmap").toBool() && m_spec.heatmap) {
            const Heatmap& h = *m_spec.heatmap;
            if (h.columns <= 0 || h.rows <= 0)
                continue;
            const double dx = h.columns > 1 ? (h.xLast - h.xFirst) / (h.columns - 1) : 1.0;
            const double dy = h.rows > 1 ? (h.yLast - h.yFirst) / (h.rows - 1) : 1.0;
            if (!(dx > 0) || !(dy > 0))
                continue;
            // The cells in view, partly visible ones included, and the pixels they cover.
            auto span = [](const QCPRange& r, double first, double d, int n, int* from, int* to) {
                const double edge = first - d / 2;
                *from = int(std::clamp(std::floor((r.lower - edge) / d), 0.0, double(n)));
                *to = int(std::clamp(std::ceil((r.upper - edge) / d), 0.0, double(n)));
            };
            int c0 = 0, c1 = 0, r0 = 0, r1 = 0;
            span(xr, h.xFirst, dx, h.columns, &c0, &c1);
            span(yr, h.yFirst, dy, h.rows, &r0, &r1);
            if (c0 >= c1 || r0 >= r1)
                continue; // nothing in view: the map stays as it was
            const double px = std::fabs(xa->coordToPixel(h.xFirst - dx / 2 + c1 * dx) -
                                        xa->coordToPixel(h.xFirst - dx / 2 + c0 * dx)) * ratio;
            const double py = std::fabs(ya->coordToPixel(h.yFirst - dy / 2 + r1 * dy) -
                                        ya->coordToPixel(h.yFirst - dy / 2 + r0 * dy)) * ratio;
            m_pooled = poolHeatmap(h, c0, c1, r0, r1, int(std::min<double>(px, width)),
                                   int(std::min<double>(py, height)));
            Heatmap shown = h;
            shown.columns = m_pooled.columns;
            shown.rows = m_pooled.rows;
            shown.values = m_pooled.max;
            shown.xFirst = h.xFirst - dx / 2 + (m_pooled.firstColumn + m_pooled.columnBlock / 2.0) * dx;
            shown.xLast = shown.xFirst + double(m_pooled.columns - 1) * m_pooled.columnBlock * dx;
            shown.yFirst = h.yFirst - dy / 2 + (m_pooled.firstRow + m_pooled.rowBlock / 2.0) * dy;
            shown.yLast = shown.yFirst + double(m_pooled.rows - 1) * m_pooled.rowBlock * dy;
            setHeatmapCells(static_cast<QCPColorMap*>(plottable), shown);
            continue;
        }
        if (plottable->property("moewbDecimated").toBool()) {
            const int si = plottable->property("moewbSeries").toInt();
            auto* graph = qobject_cast<QCPGraph*>(plottable);
            if (graph && si >= 0 && si < m_spec.series.size())
                setDecimatedData(graph, m_spec.series[si], xr.lower, xr.upper, width,
                                 xa->scaleType() == QCPAxis::stLogarithmic);
        }
    }
}

void PlotView::setSeriesHidden(const QString& name, bool hidden)
{
    if (hidden == m_hidden.contains(name))
        return;
    if (hidden)
        m_hidden.insert(name);
    else
        m_hidden.remove(name);
    applyHidden();
    m_plot->replot();
}

void PlotView::applyHidden()
{
    // A series without a legend entry (the raw curve under its smoothed twin) goes
    // with the series of its run and colour that has one.
    auto hiddenSeries = [this](const Series& s) {
        if (m_hidden.contains(s.name))
            return true;
        if (s.style != SeriesStyle::FaintLine)
            return false;
        for (const Series& o : m_spec.series)
            if (&o != &s && o.style != SeriesStyle::FaintLine && o.run == s.run && o.colour == s.colour &&
                m_hidden.contains(o.name))
                return true;
        return false;
    };
    for (int p = 0; p < m_plot->plottableCount(); ++p) {
        QCPAbstractPlottable* plottable = m_plot->plottable(p);
        const QVariant si = plottable->property("moewbSeries");
        if (!si.isValid() || si.toInt() < 0 || si.toInt() >= m_spec.series.size())
            continue;
        const bool hidden = hiddenSeries(m_spec.series[si.toInt()]);
        plottable->setVisible(!hidden);
        if (m_plot->legend)
            if (auto* item = m_plot->legend->itemWithPlottable(plottable))
                item->setTextColor(hidden ? QColor(160, 160, 160) : QColor(Qt::black));
    }
}

bool PlotView::offersLogY() const
{
    if (m_spec.heatmap || isEmpty(m_spec))
        return false;
    for (const Series& s : m_spec.series)
        if (s.style == SeriesStyle::Bars || s.style == SeriesStyle::StackedBars || s.style == SeriesStyle::Scatter)
            return false;
    return m_spec.y.unit == AxisUnit::BytesPerSec || m_spec.y.unit == AxisUnit::Microseconds;
}

bool PlotView::isLogY() const
{
    return m_logY && offersLogY() ? *m_logY : m_spec.y.scale != AxisScale::Linear;
}

void PlotView::setLogY(bool log)
{
    if (!offersLogY() || log == isLogY())
        return;
    m_logY = log;
    rebuild();
}

void PlotView::applyTail()
{
    // A zoomed panel (PlotSpec::tailFraction): configurePlot opened it at its tail; the
    // y range is fitted again to the series left shown.
    QCPAxisRect* rect = m_plot->axisRect();
    if (!rect || m_hidden.isEmpty())
        return;
    const std::optional<ViewRanges> tail = tailViewRanges(m_spec, m_hidden);
    if (!tail)
        return;
    const QCPRange xr(tail->xLower, tail->xUpper);
    const QCPRange yr(tail->yLower, tail->yUpper);
    rect->axis(QCPAxis::atBottom)->setRange(xr);
    rect->axis(QCPAxis::atLeft)->setRange(yr);
    m_plot->setProperty("moewbXRange", QVariant::fromValue(QPointF(xr.lower, xr.upper)));
    m_plot->setProperty("moewbYRange", QVariant::fromValue(QPointF(yr.lower, yr.upper)));
}

void PlotView::fitLegend()
{
    // Where the legend covers no data, for the plot's size now (placeLegend); done
    // again only when the size changed.
    if (!m_plot->legend || !m_plot->legend->visible())
        return;
    const QString key = QStringLiteral("%1x%2").arg(m_plot->width()).arg(m_plot->height());
    if (m_plot->property("moewbLegendKey").toString() == key)
        return;
    m_plot->setProperty("moewbLegendKey", key);
    placeLegend(m_plot, m_spec);
    // Measuring laid the plot out with the legend inside: lay it out as placed.
    const bool fitting = m_fittingTicks;
    m_fittingTicks = true;
    m_plot->replot();
    m_fittingTicks = fitting;
}

void PlotView::fitTicks()
{
    // Fewer ticks while neighbouring labels would touch: from the ticker's own count
    // down, replotting until each label keeps its own width plus a gap (measured in the
    // axis's tick label font). Done again only when the axis's width or range changed.
    QCPAxisRect* rect = m_plot->axisRect();
    if (!rect || isEmpty(m_spec))
        return;
    QCPAxis* xa = rect->axis(QCPAxis::atBottom);
    if (!xa->visible() || !xa->tickLabels() || xa->ticker().dynamicCast<QCPAxisTickerText>())
        return;
    const int wanted = m_plot->property("moewbTickCount").toInt();
    if (wanted < 2)
        return;
    const QString key = QStringLiteral("%1 %2 %3").arg(rect->width()).arg(xa->range().lower).arg(xa->range().upper);
    if (m_plot->property("moewbTickKey").toString() == key)
        return;
    const QFontMetrics fm(xa->tickLabelFont());
    auto collides = [&] {
        double previousRight = -1e9;
        const QVector<double> ticks = xa->tickVector();
        const QVector<QString> labels = xa->tickVectorLabels();
        for (int i = 0; i < ticks.size() && i < labels.size(); ++i) {
            const double px = xa->coordToPixel(ticks[i]);
            if (px < rect->left() - 1 || px > rect->right() + 1)
                continue;
            const double half = fm.horizontalAdvance(labels[i]) / 2.0;
            if (px - half < previousRight + 8)
                return true;
            previousRight = px + half;
        }
        return false;
    };
    m_fittingTicks = true;
    if (xa->ticker()->tickCount() != wanted) {
        xa->ticker()->setTickCount(wanted);
        m_plot->replot();
    }
    for (int count = wanted - 1; count >= 2 && collides(); --count) {
        xa->ticker()->setTickCount(count);
        m_plot->replot();
    }
    m_fittingTicks = false;
    m_plot->setProperty("moewbTickKey", key);
}

QString PlotView::crosshairTextAt(double x) const
{
    if (!hasLineSeries() || !std::isfinite(x))
        return {};
    QStringList lines;
    QString xText;
    for (const Series& s : m_spec.series) {
        if (s.style != SeriesStyle::Line && s.style != SeriesStyle::DashedLine)
            continue;
        if (m_hidden.contains(s.name))
            continue;
        const qsizetype n = std::min(s.x.size(), s.y.size());
        // Sorted curves only, and only within the series' own x span.
        if (n == 0 || !std::is_sorted(s.x.begin(), s.x.begin() + n) || x < s.x.first() || x > s.x[n - 1])
            continue;
        qsizetype i = std::lower_bound(s.x.begin(), s.x.begin() + n, x) - s.x.begin();
        if (i >= n)
            i = n - 1;
        if (i > 0 && std::fabs(s.x[i - 1] - x) <= std::fabs(s.x[i] - x))
            --i;
        if (xText.isEmpty())
            xText = QStringLiteral("%1: %2").arg(m_spec.x.label, formatValue(s.x[i], m_spec.x));
        lines << QStringLiteral("%1: %2").arg(s.name, formatValue(s.y[i], m_spec.y));
    }
    if (lines.isEmpty())
        return {};
    return xText + QLatin1Char('\n') + lines.join(QLatin1Char('\n'));
}

void PlotView::updateCrosshair(const QPoint& pixel, const QPoint& global)
{
    QCPAxisRect* rect = m_plot->axisRect();
    QCPLayer* overlay = m_plot->layer(QStringLiteral("overlay"));
    if (!rect || !overlay)
        return;
    auto* line = m_plot->findChild<QCPItemStraightLine*>(QStringLiteral("crosshair"));
    const bool inside = rect->rect().contains(pixel);
    const double x = rect->axis(QCPAxis::atBottom)->pixelToCoord(pixel.x());
    const QString text = inside ? crosshairTextAt(x) : QString();
    if (text.isEmpty()) {
        QToolTip::hideText();
        if (line && line->visible()) {
            line->setVisible(false);
            overlay->replot();
        }
        return;
    }
    if (!line) {
        line = new QCPItemStraightLine(m_plot);
        line->setObjectName(QStringLiteral("crosshair"));
        line->setLayer(overlay);
        line->setPen(QPen(QColor(90, 90, 90), 1, Qt::DashLine));
        line->setSelectable(false);
        overlay->setMode(QCPLayer::lmBuffered);
    }
    line->point1->setCoords(x, 0.0);
    line->point2->setCoords(x, 1.0);
    line->point1->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    line->point2->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    line->setClipAxisRect(rect);
    line->setVisible(true);
    overlay->replot();
    QToolTip::showText(global + QPoint(16, 8), text, m_plot);
}

void PlotView::copyToClipboard()
{
    QApplication::clipboard()->setImage(m_plot->toPixmap().toImage());
}

void PlotView::resetView()
{
    QCPAxisRect* rect = m_plot->axisRect();
    if (!rect)
        return;
    const QPointF xr = m_plot->property("moewbXRange").toPointF();
    const QPointF yr = m_plot->property("moewbYRange").toPointF();
    if (xr.x() < xr.y())
        rect->axis(QCPAxis::atBottom)->setRange(xr.x(), xr.y());
    if (yr.x() < yr.y())
        rect->axis(QCPAxis::atLeft)->setRange(yr.x(), yr.y());
    m_plot->replot();
}

QString PlotView::hoverTextAt(const QPoint& pixel) const
{
    QCPAxisRect* rect = m_plot->axisRect();
    if (!rect)
        return {};
    // Left of bars on their side: the category's whole name (the axis may elide it).
    QCPAxis* left = rect->axis(QCPAxis::atLeft);
    if (pixel.x() < rect->left() && pixel.y() >= rect->top() && pixel.y() <= rect->bottom() &&
        left->ticker().dynamicCast<QCPAxisTickerText>()) {
        const double at = std::round(left->pixelToCoord(pixel.y()));
        return at >= 0 && at < m_spec.categoryLabels.size() ? m_spec.categoryLabels[qsizetype(at)] : QString();
    }
    if (!rect->rect().contains(pixel))
        return {};
    double bestDist = hoverRadius;
    QString best;
    for (int p = 0; p < m_plot->plottableCount(); ++p) {
        QCPAbstractPlottable* plottable = m_plot->plottable(p);
        if (plottable->property("moewbHeatmap").toBool()) {
            auto* map = static_cast<QCPColorMap*>(plottable);
            if (!best.isEmpty() || !m_spec.heatmap)
                continue;
            const double key = map->keyAxis()->pixelToCoord(pixel.x());
            const double value = map->valueAxis()->pixelToCoord(pixel.y());
            // The spec's cell (the map may show a pooled copy).
            const Heatmap& h = *m_spec.heatmap;
            const double dx = h.columns > 1 ? (h.xLast - h.xFirst) / (h.columns - 1) : 0.0;
            const double dy = h.rows > 1 ? (h.yLast - h.yFirst) / (h.rows - 1) : 0.0;
            const int c = dx != 0.0 ? int(std::floor((key - h.xFirst) / dx + 0.5)) : 0;
            const int r = dy != 0.0 ? int(std::floor((value - h.yFirst) / dy + 0.5)) : 0;
            if (c < 0 || r < 0 || c >= h.columns || r >= h.rows)
                continue;
            const PooledHeatmap& pool = m_pooled;
            if (pool.columns > 0 && (pool.columnBlock > 1 || pool.rowBlock > 1)) {
                // A pooled cell: the cells it covers, their maximum (the colour) and mean.
                const int pc = (c - pool.firstColumn) / pool.columnBlock;
                const int pr = (r - pool.firstRow) / pool.rowBlock;
                if (c >= pool.firstColumn && r >= pool.firstRow && pc < pool.columns && pr < pool.rows) {
                    const int cFrom = pool.columnFrom(pc), cTo = std::min(h.columns, cFrom + pool.columnBlock) - 1;
                    const int rFrom = pool.rowFrom(pr), rTo = std::min(h.rows, rFrom + pool.rowBlock) - 1;
                    auto range = [](int from, int to, double first, double step, AxisUnit unit) {
                        const Axis axis{QString(), AxisScale::Linear, unit, {}};
                        const QString a = formatValue(first + step * from, axis);
                        return from == to ? a : QStringLiteral("%1–%2").arg(a, formatValue(first + step * to, axis));
                    };
                    const qsizetype i = qsizetype(pr) * pool.columns + pc;
                    const double mx = pool.max.value(i, std::nan("")), mean = pool.mean.value(i, std::nan(""));
                    best = tr("%1 %2, %3 %4\nmax %5, mean %6 %7 (%8 cells pooled)")
                               .arg(m_spec.y.label, range(rFrom, rTo, h.yFirst, dy, m_spec.y.unit))
                               .arg(m_spec.x.label, range(cFrom, cTo, h.xFirst, dx, m_spec.x.unit))
                               .arg(std::isfinite(mx) ? QString::number(mx, 'g', 6) : tr("no data"),
                                    std::isfinite(mean) ? QString::number(mean, 'g', 6) : tr("no data"),
                                    h.colourLabel)
                               .arg((cTo - cFrom + 1) * (rTo - rFrom + 1));
                    bestDist = hoverRadius;
                    continue;
                }
            }
            const double v = h.values.value(qsizetype(r) * h.columns + c, std::nan(""));
            best = tr("%1 %2, %3 %4\n%5 %6")
                       .arg(m_spec.y.label, formatValue(h.yFirst + dy * r, {QString(), AxisScale::Linear,
                                                                            m_spec.y.unit, {}}))
                       .arg(m_spec.x.label, formatValue(h.xFirst + dx * c, {QString(), AxisScale::Linear,
                                                                            m_spec.x.unit, {}}))
                       .arg(std::isfinite(v) ? QString::number(v, 'g', 6) : tr("no data"), h.colourLabel);
            bestDist = hoverRadius; // series points drawn over the map win when close
            continue;
        }
        const int si = plottable->property("moewbSeries").toInt();
        if (si < 0 || si >= m_spec.series.size() || !plottable->property("moewbSeries").isValid())
            continue;
        const Series& s = m_spec.series[si];
        QCPAxis* ka = plottable->keyAxis();
        QCPAxis* va = plottable->valueAxis();
        // The pointer along the key axis and the value axis (bars on their side: y, x).
        const bool keyAcross = ka->orientation() == Qt::Horizontal;
        const double pk = keyAcross ? pixel.x() : pixel.y();
        const double pv = keyAcross ? pixel.y() : pixel.x();
        const qsizetype n = std::min(s.x.size(), s.y.size());
        qsizetype from = 0, to = n;
        const QVariant point = plottable->property("moewbPoint");
        if (point.isValid()) {
            from = point.toLongLong();
            to = from + 1;
        } else if (s.style != SeriesStyle::Bars && s.style != SeriesStyle::StackedBars &&
                   std::is_sorted(s.x.begin(), s.x.begin() + n)) {
            // Only the points within reach horizontally (1,000,000-point curves).
            const double k1 = ka->pixelToCoord(pk - hoverRadius);
            const double k2 = ka->pixelToCoord(pk + hoverRadius);
            from = std::lower_bound(s.x.begin(), s.x.begin() + n, std::min(k1, k2)) - s.x.begin();
            to = std::upper_bound(s.x.begin(), s.x.begin() + n, std::max(k1, k2)) - s.x.begin();
        }
        const bool stacked = s.style == SeriesStyle::StackedBars;
        const QVector<double> bottoms = stacked ? stackBottoms(m_spec, si) : QVector<double>();
        for (qsizetype i = from; i < to && i < n; ++i) {
            const double px = ka->coordToPixel(s.x[i]);
            double py = va->coordToPixel(s.y[i] + (stacked ? bottoms[i] : 0.0));
            if (s.style == SeriesStyle::Bars || stacked) {
                // Anywhere over the bar (a stacked segment: over that segment).
                const double base = va->coordToPixel(stacked ? bottoms[i] : 0.0);
                const double half = std::fabs(ka->coordToPixel(s.x[i] + 0.3) - px);
                const double slack = stacked ? 0.5 : 4.0; // stacked segments touch their neighbours
                if (std::fabs(pk - px) <= half && pv >= std::min(base, py) - slack &&
                    pv <= std::max(base, py) + slack)
                    py = pv;
                else if (stacked)
                    continue; // a segment answers only over itself (its neighbours touch it)
            }
            const double d = std::hypot(px - pk, py - pv);
            if (!(d < bestDist))
                continue;
            bestDist = d;
            QStringList lines;
            lines << (i < s.pointLabels.size() && !s.pointLabels[i].isEmpty() ? s.pointLabels[i] : s.name);
            if (const QString r = runLine(s); !r.isEmpty())
                lines << r;
            const bool categorical = s.style == SeriesStyle::Bars || stacked;
            const QString xText = categorical && i < n &&
                                          qsizetype(s.x[i]) < m_spec.categoryLabels.size() && s.x[i] >= 0
                                      ? m_spec.categoryLabels[qsizetype(s.x[i])]
                                      : formatValue(s.x[i], m_spec.x);
            if (s.style != SeriesStyle::Bars)
                lines << QStringLiteral("%1: %2").arg(m_spec.x.label, xText);
            lines << QStringLiteral("%1: %2").arg(m_spec.y.label, formatValue(s.y[i], m_spec.y));
            if (i < s.colourValues.size())
                lines << QStringLiteral("%1: %2").arg(s.colourLabel.isEmpty() ? tr("colour") : s.colourLabel,
                                                      std::isfinite(s.colourValues[i])
                                                          ? QString::number(s.colourValues[i], 'g', 6)
                                                          : tr("unknown"));
            best = lines.join(QLatin1Char('\n'));
        }
    }
    return best;
}

bool PlotView::exportPng(const QString& path, QString* error)
{
    const int w = m_plot->width() > 50 ? m_plot->width() : 960;
    const int h = m_plot->height() > 50 ? m_plot->height() : 600;
    if (!m_plot->savePng(path, w, h, 2.0)) {
        if (error)
            *error = tr("Could not write the PNG file %1.").arg(path);
        return false;
    }
    return true;
}

bool PlotView::exportPdf(const QString& path, QString* error)
{
    const int w = m_plot->width() > 50 ? m_plot->width() : 960;
    const int h = m_plot->height() > 50 ? m_plot->height() : 600;
    if (!m_plot->savePdf(path, w, h, QCP::epNoCosmetic, QStringLiteral("MoE Workbench"), m_spec.title)) {
        if (error)
            *error = tr("Could not write the PDF file %1.").arg(path);
        return false;
    }
    return true;
}

bool PlotView::exportCsv(const QString& path, QString* error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error)
            *error = tr("Could not write %1: %2").arg(path, file.errorString());
        return false;
    }
    file.write(toCsv(m_spec).toUtf8());
    if (!file.commit()) {
        if (error)
            *error = tr("Could not write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

bool PlotView::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_plot && event->type() == QEvent::Leave) {
        QToolTip::hideText();
        m_wheelArmed = false;
        if (auto* line = m_plot->findChild<QCPItemStraightLine*>(QStringLiteral("crosshair")); line && line->visible()) {
            line->setVisible(false);
            if (QCPLayer* overlay = m_plot->layer(QStringLiteral("overlay")))
                overlay->replot();
        }
    }
    if (watched == m_plot && event->type() == QEvent::MouseButtonPress)
        m_wheelArmed = true; // a click into the plot: the wheel zooms from now on
    if (watched == m_plot && event->type() == QEvent::FocusOut)
        m_wheelArmed = false;
    if (watched == m_plot && event->type() == QEvent::Wheel) {
        auto* wheel = static_cast<QWheelEvent*>(event);
        if (!m_wheelArmed && !(wheel->modifiers() & Qt::ControlModifier)) {
            // The page scrolls: hand the wheel to the scroll area around the plot.
            for (QWidget* w = parentWidget(); w; w = w->parentWidget())
                if (auto* area = qobject_cast<QAbstractScrollArea*>(w)) {
                    QCoreApplication::sendEvent(area->viewport(), event);
                    break;
                }
            return true;
        }
    }
    if (watched == m_plot && (event->type() == QEvent::FocusIn || event->type() == QEvent::FocusOut))
        setBackgroundRole(event->type() == QEvent::FocusIn ? QPalette::Highlight : QPalette::Window);
    if (watched == m_plot && event->type() == QEvent::KeyPress) {
        const auto* key = static_cast<QKeyEvent*>(event);
        if (key->key() == Qt::Key_F10 && key->modifiers() == Qt::ShiftModifier) {
            showContextMenu(m_plot->rect().center());
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void PlotView::showContextMenu(const QPoint& pos)
{
    QMenu menu(this);
    const bool hasData = !isEmpty(m_spec);
    QAction* copy = menu.addAction(tr("Copy image"));
    copy->setEnabled(hasData);
    QAction* logY = nullptr;
    if (offersLogY()) {
        logY = menu.addAction(tr("Logarithmic y axis"));
        logY->setCheckable(true);
        logY->setChecked(isLogY());
    }
    menu.addSeparator();
    QAction* png = menu.addAction(tr("Export PNG…"));
    QAction* pdf = menu.addAction(tr("Export PDF…"));
    QAction* csv = menu.addAction(tr("Export CSV…"));
    menu.addSeparator();
    QAction* reset = menu.addAction(tr("Reset view"));
    for (QAction* a : {png, pdf, csv, reset})
        a->setEnabled(hasData);
    QAction* chosen = menu.exec(m_plot->mapToGlobal(pos));
    if (!chosen)
        return;
    if (chosen == copy)
        copyToClipboard();
    else if (chosen == logY)
        setLogY(logY->isChecked());
    else if (chosen == png)
        exportWithDialog(QStringLiteral("png"));
    else if (chosen == pdf)
        exportWithDialog(QStringLiteral("pdf"));
    else if (chosen == csv)
        exportWithDialog(QStringLiteral("csv"));
    else if (chosen == reset)
        resetView();
}

void PlotView::exportWithDialog(const QString& kind)
{
    const QString base = m_spec.id.isEmpty() ? QStringLiteral("plot") : m_spec.id;
    const QString filter = kind == QLatin1String("png")   ? tr("PNG image (*.png)")
                           : kind == QLatin1String("pdf") ? tr("PDF document (*.pdf)")
                                                          : tr("CSV table (*.csv)");
    QString path = QFileDialog::getSaveFileName(this, tr("Export plot"), base + QLatin1Char('.') + kind, filter);
    if (path.isEmpty())
        return;
    if (!path.endsWith(QLatin1Char('.') + kind, Qt::CaseInsensitive))
        path += QLatin1Char('.') + kind;
    QString error;
    const bool ok = kind == QLatin1String("png")   ? exportPng(path, &error)
                    : kind == QLatin1String("pdf") ? exportPdf(path, &error)
                                                   : exportCsv(path, &error);
    if (!ok)
        QMessageBox::warning(this, tr("Export plot"), error);
}

} // namespace moewb::plots
