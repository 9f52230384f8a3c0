// The plot view and the vector renderer, offscreen, on specs built from the real
// gates: tick labels, hover text, zoom/pan/reset, PNG/PDF/CSV export read back,
// renderPlot into a QPdfWriter, heatmaps with a colour scale. Every kind of plot is
// saved to tests/artifacts/plots/ in the build tree.
#include "PlotFixtures.h"
#include "plots/PlotRender.h"
#include "plots/PlotView.h"
#include "plots/PlotToolBar.h"
#include "plotspec/Palette.h"
#include "plotspec/PlotCsv.h"
#include "plotspec/StagePlots.h"

#include <QDir>
#include <QFile>
#include <QPainter>
#include <QPdfWriter>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QToolButton>
#include <QClipboard>
#include <QWheelEvent>
#include <QtTest>
#include <qcustomplot.h>

using namespace moewb::plots;
using namespace moewb::plots::test;

namespace {

QString artifactDir()
{
    const QString dir = QStringLiteral(MOEWB_BINARY_DIR "/tests/artifacts/plots");
    QDir().mkpath(dir);
    return dir;
}

int distinctColours(const QImage& image)
{
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 2)
        for (int x = 0; x < image.width(); x += 2)
            colours.insert(image.pixel(x, y));
    return int(colours.size());
}

QString run(const QString& program, const QStringList& args)
{
    QProcess p;
    p.start(program, args);
    if (!p.waitForFinished(30000) || p.exitCode() != 0)
        return QStringLiteral("<%1 failed: %2>").arg(program, QString::fromUtf8(p.readAllStandardError()));
    QString out = QString::fromUtf8(p.readAllStandardOutput());
    // pdftotext writes typographic ligatures as single characters.
    out.replace(QChar(0xFB00), QLatin1String("ff"));
    out.replace(QChar(0xFB01), QLatin1String("fi"));
    out.replace(QChar(0xFB02), QLatin1String("fl"));
    out.replace(QChar(0xFB03), QLatin1String("ffi"));
    out.replace(QChar(0xFB04), QLatin1String("ffl"));
    return out;
}

QStringList tickLabels(QCPAxis* axis)
{
    QStringList out;
    for (const QString& s : axis->tickVectorLabels())
        out << s;
    return out;
}

// The pixel of plot coordinates (x, y) in a view's axis rect.
QPoint pixelAt(PlotView& view, double x, double y)
{
    QCPAxisRect* rect = view.customPlot()->axisRect();
    return QPoint(int(std::lround(rect->axis(QCPAxis::atBottom)->coordToPixel(x))),
                  int(std::lround(rect->axis(QCPAxis::atLeft)->coordToPixel(y))));
}

// An expert × step heatmap ("Step" and "Expert" axes, "tokens"): `steps` steps from
// `firstStep` by `experts` experts, every cell 1.
PlotSpec expertStepSpec(const QString& id, int firstStep, int steps, int experts)
{
    PlotSpec spec;
    spec.id = id;
    spec.title = QStringLiteral("Expert load over steps");
    spec.x = {QStringLiteral("Step"), AxisScale::Linear, AxisUnit::Steps, QStringLiteral("Step")};
    spec.y = {QStringLiteral("Expert"), AxisScale::Linear, AxisUnit::None, QStringLiteral("Expert")};
    Heatmap h;
    h.columns = steps;
    h.rows = experts;
    h.xFirst = firstStep;
    h.xLast = firstStep + steps - 1;
    h.yFirst = 0;
    h.yLast = experts - 1;
    h.colourLabel = QStringLiteral("tokens");
    h.values = QVector<double>(qsizetype(steps) * experts, 1.0);
    spec.heatmap = h;
    return spec;
}

} // namespace

