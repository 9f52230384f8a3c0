#include "StepTimelineView.h"

#include "common/Units.h"
#include "plots/PlotFont.h"
#include "plots/PlotSetup.h"
#include "plotspec/Palette.h"

#include <QAbstractScrollArea>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QToolTip>
#include <QVBoxLayout>
#include <QWheelEvent>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace moewb::gui {

using store::RankStepTimeline;
using store::TimelineClass;
using store::TimelineInterval;

namespace {

// A row's three lanes, in row units around the row's centre (the y axis runs downwards).
enum class Lane { Compute, Comm, Memcpy };
struct LaneSpan {
    double top, bottom;
};
constexpr LaneSpan kLanes[] = {{-0.42, -0.13}, {-0.11, 0.23}, {0.25, 0.40}};
constexpr double kBand = 0.46; // the step span shaded behind the lanes

Lane laneOf(TimelineClass c) {
    switch (c) {
    case TimelineClass::Compute: return Lane::Compute;
    case TimelineClass::Memcpy: return Lane::Memcpy;
    default: return Lane::Comm;
    }
}

double us(qint64 ns) {
    return double(ns) / 1000.0;
}

QString elided(const QString& s, int most = 140) {
    return s.size() <= most ? s : s.left(most - 1) + QChar(0x2026);
}

} // namespace

// The rows drawn straight with the painter: at most one rectangle per pixel column and
// colour per lane (neighbouring intervals of one colour closer than a pixel merge), so a
// rank with 50,000 intervals draws as fast as its width in pixels allows.
class TimelineRowsPlottable : public QCPAbstractPlottable {
public:
    TimelineRowsPlottable(QCPAxis* key, QCPAxis* value) : QCPAbstractPlottable(key, value) {}

    QVector<RankStepTimeline> rows;
    int busiestRow = -1;

    double selectTest(const QPointF&, bool, QVariant*) const override { return -1; }
    QCPRange getKeyRange(bool& found, QCP::SignDomain) const override {
        found = !rows.isEmpty();
        QCPRange r(0, 1);
        for (int i = 0; i < rows.size(); ++i) {
            r.lower = std::min(r.lower, us(rows[i].stepStartNs));
            r.upper = std::max(r.upper, us(rows[i].stepEndNs));
        }
        return r;
    }
    QCPRange getValueRange(bool& found, QCP::SignDomain, const QCPRange&) const override {
        found = true;
        return QCPRange(-0.5, std::max<qsizetype>(1, rows.size()) - 0.5);
    }
    void drawLegendIcon(QCPPainter*, const QRectF&) const override {}

protected:
    void draw(QCPPainter* painter) override {
        QCPAxis* k = keyAxis();
        QCPAxis* v = valueAxis();
        if (!k || !v)
            return;
        painter->setAntialiasing(false);
        painter->setPen(Qt::NoPen);
        const QCPRange range = k->range();
        auto rect = [&](double x0, double x1, double y0, double y1) {
            return QRectF(QPointF(x0, v->coordToPixel(y0)), QPointF(x1, v->coordToPixel(y1))).normalized();
        };
        for (int i = 0; i < rows.size(); ++i) {
            const RankStepTimeline& r = rows[i];
            const QColor band = i == busiestRow ? QColor(0xFB, 0xD9, 0xC0) : QColor(0xEE, 0xEE, 0xEE);
            painter->fillRect(rect(k->coordToPixel(us(r.stepStartNs)), k->coordToPixel(us(r.stepEndNs)), i - kBand, i + kBand),
                              band);
            for (int lane = 0; lane < 3; ++lane) {
                const LaneSpan span = kLanes[lane];
                QRectF pending;
                QColor pendingColour;
                auto flush = [&] {
                    if (pending.isValid())
                        painter->fillRect(pending, pendingColour);
                    pending = QRectF();
                };
                for (const TimelineInterval& t : r.intervals) {
                    if (int(laneOf(t.cls)) != lane || us(t.endNs) < range.lower || us(t.startNs) > range.upper)
                        continue;
                    double x0 = k->coordToPixel(us(t.startNs)), x1 = k->coordToPixel(us(t.endNs));
                    x1 = std::max(x1, x0 + 1.0);
                    const QColor colour = plots::qColour(StepTimelineView::classColour(t.cls));
                    if (pending.isValid() && colour == pendingColour && x0 <= pending.right() + 0.5) {
                        pending.setRight(std::max(pending.right(), x1));
                        continue;
                    }
                    flush();
                    pending = rect(x0, x1, i + span.top, i + span.bottom);
                    pendingColour = colour;
                }
                flush();
            }
        }
    }
};

