#include "PlotView.h"

#include "PlotRender.h"
#include "PlotSetup.h"
#include "plotspec/PlotCsv.h"
#include "plotspec/StagePlots.h"

#include <QContextMenuEvent>
#include <QFile>
#include <QFileDialog>
#include <QKeyEvent>
#include <QMenu>
#include <QMessageBox>
#include <QResizeEvent>
#include <QSaveFile>
#include <QToolTip>
#include <QVBoxLayout>
#include <qcustomplot.h>

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
    layout->addWidget(m_plot);
    setAutoFillBackground(true);
    // Reached with Tab; Shift+F10 or the menu key opens the export menu.
    m_plot->setFocusPolicy(Qt::StrongFocus);
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    m_plot->setMouseTracking(true);
    m_plot->setContextMenuPolicy(Qt::CustomContextMenu);
    m_plot->installEventFilter(this);
    m_plot->setMinimumSize(240, 180);
    connect(m_plot, &QCustomPlot::customContextMenuRequested, this, &PlotView::showContextMenu);
    connect(m_plot, &QCustomPlot::mouseDoubleClick, this, [this](QMouseEvent*) { resetView(); });
    connect(m_plot, &QCustomPlot::mouseMove, this, [this](QMouseEvent* e) {
        const QString text = hoverTextAt(e->position().toPoint());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(e->globalPosition().toPoint(), text, m_plot);
    });
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
    const bool hasData = configurePlot(m_plot, m_spec);
    m_plot->setInteractions(hasData ? QCP::iRangeDrag | QCP::iRangeZoom : QCP::Interactions());
    m_plot->replot();
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
    if (!rect || !rect->rect().contains(pixel))
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
        const qsizetype n = std::min(s.x.size(), s.y.size());
        qsizetype from = 0, to = n;
        const QVariant point = plottable->property("moewbPoint");
        if (point.isValid()) {
            from = point.toLongLong();
            to = from + 1;
        } else if (s.style != SeriesStyle::Bars && std::is_sorted(s.x.begin(), s.x.begin() + n)) {
            // Only the points within reach horizontally (1,000,000-point curves).
            const double k1 = ka->pixelToCoord(pixel.x() - hoverRadius);
            const double k2 = ka->pixelToCoord(pixel.x() + hoverRadius);
            from = std::lower_bound(s.x.begin(), s.x.begin() + n, std::min(k1, k2)) - s.x.begin();
            to = std::upper_bound(s.x.begin(), s.x.begin() + n, std::max(k1, k2)) - s.x.begin();
        }
        for (qsizetype i = from; i < to && i < n; ++i) {
            const double px = ka->coordToPixel(s.x[i]);
            double py = va->coordToPixel(s.y[i]);
            if (s.style == SeriesStyle::Bars) {
                // Anywhere over the bar.
                const double base = va->coordToPixel(0.0);
                const double half = std::fabs(ka->coordToPixel(s.x[i] + 0.3) - px);
                if (std::fabs(pixel.x() - px) <= half && pixel.y() >= std::min(base, py) - 4 &&
                    pixel.y() <= std::max(base, py) + 4)
                    py = pixel.y();
            }
            const double d = std::hypot(px - pixel.x(), py - pixel.y());
            if (!(d < bestDist))
                continue;
            bestDist = d;
            QStringList lines;
            lines << (i < s.pointLabels.size() && !s.pointLabels[i].isEmpty() ? s.pointLabels[i] : s.name);
            if (const QString r = runLine(s); !r.isEmpty())
                lines << r;
            const QString xText = s.style == SeriesStyle::Bars && i < n &&
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
    if (watched == m_plot && event->type() == QEvent::Leave)
        QToolTip::hideText();
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
    QAction* png = menu.addAction(tr("Export PNG…"));
    QAction* pdf = menu.addAction(tr("Export PDF…"));
    QAction* csv = menu.addAction(tr("Export CSV…"));
    menu.addSeparator();
    QAction* reset = menu.addAction(tr("Reset view"));
    for (QAction* a : {png, pdf, csv, reset})
        a->setEnabled(hasData);
    QAction* chosen = menu.exec(m_plot->mapToGlobal(pos));
    if (chosen == png)
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