class TestPlotView : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    void screenshot(PlotView& view, const QString& name)
    {
        const QImage image = view.grab().toImage();
        QVERIFY(!image.isNull());
        QVERIFY2(distinctColours(image) > 8, qPrintable(name + QStringLiteral(" looks blank")));
        QVERIFY(image.save(artifactDir() + QLatin1Char('/') + name + QStringLiteral(".png")));
    }

    void show(PlotView& view, const PlotSpec& spec)
    {
        view.resize(900, 560);
        view.setSpec(spec);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.customPlot()->replot(QCustomPlot::rpImmediateRefresh);
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void stageOneTicksAndHover()
    {
        const PlotSpec spec = stageOnePlots(stageOneResult())[0];
        PlotView view;
        show(view, spec);
        QCPAxis* x = view.customPlot()->axisRect()->axis(QCPAxis::atBottom);
        QCPAxis* y = view.customPlot()->axisRect()->axis(QCPAxis::atLeft);
        const QString xTicks = tickLabels(x).join(QLatin1Char('|'));
        QVERIFY2(xTicks.contains(QStringLiteral("KiB")), qPrintable(xTicks));
        QVERIFY2(xTicks.contains(QStringLiteral("MiB")), qPrintable(xTicks));
        QCOMPARE(y->label(), QStringLiteral("Effective bandwidth (GB/s)"));
        QCOMPARE(view.customPlot()->legend->visible(), true);

        // Hover over the a2 point at 1 MiB: run, exact size and bandwidth in GB/s.
        const Series& a = spec.series[0];
        const int i = int(a.x.indexOf(double(1 << 20)));
        QVERIFY(i >= 0);
        const QPoint pixel(int(std::lround(x->coordToPixel(a.x[i]))) + 2, int(std::lround(y->coordToPixel(a.y[i]))) - 2);
        const QString text = view.hoverTextAt(pixel);
        QVERIFY2(text.contains(QStringLiteral("a2")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("1 MiB")), qPrintable(text));
        QVERIFY2(text.contains(formatValue(a.y[i], spec.y)), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("GB/s")), qPrintable(text));
        // Far from every point: nothing.
        QVERIFY(view.hoverTextAt(QPoint(int(x->coordToPixel(a.x[i])), int(y->coordToPixel(a.y[i])) - 200))
                    .isEmpty() ||
                !view.hoverTextAt(QPoint(int(x->coordToPixel(a.x[i])), int(y->coordToPixel(a.y[i])) - 200))
                     .contains(formatValue(a.y[i], spec.y)));
        screenshot(view, spec.id);
    }

    void zoomPanReset()
    {
        PlotView view;
        show(view, stageOnePlots(stageOneResult())[1]);
        QCustomPlot* plot = view.customPlot();
        QCPAxis* x = plot->axisRect()->axis(QCPAxis::atBottom);
        const QCPRange x0 = x->range();
        const QCPRange y0 = plot->axisRect()->axis(QCPAxis::atLeft)->range();
        const QPoint centre = plot->axisRect()->rect().center();

        // The plain wheel belongs to the page (no scroll area here: nothing moves).
        QWheelEvent plain(centre, plot->mapToGlobal(centre), QPoint(), QPoint(0, 240), Qt::NoButton, Qt::NoModifier,
                          Qt::NoScrollPhase, false);
        QApplication::sendEvent(plot, &plain);
        QCOMPARE(x->range(), x0);
        QVERIFY(!view.wheelZoomArmed());
        QWheelEvent wheel(centre, plot->mapToGlobal(centre), QPoint(), QPoint(0, 240), Qt::NoButton,
                          Qt::ControlModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(plot, &wheel);
        QVERIFY2(x->range().size() < x0.size() * 0.99, "Ctrl+wheel must zoom in");

        view.resetView();
        QCOMPARE(x->range(), x0);
        const QPoint to = centre + QPoint(120, 60);
        QMouseEvent press(QEvent::MouseButtonPress, centre, plot->mapToGlobal(centre), Qt::LeftButton, Qt::LeftButton,
                          Qt::NoModifier);
        QApplication::sendEvent(plot, &press);
        QMouseEvent move(QEvent::MouseMove, to, plot->mapToGlobal(to), Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(plot, &move);
        QMouseEvent release(QEvent::MouseButtonRelease, to, plot->mapToGlobal(to), Qt::LeftButton, Qt::NoButton,
                            Qt::NoModifier);
        QApplication::sendEvent(plot, &release);
        QVERIFY2(!(x->range() == x0), "drag must pan");

        QMouseEvent dbl(QEvent::MouseButtonDblClick, centre, plot->mapToGlobal(centre), Qt::LeftButton, Qt::LeftButton,
                        Qt::NoModifier);
        QApplication::sendEvent(plot, &dbl);
        QCOMPARE(x->range(), x0);
        QCOMPARE(plot->axisRect()->axis(QCPAxis::atLeft)->range(), y0);
        screenshot(view, QStringLiteral("stage1-latency"));
    }

    // Zooming a latency axis from ms into µs: the title never names a unit the ticks
    // do not show. The log axis names none and every tick carries its own (also
    // zoomed within one decade); a linear one names the unit its ticks are divided by.
    void crosshairLogYTailTicksCopy()
    {
        PlotView view;
        const PlotSpec spec = stageOnePlots(stageOneResult())[0]; // bandwidth
        show(view, spec);
        QCustomPlot* plot = view.customPlot();
        // Cross-hair at one series' third x: every line series with that x lists its y.
        const Series& first = spec.series.first();
        QVERIFY(first.x.size() >= 3);
        const double x = first.x[2];
        const QString text = view.crosshairTextAt(x);
        for (const Series& s : spec.series) {
            const qsizetype i = s.x.indexOf(x);
            if (i < 0 || s.style == SeriesStyle::FaintLine)
                continue;
            const QString line = s.name + QStringLiteral(": ") + formatValue(s.y[i], spec.y);
            QVERIFY2(text.contains(line), qPrintable(text + QStringLiteral("\n lacks ") + line));
        }
        QVERIFY(view.crosshairTextAt(first.x.last() * 1e6).isEmpty()); // beyond every series

        // Log y on bandwidth: the axis turns logarithmic and back.
        QVERIFY(view.offersLogY());
        QCOMPARE(plot->axisRect()->axis(QCPAxis::atLeft)->scaleType(), QCPAxis::stLinear);
        view.setLogY(true);
        QCOMPARE(view.customPlot()->axisRect()->axis(QCPAxis::atLeft)->scaleType(), QCPAxis::stLogarithmic);
        view.setLogY(false);
        QCOMPARE(view.customPlot()->axisRect()->axis(QCPAxis::atLeft)->scaleType(), QCPAxis::stLinear);
        // The same from the plot's toolbar (not only the context menu): its "Log y"
        // button toggles the axis and follows it.
        QToolButton* logY = view.toolBar()->logYButton();
        QVERIFY(logY->isVisibleTo(&view));
        QVERIFY(!logY->isChecked());
        QTest::mouseClick(logY, Qt::LeftButton);
        QVERIFY(view.isLogY());
        QCOMPARE(view.customPlot()->axisRect()->axis(QCPAxis::atLeft)->scaleType(), QCPAxis::stLogarithmic);
        QVERIFY(logY->isChecked());
        QTest::mouseClick(logY, Qt::LeftButton);
        QVERIFY(!view.isLogY());
        QCOMPARE(view.customPlot()->axisRect()->axis(QCPAxis::atLeft)->scaleType(), QCPAxis::stLinear);
        view.setLogY(true); // set elsewhere (the context menu): the button follows
        QVERIFY(logY->isChecked());
        view.setLogY(false);

        // The last 30 %: x from 70 % of the data's span, y fitted to the points there.
        double lo = std::numeric_limits<double>::infinity(), hi = -lo;
        for (const Series& s : spec.series)
            for (double v : s.x) {
                lo = std::min(lo, v);
                hi = std::max(hi, v);
            }
        PlotSpec linear = spec;
        linear.x.scale = AxisScale::Linear;
        linear.tailFraction = 0.3;
        view.setSpec(linear);
        const QCPRange xr = view.customPlot()->axisRect()->axis(QCPAxis::atBottom)->range();
        QVERIFY2(std::fabs(xr.lower - (hi - 0.3 * (hi - lo))) < 1e-6 * hi, qPrintable(QString::number(xr.lower)));
        // y fitted to the points there, the least and the most of them inside the range.
        double yLo = std::numeric_limits<double>::infinity(), yHi = -yLo;
        for (const Series& s : spec.series)
            for (qsizetype i = 0; i < s.x.size() && s.colour >= 0; ++i)
                if (s.x[i] >= hi - 0.3 * (hi - lo)) {
                    yLo = std::min(yLo, s.y[i]);
                    yHi = std::max(yHi, s.y[i]);
                }
        const QCPRange yr = view.customPlot()->axisRect()->axis(QCPAxis::atLeft)->range();
        QVERIFY(yr.lower < yLo && yLo - yr.lower < 0.1 * (yHi - yLo));
        QVERIFY(yr.upper > yHi && yr.upper - yHi < 0.1 * (yHi - yLo));
        // A plot without data: the toolbar's buttons are off, Log y hidden.
        view.setSpec(PlotSpec{});
        QVERIFY(!view.toolBar()->resetButton()->isEnabled());
        QVERIFY(!view.toolBar()->logYButton()->isVisibleTo(&view));

        // Narrow: the x tick labels do not touch.
        view.setSpec(spec);
        view.resize(300, 300);
        QApplication::processEvents();
        view.customPlot()->replot(QCustomPlot::rpImmediateRefresh);
        QApplication::processEvents();
        QCPAxis* xa = view.customPlot()->axisRect()->axis(QCPAxis::atBottom);
        const QFontMetrics fm(xa->tickLabelFont());
        double previousRight = -1e9;
        for (int i = 0; i < xa->tickVector().size(); ++i) {
            const double px = xa->coordToPixel(xa->tickVector()[i]);
            if (px < view.customPlot()->axisRect()->left() - 1 || px > view.customPlot()->axisRect()->right() + 1)
                continue;
            const double half = fm.horizontalAdvance(xa->tickVectorLabels()[i]) / 2.0;
            QVERIFY2(px - half > previousRight, qPrintable(tickLabels(xa).join(QLatin1Char(' '))));
            previousRight = px + half;
        }

        // Copy image.
        QApplication::clipboard()->clear();
        view.copyToClipboard();
        QVERIFY(!QApplication::clipboard()->image().isNull());
    }

    void zoomedLatencyUnits()
    {
        PlotView view;
        show(view, stageOnePlots(stageOneResult())[1]);
        QCustomPlot* plot = view.customPlot();
        QCPAxis* y = plot->axisRect()->axis(QCPAxis::atLeft);
        QCOMPARE(y->label(), QStringLiteral("Time"));
        const auto unitsOnEveryTick = [&](const QString& when) {
            plot->replot(QCustomPlot::rpImmediateRefresh);
            const QStringList labels = tickLabels(y);
            QVERIFY2(labels.size() >= 2, qPrintable(when + QStringLiteral(": ") + labels.join(QLatin1Char('|'))));
            for (const QString& l : labels)
                QVERIFY2(l.endsWith(QStringLiteral(" µs")) || l.endsWith(QStringLiteral(" ms")) ||
                             l.endsWith(QStringLiteral(" s")),
                         qPrintable(when + QStringLiteral(": ") + labels.join(QLatin1Char('|'))));
            QCOMPARE(y->label(), QStringLiteral("Time"));
        };
        unitsOnEveryTick(QStringLiteral("as drawn"));
        y->setRange(2000, 9000); // within one decade, in ms
        unitsOnEveryTick(QStringLiteral("2–9 ms"));
        QVERIFY(tickLabels(y).join(QLatin1Char('|')).contains(QStringLiteral(" ms")));
        y->setRange(120, 480); // µs
        unitsOnEveryTick(QStringLiteral("120–480 µs"));
        QVERIFY(tickLabels(y).join(QLatin1Char('|')).contains(QStringLiteral(" µs")));

        PlotSpec linear;
        linear.title = QStringLiteral("linear time");
        linear.x = {QStringLiteral("Step"), AxisScale::Linear, AxisUnit::None, {}};
        linear.y = {QStringLiteral("Time"), AxisScale::Linear, AxisUnit::Microseconds, {}};
        Series s;
        s.name = QStringLiteral("t");
        for (int i = 0; i <= 10; ++i) {
            s.x << i;
            s.y << 500.0 * i;
        }
        linear.series << s;
        show(view, linear);
        y = plot->axisRect()->axis(QCPAxis::atLeft); // a new axis rect
        QCOMPARE(y->label(), QStringLiteral("Time (ms)"));
        y->setRange(0, 40); // zoomed into µs: the ticks stay in the title's ms
        plot->replot(QCustomPlot::rpImmediateRefresh);
        const QStringList labels = tickLabels(y);
        QCOMPARE(y->label(), QStringLiteral("Time (ms)"));
        QVERIFY2(labels.contains(QStringLiteral("0.02")), qPrintable(labels.join(QLatin1Char('|'))));
    }

    void exports()
    {
        const PlotSpec spec = stageOnePlots(stageOneResult())[0];
        PlotView view;
        show(view, spec);
        QString error;

        const QString png = m_dir.filePath(QStringLiteral("plot.png"));
        QVERIFY2(view.exportPng(png, &error), qPrintable(error));
        const QImage image(png);
        QVERIFY(!image.isNull());
        QVERIFY(image.width() >= 900);
        QVERIFY2(distinctColours(image) > 8, "exported PNG looks blank");

        const QString pdf = m_dir.filePath(QStringLiteral("plot.pdf"));
        QVERIFY2(view.exportPdf(pdf, &error), qPrintable(error));
        const QString text = run(QStringLiteral("pdftotext"), {pdf, QStringLiteral("-")});
        QVERIFY2(text.contains(QStringLiteral("Message size per rank")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("MiB")), qPrintable(text));
        // Vector: pdfimages lists only its two header lines.
        const QStringList images = run(QStringLiteral("pdfimages"), {QStringLiteral("-list"), pdf})
                                       .split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QVERIFY2(images.size() == 2, qPrintable(images.join(QLatin1Char('\n'))));

        const QString csv = m_dir.filePath(QStringLiteral("plot.csv"));
        QVERIFY2(view.exportCsv(csv, &error), qPrintable(error));
        QFile file(csv);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QString content = QString::fromUtf8(file.readAll());
        QCOMPARE(content, toCsv(spec));
        QVERIFY(content.startsWith(QStringLiteral("series,run,message_size_per_rank_bytes,")));

        QVERIFY(!view.exportCsv(m_dir.filePath(QStringLiteral("no/such/dir/plot.csv")), &error));
        QVERIFY2(error.contains(QStringLiteral("no/such/dir")), qPrintable(error));
    }

    void renderIntoPdfWriter()
    {
        const QList<PlotSpec> specs{stageOnePlots(stageOneResult())[0],
                                    stageTwoLossPlot(trainingRuns(), TrainingX::Steps, 0.6)};
        const QString pdf = m_dir.filePath(QStringLiteral("report.pdf"));
        {
            QPdfWriter writer(pdf);
            writer.setResolution(300);
            writer.setPageSize(QPageSize(QPageSize::A4));
            QPainter painter(&writer);
            const double w = writer.width();
            const double h = writer.height();
            renderPlot(specs[0], &painter, QRectF(0, 0, w, h * 0.45));
            renderPlot(specs[1], &painter, QRectF(0, h * 0.5, w, h * 0.45));
        }
        // A look at the page: pdftoppm renders it next to the screenshots.
        run(QStringLiteral("pdftoppm"), {QStringLiteral("-png"), QStringLiteral("-r"), QStringLiteral("60"),
                                         QStringLiteral("-singlefile"), pdf,
                                         artifactDir() + QStringLiteral("/render-report-page")});
        QVERIFY(QFile::exists(artifactDir() + QStringLiteral("/render-report-page.png")));
        const QString text = run(QStringLiteral("pdftotext"), {pdf, QStringLiteral("-")});
        QVERIFY2(text.contains(QStringLiteral("Effective bandwidth (GB/s)")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("Loss vs step")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("KiB")), qPrintable(text));
        const QStringList images = run(QStringLiteral("pdfimages"), {QStringLiteral("-list"), pdf})
                                       .split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QVERIFY2(images.size() == 2, qPrintable(images.join(QLatin1Char('\n'))));

        // Into an image too (any painter).
        QImage image(800, 500, QImage::Format_ARGB32);
        image.fill(Qt::white);
        {
            QPainter p(&image);
            renderPlot(specs[0], &p, QRectF(0, 0, 800, 500));
        }
        QVERIFY(distinctColours(image) > 8);
        image.save(artifactDir() + QStringLiteral("/render-image.png"));
    }

    void heatmapsHaveAColourScale()
    {
        const ExpertLoadRunInput run = expertRun(QStringLiteral("moe"), 3000, 1500);
        for (const PlotSpec& spec : {layerExpertHeatmap(run, 1500, true), expertStepHeatmap(run, 1, false)}) {
            PlotView view;
            show(view, spec);
            const auto scales = view.customPlot()->findChildren<QCPColorScale*>();
            QCOMPARE(scales.size(), 1);
            QCPColorScale* scale = scales.first();
            QVERIFY(scale->layout()); // in the plot's layout, beside the axis rect
            QVERIFY2(scale, qPrintable(spec.id));
            QCOMPARE(scale->label(), spec.heatmap->colourLabel);
            // Hover names the cell and its value.
            QCPAxisRect* rect = view.customPlot()->axisRect();
            const QPoint p(int(rect->axis(QCPAxis::atBottom)->coordToPixel(spec.heatmap->xFirst)),
                           int(rect->axis(QCPAxis::atLeft)->coordToPixel(spec.heatmap->yFirst)));
            QVERIFY2(view.hoverTextAt(p).contains(spec.heatmap->colourLabel),
                     qPrintable(QStringLiteral("%1 at %2,%3 in %4,%5 %6x%7: '%8'")
                                    .arg(spec.id)
                                    .arg(p.x())
                                    .arg(p.y())
                                    .arg(rect->rect().x())
                                    .arg(rect->rect().y())
                                    .arg(rect->rect().width())
                                    .arg(rect->rect().height())
                                    .arg(view.hoverTextAt(p))));
            // The map drawn has at most one column per pixel and keeps the hot cell (max-pooled).
            auto* map = qobject_cast<QCPColorMap*>(view.customPlot()->plottable(0));
            QVERIFY(map);
            QVERIFY(map->data()->keySize() <= std::max(2, rect->width()));
            double hottest = 0;
            for (double v : spec.heatmap->values)
                hottest = std::max(hottest, v);
            QCOMPARE(map->data()->dataBounds().upper, hottest);
            screenshot(view, spec.id);
        }
    }

    // Hovering a heatmap cell names its row and column after the axis labels, then its
    // value: "Expert 2, Step 1003" (not "Step step 1003": the label says Step already).
    void heatmapHoverNamesTheCell()
    {
        PlotSpec spec = expertStepSpec(QStringLiteral("hover-heatmap"), 1000, 6, 4); // steps 1000 … 1005
        Heatmap& h = *spec.heatmap;
        for (int r = 0; r < h.rows; ++r)
            for (int c = 0; c < h.columns; ++c)
                h.values[qsizetype(r) * h.columns + c] = 10.0 * r + c + 0.5;
        PlotView view;
        show(view, spec);
        QCOMPARE(view.hoverTextAt(pixelAt(view, 1003, 2)), QStringLiteral("Expert 2, Step 1003\n23.5 tokens"));
        // A line over steps: "Step: 1003" likewise.
        PlotSpec line;
        line.id = QStringLiteral("hover-line");
        line.x = spec.x;
        line.y = {QStringLiteral("Loss"), AxisScale::Linear, AxisUnit::Loss, QStringLiteral("Loss")};
        Series s;
        s.name = QStringLiteral("lm_loss");
        s.x = {1002, 1003, 1004};
        s.y = {3.5, 3.25, 3.0};
        line.series << s;
        PlotView lineView;
        show(lineView, line);
        QCOMPARE(lineView.hoverTextAt(pixelAt(lineView, 1003, 3.25)), QStringLiteral("lm_loss\nStep: 1003\nLoss: 3.25"));
        QCOMPARE(lineView.crosshairTextAt(1003), QStringLiteral("Step: 1003\nlm_loss: 3.25"));
    }

    // Level of detail: a 256 × 20,000 heatmap (expert × step at DeepSeek-V3 size) with
    // one hot cell, drawn into ~800 × 450 pixels. The hot cell must show where it is
    // (max-pooling), at every zoom, and vanish only when panned out of view.
    void hotCellSurvivesPooling()
    {
        PlotSpec spec = expertStepSpec(QStringLiteral("lod-heatmap"), 1, 20000, 256);
        Heatmap& h = *spec.heatmap;
        const int hotColumn = 12345, hotRow = 201;
        const double hotStep = h.xFirst + hotColumn;
        h.values[qsizetype(hotRow) * h.columns + hotColumn] = 9.0;
        PlotView view;
        show(view, spec);
        QCustomPlot* plot = view.customPlot();
        QCPAxisRect* rect = plot->axisRect();
        QCPAxis* xa = rect->axis(QCPAxis::atBottom);
        QCPAxis* ya = rect->axis(QCPAxis::atLeft);
        // The hottest colour of the sequential map (values span 1 … 9: the hot cell is
        // its top, every other cell its bottom).
        const quint32 top = sequentialStops().last();
        const QColor hot(int((top >> 16) & 0xFF), int((top >> 8) & 0xFF), int(top & 0xFF));
        auto hotPixels = [&](QRect* where) {
            const QImage image = plot->grab().toImage();
            int n = 0;
            QRect box;
            const QRect area = rect->rect();
            for (int y = area.top(); y <= area.bottom(); ++y)
                for (int x = area.left(); x <= area.right(); ++x) {
                    const QColor c = image.pixelColor(x, y);
                    if (std::abs(c.red() - hot.red()) + std::abs(c.green() - hot.green()) +
                            std::abs(c.blue() - hot.blue()) <= 24) {
                        ++n;
                        box |= QRect(x, y, 1, 1);
                    }
                }
            if (where)
                *where = box;
            return n;
        };
        auto expectAt = [&](const QRect& box) {
            const QPointF at(xa->coordToPixel(hotStep), ya->coordToPixel(hotRow));
            QVERIFY2(box.adjusted(-2, -2, 2, 2).contains(at.toPoint()),
                     qPrintable(QStringLiteral("hot pixels at %1,%2 %3x%4, the cell at %5,%6")
                                    .arg(box.x())
                                    .arg(box.y())
                                    .arg(box.width())
                                    .arg(box.height())
                                    .arg(at.x())
                                    .arg(at.y())));
        };
        // Zoomed out: 20,000 steps into the rect's few hundred pixels.
        QVERIFY(rect->width() < 1000);
        const PooledHeatmap& lod = view.heatmapLevelOfDetail();
        QVERIFY2(lod.columnBlock > 20, qPrintable(QString::number(lod.columnBlock)));
        QVERIFY(lod.columns <= rect->width() && lod.rows <= rect->height());
        QRect box;
        QVERIFY2(hotPixels(&box) > 0, "the hot cell vanished when pooled");
        expectAt(box);
        QVERIFY2(box.width() <= 4 && box.height() <= 4, "one cell should cover about one pixel");
        // Hover over it: the pooled cell's steps and experts, its max and mean.
        const QString text = view.hoverTextAt(box.center());
        QVERIFY2(text.contains(QStringLiteral("max 9,")) && text.contains(QStringLiteral("cells pooled")),
                 qPrintable(text));
        {
            // Exactly: the aligned block around the hot cell (steps are xFirst + column),
            // its maximum and the mean of one 9 among 1s.
            const int cb = lod.columnBlock, rb = lod.rowBlock;
            const int c0 = hotColumn / cb * cb, c1 = std::min(h.columns, c0 + cb) - 1;
            const int r0 = hotRow / rb * rb, r1 = std::min(h.rows, r0 + rb) - 1;
            const int cells = (c1 - c0 + 1) * (r1 - r0 + 1);
            const auto span = [](qint64 from, qint64 to) {
                return from == to ? QString::number(from) : QStringLiteral("%1–%2").arg(from).arg(to);
            };
            const QString expected = QStringLiteral("Expert %1, Step %2\nmax 9, mean %3 tokens (%4 cells pooled)")
                                         .arg(span(r0, r1), span(qint64(h.xFirst) + c0, qint64(h.xFirst) + c1),
                                              QString::number((9.0 + (cells - 1)) / cells, 'g', 6))
                                         .arg(cells);
            QCOMPARE(text, expected);
        }
        screenshot(view, QStringLiteral("lod-heatmap-zoomed-out"));

        // Zoomed in around it (as the wheel does: set range, queued replot): finer
        // blocks, the hot cell bigger, still in its place.
        xa->setRange(hotStep - 300, hotStep + 300);
        plot->replot(QCustomPlot::rpImmediateRefresh);
        QCOMPARE(view.heatmapLevelOfDetail().columnBlock, 1);
        QVERIFY(hotPixels(&box) > 0);
        expectAt(box);
        QVERIFY2(box.width() >= 1 && box.width() <= int(rect->width() / 600.0) + 2, qPrintable(QString::number(box.width())));
        // Panned away: no hot pixel left (the picture follows the range).
        xa->setRange(hotStep + 1000, hotStep + 1600);
        plot->replot(QCustomPlot::rpImmediateRefresh);
        QCOMPARE(hotPixels(nullptr), 0);
        // Back to the whole map (double-click resets): pooled again, hot cell there.
        view.resetView();
        QVERIFY(view.heatmapLevelOfDetail().columnBlock > 20);
        QVERIFY(hotPixels(&box) > 0);
        expectAt(box);
    }

    // A 1,000,000-point line is drawn decimated per pixel column for the visible
    // range: few points, the one-step spike kept (and drawn) at every zoom.
    void longLineKeepsSpikes()
    {
        PlotSpec spec;
        spec.id = QStringLiteral("lod-line");
        spec.title = QStringLiteral("Loss");
        spec.x = {QStringLiteral("Step"), AxisScale::Linear, AxisUnit::Steps, {}};
        spec.y = {QStringLiteral("Loss"), AxisScale::Linear, AxisUnit::Loss, {}};
        Series s;
        s.name = QStringLiteral("lm_loss");
        constexpr int points = 1'000'000, spike = 654'321;
        s.x.resize(points);
        s.y.resize(points);
        for (int i = 0; i < points; ++i) {
            s.x[i] = i;
            s.y[i] = 2.0 + 0.05 * std::sin(i * 0.37);
        }
        s.y[spike] = 9.0;
        spec.series << s;
        PlotView view;
        show(view, spec);
        QCustomPlot* plot = view.customPlot();
        QCPGraph* graph = plot->graph(0);
        QVERIFY(graph);
        QCPAxis* xa = plot->axisRect()->axis(QCPAxis::atBottom);
        QCPAxis* ya = plot->axisRect()->axis(QCPAxis::atLeft);
        auto hasSpike = [&] {
            for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it)
                if (it->key == spike)
                    return it->value == 9.0;
            return false;
        };
        auto spikeDrawn = [&] {
            // Line pixels (the series' blue) near the spike's top.
            const QImage image = plot->grab().toImage();
            const QPoint at(int(xa->coordToPixel(spike)), int(ya->coordToPixel(9.0)));
            for (int y = at.y() - 3; y <= at.y() + 3; ++y)
                for (int x = at.x() - 3; x <= at.x() + 3; ++x) {
                    const QColor c = image.pixelColor(x, y);
                    if (c.blue() > c.red() + 60)
                        return true;
                }
            return false;
        };
        const int width = plot->axisRect()->width();
        QVERIFY2(graph->dataCount() <= 5 * width + 2, qPrintable(QString::number(graph->dataCount())));
        QVERIFY(hasSpike());
        QVERIFY(spikeDrawn());
        xa->setRange(600'000, 700'000);
        plot->replot(QCustomPlot::rpImmediateRefresh);
        QVERIFY(graph->dataCount() <= 5 * width + 2);
        QVERIFY(hasSpike());
        QVERIFY(spikeDrawn());
        QVERIFY(graph->data()->constBegin()->key < 600'000); // the line runs on to the edge
        // Zoomed in to fewer points than pixels: every point.
        xa->setRange(spike - 200, spike + 200);
        plot->replot(QCustomPlot::rpImmediateRefresh);
        QCOMPARE(graph->dataCount(), 401 + 2);
        QVERIFY(spikeDrawn());
        screenshot(view, QStringLiteral("lod-line-zoomed"));
    }

    // Bars of five run names lie on their side: each name is drawn whole, on one line
    // left of its bar (first run on top), in the window, its PDF and the report's
    // renderer; the value axis (tokens/s) is at the bottom.
    void barLabelsAllDrawn()
    {
        QList<TrainingRunInput> runs;
        const QStringList names{QStringLiteral("demo-train-dense-1.2b"), QStringLiteral("demo-train-moe-cf1.0"),
                                QStringLiteral("demo-train-moe-cf1.25"), QStringLiteral("demo-train-moe-cf1.5"),
                                QStringLiteral("demo-train-moe-dropless")};
        for (int i = 0; i < names.size(); ++i) {
            TrainingRunInput run = trainingRuns()[i == 0 ? 1 : 0];
            run.runName = names[i];
            runs << run;
        }
        const PlotSpec spec = stageTwoThroughputPlot(runs);
        for (const QSize size : {QSize(500, 380), QSize(900, 560)}) {
            PlotView view;
            view.resize(size);
            view.setSpec(spec);
            view.show();
            QVERIFY(QTest::qWaitForWindowExposed(&view));
            QCustomPlot* plot = view.customPlot();
            plot->replot(QCustomPlot::rpImmediateRefresh);
            QCPAxis* left = plot->axisRect()->axis(QCPAxis::atLeft);
            QCPAxis* bottom = plot->axisRect()->axis(QCPAxis::atBottom);
            auto* bars = qobject_cast<QCPBars*>(plot->plottable(0));
            QVERIFY(bars);
            QCOMPARE(bars->keyAxis(), left);
            QCOMPARE(left->tickLabelRotation(), 0.0);
            QVERIFY(left->coordToPixel(0) < left->coordToPixel(4)); // the first run on top
            QVERIFY(bottom->label().contains(QStringLiteral("tokens/s")));
            // The left margin holds the widest name (QCustomPlot sizes it to its labels).
            const QFontMetrics fm(left->tickLabelFont());
            int widest = 0;
            for (const QString& name : names)
                widest = std::max(widest, fm.horizontalAdvance(name));
            QVERIFY2(plot->axisRect()->left() >= widest, qPrintable(QString::number(plot->axisRect()->left())));
            // Hover: over a bar, and left of it over its name, the run's whole name.
            const QPoint overBar(int(bottom->coordToPixel(1000)), int(left->coordToPixel(2)));
            QVERIFY2(view.hoverTextAt(overBar).startsWith(names[2]), qPrintable(view.hoverTextAt(overBar)));
            QCOMPARE(view.hoverTextAt(QPoint(plot->axisRect()->left() - 20, int(left->coordToPixel(3)))), names[3]);
            const QString pdf = m_dir.filePath(QStringLiteral("bars-%1.pdf").arg(size.width()));
            QString error;
            QVERIFY2(view.exportPdf(pdf, &error), qPrintable(error));
            // Read in the page's reading order (no -raw): each name on a line of its own,
            // never in pieces.
            const QString text = run(QStringLiteral("pdftotext"), {pdf, QStringLiteral("-")});
            const QStringList lines = text.split(QLatin1Char('\n'));
            for (const QString& name : names)
                QVERIFY2(lines.contains(name), qPrintable(name + QStringLiteral(" missing at width ") +
                                                         QString::number(size.width()) + QStringLiteral(":\n") + text));
            screenshot(view, QStringLiteral("stage2-throughput-%1").arg(size.width()));
        }
        // The report's renderer lays out the same.
        const QString pdf = m_dir.filePath(QStringLiteral("bars-render.pdf"));
        {
            QPdfWriter writer(pdf);
            writer.setResolution(300);
            QPainter painter(&writer);
            renderPlot(spec, &painter, QRectF(0, 0, writer.width() * 0.5, writer.width() * 0.3));
        }
        const QStringList lines =
            run(QStringLiteral("pdftotext"), {pdf, QStringLiteral("-")}).split(QLatin1Char('\n'));
        for (const QString& name : names)
            QVERIFY2(lines.contains(name), qPrintable(name + QStringLiteral(" missing in the rendered plot")));
    }

    // A run name longer than 32 characters is elided in the middle on the axis, its
    // start and its longer end kept; hover left of it says it whole.
    void longBarNameElidedInTheMiddle()
    {
        QList<TrainingRunInput> runs;
        const QString longName =
            QStringLiteral("team-a-2026-q4-sweep-moe-64e-top6-capacity-1.25-seed-7"); // 54 characters
        const QStringList names{QStringLiteral("demo-train-dense-1.2b"), longName,
                                QStringLiteral("demo-train-moe-cf1.5")};
        for (int i = 0; i < names.size(); ++i) {
            TrainingRunInput run = trainingRuns()[i == 0 ? 1 : 0];
            run.runName = names[i];
            runs << run;
        }
        PlotView view;
        view.resize(700, 420);
        view.setSpec(stageTwoThroughputPlot(runs));
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QCustomPlot* plot = view.customPlot();
        plot->replot(QCustomPlot::rpImmediateRefresh);
        QCPAxis* left = plot->axisRect()->axis(QCPAxis::atLeft);
        const auto ticker = left->ticker().dynamicCast<QCPAxisTickerText>();
        QVERIFY(ticker);
        const QString shown = ticker->ticks().value(1);
        QCOMPARE(shown.size(), 32);
        QCOMPARE(shown, QStringLiteral("team-a-202\u2026-capacity-1.25-seed-7"));
        QCOMPARE(ticker->ticks().value(0), names[0]); // short names stay whole
        QCOMPARE(view.hoverTextAt(QPoint(plot->axisRect()->left() - 10, int(left->coordToPixel(1)))), longName);
    }

    // Point labels of a scatter stay inside the axis rect: the rightmost and topmost
    // points get theirs on the left and below.
    void scatterLabelsInside()
    {
        QList<ExpertLoadRunInput> runs;
        QList<StageThreeRunSummary> summaries;
        const ThresholdSet t = teamThresholds({{QStringLiteral("stage3.window_steps"), 20}});
        // As the demo's: the most dropping run has the highest loss (top right).
        const QList<std::tuple<QString, double, double>> points{
            {QStringLiteral("demo-train-moe-cf1.0"), 0.038, 2.94},
            {QStringLiteral("demo-train-moe-cf1.25"), 0.007, 2.917},
            {QStringLiteral("demo-train-moe-cf1.5"), 0.003, 2.90}};
        for (const auto& [name, drop, loss] : points) {
            ExpertLoadRunInput run = expertRun(name, 60, 10);
            for (auto& m : run.metrics)
                m.value = m.name == QLatin1String("drop_rate") ? drop
                          : m.name == QLatin1String("lm_loss") ? loss
                                                               : m.value;
            runs << run;
            summaries << summarizeStageThreeRun(run, t);
        }
        const PlotSpec spec = dropVsLossPlot(summaries, runs);
        int labels = 0;
        for (const QSize size : {QSize(420, 320), QSize(900, 560)}) {
            PlotView view;
            view.resize(size);
            view.setSpec(spec);
            view.show();
            QVERIFY(QTest::qWaitForWindowExposed(&view));
            QCustomPlot* plot = view.customPlot();
            plot->replot(QCustomPlot::rpImmediateRefresh);
            const QRect inside = plot->axisRect()->rect().adjusted(-1, -1, 1, 1);
            for (int k = 0; k < plot->itemCount(); ++k) {
                auto* label = qobject_cast<QCPItemText*>(plot->item(k));
                if (!label || !label->text().startsWith(QStringLiteral("demo-")))
                    continue;
                ++labels;
                const QPointF tl = label->topLeft->pixelPosition(), br = label->bottomRight->pixelPosition();
                QVERIFY2(inside.contains(tl.toPoint()) && inside.contains(br.toPoint()),
                         qPrintable(QStringLiteral("%1 at %2,%3–%4,%5 leaves %6,%7 %8x%9 (width %10)")
                                        .arg(label->text())
                                        .arg(tl.x()).arg(tl.y()).arg(br.x()).arg(br.y())
                                        .arg(inside.x()).arg(inside.y()).arg(inside.width()).arg(inside.height())
                                        .arg(size.width())));
            }
            screenshot(view, QStringLiteral("stage3-drop-vs-loss-%1").arg(size.width()));
        }
        QCOMPARE(labels, 6);
    }

    void otherKindsAndEmpty()
    {
        const QList<TrainingRunInput> runs = trainingRuns();
        ExpertLoadRunInput drop = expertRun(QStringLiteral("drop-1.25"), 60, 10);
        moewb::record::ConfigRecord dl = moeRecord();
        dl.moe.overflowPolicy = moewb::record::OverflowPolicy::Dropless;
        dl.moe.capacityFactor = moewb::record::CapacityFactor::none();
        ExpertLoadRunInput free = expertRun(QStringLiteral("dropless"), 60, 20, dl);
        const ThresholdSet t = teamThresholds({{QStringLiteral("stage3.window_steps"), 20}});
        const QList<StageThreeRunSummary> summaries{summarizeStageThreeRun(drop, t), summarizeStageThreeRun(free, t)};
        const StageFourResult four = evaluateStageFour(baseline(QStringLiteral("src"), 1.0),
                                                       baseline(QStringLiteral("dst"), 1.1), ThresholdSet());
        QList<PlotSpec> specs{stageTwoLossPlot(runs, TrainingX::Tokens, 0.6), stageTwoThroughputPlot(runs),
                              loadRatioPlot(summaries, 1.5), dropVsLossPlot(summaries, {drop, free}),
                              busiestDevicePlot(summaries)};
        specs << stageFourPlots(four);
        for (const PlotSpec& spec : specs) {
            PlotView view;
            show(view, spec);
            QVERIFY2(view.customPlot()->plottableCount() > 0, qPrintable(spec.id));
            // Title and note lie inside the widget (a long note wraps, never clipped).
            for (auto* text : view.customPlot()->findChildren<QCPTextElement*>())
                QVERIFY2(text->outerRect().bottom() <= view.customPlot()->height() &&
                             text->outerRect().right() <= view.customPlot()->width(),
                         qPrintable(QStringLiteral("%1: '%2' at %3,%4 %5x%6")
                                        .arg(spec.id, text->text())
                                        .arg(text->outerRect().x())
                                        .arg(text->outerRect().y())
                                        .arg(text->outerRect().width())
                                        .arg(text->outerRect().height())));
            screenshot(view, spec.id);
        }

        // Bars: the categories are the x tick labels.
        PlotView bars;
        show(bars, stageTwoThroughputPlot(runs));
        const QString ticks = tickLabels(bars.customPlot()->axisRect()->axis(QCPAxis::atBottom)).join(QLatin1Char('|'));
        QVERIFY2(ticks.contains(QStringLiteral("moe")) && ticks.contains(QStringLiteral("dense")), qPrintable(ticks));

        // Empty: a centred "No data", never a blank frame.
        PlotView empty;
        PlotSpec none;
        none.title = QStringLiteral("Nothing yet");
        show(empty, none);
        bool noData = false;
        for (int i = 0; i < empty.customPlot()->itemCount(); ++i)
            if (auto* item = qobject_cast<QCPItemText*>(empty.customPlot()->item(i)))
                noData = noData || item->text() == QStringLiteral("No data");
        QVERIFY(noData);
        QVERIFY(empty.hoverTextAt(QPoint(450, 280)).isEmpty());
        screenshot(empty, QStringLiteral("empty"));
    }
};

QTEST_MAIN(TestPlotView)
#include "test_plot_view.moc"