QString StepTimelineView::className(TimelineClass cls) {
    switch (cls) {
    case TimelineClass::Compute: return tr("compute");
    case TimelineClass::AllToAll: return tr("all-to-all");
    case TimelineClass::Dispatch: return tr("dispatch");
    case TimelineClass::Combine: return tr("combine");
    case TimelineClass::OtherComm: return tr("other communication");
    case TimelineClass::Waiting: return tr("waiting");
    case TimelineClass::Memcpy: return tr("memcpy/memset");
    }
    return {};
}

quint32 StepTimelineView::classColour(TimelineClass cls) {
    // Okabe–Ito (plotspec/Palette.h): compute blue as in the step bars, waiting vermillion.
    switch (cls) {
    case TimelineClass::Compute: return plots::paletteColour(0);
    case TimelineClass::Dispatch: return plots::paletteColour(1);
    case TimelineClass::AllToAll: return plots::paletteColour(2);
    case TimelineClass::Waiting: return plots::paletteColour(3);
    case TimelineClass::OtherComm: return plots::paletteColour(4);
    case TimelineClass::Combine: return plots::paletteColour(5);
    case TimelineClass::Memcpy: return 0x999999;
    }
    return 0;
}

StepTimelineView::StepTimelineView(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("stepTimeline"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);

    auto* top = new QHBoxLayout;
    m_legend = new QLabel(this);
    m_legend->setObjectName(QStringLiteral("timelineLegend"));
    m_legend->setWordWrap(true);
    QStringList entries;
    for (TimelineClass c : {TimelineClass::Compute, TimelineClass::Dispatch, TimelineClass::Combine,
                            TimelineClass::AllToAll, TimelineClass::OtherComm, TimelineClass::Waiting,
                            TimelineClass::Memcpy})
        entries << QStringLiteral("<span style=\"color:#%1\">&#9632;</span>&nbsp;%2")
                       .arg(classColour(c), 6, 16, QLatin1Char('0'))
                       .arg(className(c).toHtmlEscaped());
    entries << QStringLiteral("<span style=\"color:#fbd9c0\">&#9632;</span>&nbsp;%1").arg(tr("busiest rank").toHtmlEscaped());
    m_legend->setText(entries.join(QStringLiteral(" &nbsp; ")));
    top->addWidget(m_legend, 1);
    m_reset = new QPushButton(tr("Reset zoom"), this);
    m_reset->setObjectName(QStringLiteral("timelineResetZoom"));
    m_reset->setToolTip(tr("Show the whole step again (or double-click the timeline)"));
    connect(m_reset, &QPushButton::clicked, this, &StepTimelineView::resetView);
    top->addWidget(m_reset, 0, Qt::AlignTop);
    layout->addLayout(top);

    m_message = new QLabel(this);
    m_message->setObjectName(QStringLiteral("timelineMessage"));
    m_message->setWordWrap(true);
    m_message->setForegroundRole(QPalette::PlaceholderText);
    layout->addWidget(m_message);

    m_plot = new QCustomPlot(this);
    m_plot->setObjectName(QStringLiteral("timelinePlot"));
    m_plot->setFocusPolicy(Qt::ClickFocus);
    m_plot->setMouseTracking(true);
    m_plot->setInteractions(QCP::iRangeDrag);
    m_plot->axisRect()->setRangeDrag(Qt::Horizontal);
    m_plot->yAxis->setRangeReversed(true);
    m_plot->yAxis->grid()->setVisible(false);
    m_plot->xAxis->grid()->setPen(QPen(QColor(0xD0, 0xD0, 0xD0), 0, Qt::DotLine));
    for (QCPAxis* a : {m_plot->xAxis, m_plot->yAxis}) {
        a->setTickLabelFont(plots::uiFont(8.5));
        a->setLabelFont(plots::uiFont(9));
    }
    m_plot->yAxis->setLabel(tr("Rank"));
    m_rows = new TimelineRowsPlottable(m_plot->xAxis, m_plot->yAxis);
    m_plot->installEventFilter(this);
    connect(m_plot->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, [this](const QCPRange& r) {
        // Never past the step: zoom and pan stay within it.
        const double full = m_fullUpper - m_fullLower;
        QCPRange c = r;
        if (c.size() > full)
            c = QCPRange(m_fullLower, m_fullUpper);
        if (c.lower < m_fullLower)
            c = QCPRange(m_fullLower, m_fullLower + c.size());
        if (c.upper > m_fullUpper)
            c = QCPRange(m_fullUpper - c.size(), m_fullUpper);
        if (c.lower != r.lower || c.upper != r.upper)
            m_plot->xAxis->setRange(c);
    });
    layout->addWidget(m_plot);

    m_note = new QLabel(this);
    m_note->setObjectName(QStringLiteral("timelineNote"));
    m_note->setWordWrap(true);
    m_note->setForegroundRole(QPalette::PlaceholderText);
    layout->addWidget(m_note);
    showMessage({});
}

void StepTimelineView::showMessage(const QString& text) {
    m_rows->rows.clear();
    m_rows->busiestRow = -1;
    m_message->setText(text);
    m_message->setVisible(!text.isEmpty());
    m_plot->hide();
    m_legend->hide();
    m_reset->hide();
    m_note->clear();
    m_note->hide();
}

void StepTimelineView::showStep(qint64 step, const QVector<RankStepTimeline>& ranks, int busiestRank, const QString& note) {
    Q_UNUSED(step);
    if (ranks.isEmpty()) {
        showMessage(tr("No rank's timeline is stored for this step."));
        return;
    }
    m_message->hide();
    m_legend->show();
    m_reset->show();
    m_plot->show();
    m_rows->rows = ranks;
    std::sort(m_rows->rows.begin(), m_rows->rows.end(), [](const auto& a, const auto& b) { return a.rank < b.rank; });
    m_rows->busiestRow = -1;
    for (int i = 0; i < m_rows->rows.size(); ++i)
        if (m_rows->rows[i].rank == busiestRank)
            m_rows->busiestRow = i;
    bool found = false;
    const QCPRange keys = m_rows->getKeyRange(found, QCP::sdBoth);
    const double margin = std::max(1.0, 0.01 * keys.size());
    m_fullLower = keys.lower - margin;
    m_fullUpper = keys.upper + margin;
    m_plot->yAxis->setRange(-0.5, double(m_rows->rows.size()) - 0.5);
    applyTicks();
    const QString base = tr("Times on the ranks' common clock (aligned on the ends of the collectives they share), "
                            "from the step's start; each rank's own step shaded. Wheel after a click (or "
                            "Ctrl+wheel) zooms, drag pans, double-click resets.");
    m_note->setText(note.isEmpty() ? base : base + QLatin1Char(' ') + note);
    m_note->show();
    fitHeight();
    resetView();
}

void StepTimelineView::applyTicks() {
    plots::Axis x;
    x.label = tr("Time from the step's start");
    x.unit = plots::AxisUnit::Microseconds;
    m_plot->xAxis->setTicker(plots::makeTicker(x, m_fullUpper));
    m_plot->xAxis->setLabel(plots::axisTitleFor(x, m_fullUpper));
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    const int n = int(m_rows->rows.size());
    // Every row labelled while the rows are taller than a line of text; else every k-th.
    const int rowPx = std::max(1, (m_plot->minimumHeight() - 70) / std::max(1, n));
    const int every = std::max(1, int(std::ceil(double(QFontMetrics(m_plot->yAxis->tickLabelFont()).height()) / rowPx)));
    for (int i = 0; i < n; ++i) {
        const int rank = m_rows->rows[i].rank;
        if (i == m_rows->busiestRow)
            ticker->addTick(i, tr("%1 · busiest").arg(rank));
        else if (i % every == 0)
            ticker->addTick(i, QString::number(rank));
    }
    m_plot->yAxis->setTicker(ticker);
    m_plot->yAxis->setSubTicks(false);
}

void StepTimelineView::fitHeight() {
    const int n = int(m_rows->rows.size());
    // 26 px a rank up to 16 ranks; more share about 560 px, at least 6 px each.
    const int rowPx = n <= 16 ? 26 : std::max(6, 560 / n);
    m_plot->setMinimumHeight(std::max(160, rowPx * n + 70));
    m_plot->setMaximumHeight(m_plot->minimumHeight());
    applyTicks();
}

int StepTimelineView::rowCount() const {
    return m_plot->isVisible() || !m_rows->rows.isEmpty() ? int(m_rows->rows.size()) : 0;
}

int StepTimelineView::rankOfRow(int row) const {
    return row >= 0 && row < m_rows->rows.size() ? m_rows->rows[row].rank : -1;
}

double StepTimelineView::visibleLowerUs() const {
    return m_plot->xAxis->range().lower;
}

double StepTimelineView::visibleUpperUs() const {
    return m_plot->xAxis->range().upper;
}

void StepTimelineView::resetView() {
    m_plot->xAxis->setRange(m_fullLower, m_fullUpper);
    m_plot->replot();
}

void StepTimelineView::zoomBy(double factor, double centreUs) {
    m_plot->xAxis->scaleRange(factor, centreUs);
    m_plot->replot();
}

QPoint StepTimelineView::pixelAt(int rank, qint64 ns, TimelineClass cls) const {
    int row = -1;
    for (int i = 0; i < m_rows->rows.size(); ++i)
        if (m_rows->rows[i].rank == rank)
            row = i;
    const LaneSpan lane = kLanes[int(laneOf(cls))];
    return QPoint(int(std::lround(m_plot->xAxis->coordToPixel(us(ns)))),
                  int(std::lround(m_plot->yAxis->coordToPixel(row + (lane.top + lane.bottom) / 2))));
}

QString StepTimelineView::hoverTextAt(const QPoint& pixel) const {
    if (m_rows->rows.isEmpty() || !m_plot->axisRect()->rect().contains(pixel))
        return {};
    const double y = m_plot->yAxis->pixelToCoord(pixel.y());
    const int row = int(std::lround(y));
    if (row < 0 || row >= m_rows->rows.size())
        return {};
    const double within = y - row;
    int lane = -1;
    for (int l = 0; l < 3; ++l)
        if (within >= kLanes[l].top - 0.01 && within <= kLanes[l].bottom + 0.01)
            lane = l;
    if (lane < 0)
        return {};
    const double x = m_plot->xAxis->pixelToCoord(pixel.x());
    const double reach = std::abs(m_plot->xAxis->pixelToCoord(pixel.x() + 2) - x); // 2 px either side
    const RankStepTimeline& r = m_rows->rows[row];
    const TimelineInterval* best = nullptr;
    double bestDistance = reach;
    for (const TimelineInterval& t : r.intervals) {
        if (int(laneOf(t.cls)) != lane)
            continue;
        const double a = us(t.startNs), b = us(t.endNs);
        const double d = x < a ? a - x : (x > b ? x - b : 0.0);
        if (d < bestDistance || (d == 0.0 && best && bestDistance == 0.0 && b - a < us(best->endNs - best->startNs))) {
            best = &t;
            bestDistance = d;
        }
    }
    if (!best)
        return {};
    const auto label = [&](int i) { return i >= 0 && i < r.labels.size() ? r.labels[i] : QString(); };
    const QString when = tr("%1, from %2 to %3")
                             .arg(units::formatDuration(us(best->endNs - best->startNs)),
                                  units::formatDuration(us(best->startNs)), units::formatDuration(us(best->endNs)));
    QStringList lines;
    switch (best->cls) {
    case TimelineClass::Compute: lines << tr("compute (merged kernels)"); break;
    case TimelineClass::Memcpy: lines << tr("memcpy/memset (merged)"); break;
    case TimelineClass::Waiting:
        lines << tr("%1 waiting for the group's latest rank").arg(className(best->callClass));
        break;
    default: lines << className(best->cls); break;
    }
    if (!label(best->name).isEmpty())
        lines << tr("Kernel: %1").arg(elided(label(best->name)));
    if (!label(best->group).isEmpty())
        lines << tr("Process group: %1").arg(label(best->group));
    if (best->bytes >= 0)
        lines << tr("Bytes: %1").arg(units::formatBytes(double(best->bytes)));
    lines << tr("Rank %1 · %2").arg(r.rank).arg(when);
    return lines.join(QLatin1Char('\n'));
}

bool StepTimelineView::eventFilter(QObject* watched, QEvent* event) {
    if (watched != m_plot)
        return QWidget::eventFilter(watched, event);
    switch (event->type()) {
    case QEvent::MouseButtonPress: m_wheelArmed = true; break; // a click into the plot: the wheel zooms
    case QEvent::FocusOut: m_wheelArmed = false; break;
    case QEvent::Leave:
        m_wheelArmed = false;
        QToolTip::hideText();
        break;
    case QEvent::MouseButtonDblClick: resetView(); return true;
    case QEvent::MouseMove: {
        auto* move = static_cast<QMouseEvent*>(event);
        if (move->buttons() == Qt::NoButton) {
            const QString text = hoverTextAt(move->position().toPoint());
            if (text.isEmpty())
                QToolTip::hideText();
            else
                QToolTip::showText(move->globalPosition().toPoint(), text, m_plot);
        }
        break;
    }
    case QEvent::Wheel: {
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
        const double steps = wheel->angleDelta().y() / 120.0;
        if (steps != 0.0)
            zoomBy(std::pow(0.85, steps), m_plot->xAxis->pixelToCoord(wheel->position().x()));
        return true;
    }
    default: break;
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace moewb::gui
