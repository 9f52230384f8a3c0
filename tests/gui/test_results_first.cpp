// Results first (docs/gui.md, "Stage pages"): the real window on the demo project at
// 1366×768 (offscreen). Before Evaluate every stage page's plots already show the
// project's data; after stages 1–3 are evaluated the first screen of each page (the
// scroll area's viewport, nothing scrolled) holds the verdict strip and a plot with
// data; no page and no table scrolls sideways; the runs of one plot have pairwise
// distinct colours; the mouse wheel over a plot scrolls the page and leaves the
// plot's range alone (Ctrl+wheel zooms); a click on a legend entry hides its series;
// the Help menu has the guide and the shortcuts. Screenshots:
// tests/artifacts/gui/results-first/.
#include "GuiTestSupport.h"
#include "MainWindow.h"
#include "WarningsBar.h"
#include "ProjectBrowser.h"
#include "StageFrame.h"
#include "plots/PlotView.h"
#include "plotspec/StagePlots.h"
#include "stages/StagePage.h"
#include "store/ProjectStore.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QDir>
#include <QFrame>
#include <QHeaderView>
#include <QMenuBar>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QFontMetrics>
#include <QStyle>
#include <QTableWidget>
#include <QTextBoundaryFinder>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QTextDocumentFragment>
#include <QUrl>
#include <QWheelEvent>
#include <QLabel>
#include <QtTest>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace moewb;
using Kind = gui::StageState::Kind;

namespace {
// A 1366×768 screen less a panel and the window's title bar.
const QSize kWindow(1366, 720);

QString artifacts() {
    const QString dir = QStringLiteral(MOEWB_BINARY_DIR "/tests/artifacts/gui/results-first");
    QDir().mkpath(dir);
    return dir;
}

// The rectangle of `w` in the coordinates of `area`'s viewport.
QRect inViewport(QWidget* w, QScrollArea* area) {
    return QRect(w->mapTo(area->viewport(), QPoint(0, 0)), w->size());
}
} // namespace

class TestResultsFirst : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<gui::MainWindow> m_window;

    gui::StagePage* page(int stage) const {
        return qobject_cast<gui::StagePage*>(m_window->stageFrame(stage)->page());
    }
    QScrollArea* scroll(int stage) const {
        return page(stage)->findChild<QScrollArea*>(QStringLiteral("stagePageScroll"));
    }
    QList<plots::PlotView*> plotsWithData(int stage) const {
        QList<plots::PlotView*> out;
        for (plots::PlotView* v : page(stage)->findChildren<plots::PlotView*>())
            if (v->isVisible() && !plots::isEmpty(v->spec()))
                out << v;
        return out;
    }
    void noSidewaysScrolling(int stage) {
        QApplication::processEvents();
        QTest::qWait(100); // posted layout requests of the tables and the page
        QStringList problems;
        QScrollArea* area = scroll(stage);
        if (area->horizontalScrollBar()->maximum() > 0)
            problems << QStringLiteral("the page scrolls sideways by %1 px").arg(area->horizontalScrollBar()->maximum());
        for (QTableWidget* t : page(stage)->findChildren<QTableWidget*>()) {
            if (!t->isVisible())
                continue;
            int sum = 0;
            for (int c = 0; c < t->columnCount(); ++c)
                sum += t->horizontalHeader()->isSectionHidden(c) ? 0 : t->horizontalHeader()->sectionSize(c);
            if (t->horizontalScrollBar()->maximum() > 0 || sum > t->viewport()->width() + 1)
            {
                QStringList sizes;
                for (int c = 0; c < t->columnCount(); ++c)
                    sizes << QString::number(t->horizontalHeader()->sectionSize(c));
                problems << QStringLiteral("table %1: columns %2 px in a %3 px view (%4; vertical scroll bar %5)")
                                .arg(t->objectName())
                                .arg(sum)
                                .arg(t->viewport()->width())
                                .arg(sizes.join(QLatin1Char(' ')))
                                .arg(t->verticalScrollBar()->isVisible() ? QStringLiteral("shown") : QStringLiteral("hidden"));
            }
            // Every header is read whole: it wraps at its spaces rather than elide, so
            // each word fits its column and the wrapped lines fit the header's height.
            const QHeaderView* header = t->horizontalHeader();
            const QFontMetrics fm(header->font());
            const int margin = t->style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, header);
            for (int c = 0; c < t->columnCount(); ++c) {
                const QTableWidgetItem* h = t->horizontalHeaderItem(c);
                if (!h || header->isSectionHidden(c))
                    continue;
                const int textWidth = header->sectionSize(c) - 2 * margin - 16;
                // The pieces between line-break opportunities (Unicode line breaking:
                // spaces, and between Chinese characters).
                QStringList words;
                QTextBoundaryFinder breaks(QTextBoundaryFinder::Line, h->text());
                for (qsizetype from = 0; breaks.toNextBoundary() >= 0; from = breaks.position())
                    words << h->text().mid(from, breaks.position() - from).trimmed();
                for (const QString& word : std::as_const(words))
                    if (fm.horizontalAdvance(word) > textWidth)
                        problems << QStringLiteral("table %1: header \"%2\" cut: \"%3\" is %4 px in %5 px")
                                        .arg(t->objectName(), h->text(), word)
                                        .arg(fm.horizontalAdvance(word))
                                        .arg(textWidth);
                const QRect r = fm.boundingRect(QRect(0, 0, std::max(1, textWidth), 100000),
                                                Qt::AlignCenter | Qt::TextWordWrap, h->text());
                if (r.height() > header->height() - 2)
                    problems << QStringLiteral("table %1: header \"%2\" needs %3 px, the header is %4 px (column %5 px)")
                                    .arg(t->objectName(), h->text())
                                    .arg(r.height())
                                    .arg(header->height())
                                    .arg(header->sectionSize(c));
            }
        }
        QVERIFY2(problems.isEmpty(), qPrintable(QStringLiteral("stage %1: ").arg(stage) + problems.join(QStringLiteral("; "))));
    }

    // Every problem with where a plot's legend sits: inside the data area it may cover
    // no point of any series nor the straight line between two neighbours (sampled
    // here, 16 samples a segment); outside it may not overlap the axis rect; and the
    // data area keeps at least half the plot's height.
    QStringList legendProblems(plots::PlotView* v) const {
        QStringList problems;
        QCustomPlot* plot = v->customPlot();
        QCPLegend* legend = plot->legend;
        QCPAxisRect* rect = plot->axisRect();
        if (!legend || !legend->visible() || !rect)
            return problems;
        const QString name = v->objectName();
        if (rect->height() < plot->height() / 2)
            problems << QStringLiteral("%1: the data area is %2 px of a %3 px plot").arg(name).arg(rect->height()).arg(plot->height());
        const QRect box = legend->outerRect();
        if (legend->layout() != rect->insetLayout()) {
            if (box.intersects(rect->rect()))
                problems << QStringLiteral("%1: the legend outside overlaps the data area").arg(name);
            return problems;
        }
        QCPAxis* xa = rect->axis(QCPAxis::atBottom);
        QCPAxis* ya = rect->axis(QCPAxis::atLeft);
        int inside = 0;
        for (const plots::Series& s : v->spec().series) {
            const qsizetype n = std::min(s.x.size(), s.y.size());
            for (qsizetype i = 0; i < n; ++i) {
                const QPointF p(xa->coordToPixel(s.x[i]), ya->coordToPixel(s.y[i]));
                inside += box.contains(p.toPoint()) ? 1 : 0;
                if (i + 1 < n && s.style != plots::SeriesStyle::Scatter && s.style != plots::SeriesStyle::Bars) {
                    const QPointF q(xa->coordToPixel(s.x[i + 1]), ya->coordToPixel(s.y[i + 1]));
                    for (int k = 1; k < 16; ++k)
                        inside += box.contains((p + (q - p) * (k / 16.0)).toPoint()) ? 1 : 0;
                }
            }
        }
        if (inside > 0)
            problems << QStringLiteral("%1: %2 data samples under the legend").arg(name).arg(inside);
        return problems;
    }

private slots:
    void initTestCase() {
        // The first size fits a 1366×768 screen (and a smaller one).
        const QSize first = gui::MainWindow::defaultWindowSize(QSize(1366, 728));
        QVERIFY(first.width() <= 1366 && first.height() <= 728);
        QVERIFY(gui::MainWindow::defaultWindowSize(QSize(1024, 600)).height() <= 600);
        const QString error = testing::startWithDemo(m_dir, QStringLiteral("test_results_first"), kWindow, m_window);
        QVERIFY2(error.isEmpty(), qPrintable(error));
    }

    void cleanupTestCase() { testing::closeMainWindow(m_window); }

    void plotsHaveDataBeforeEvaluate() {
        for (int stage = 1; stage <= 4; ++stage) {
            m_window->showStage(stage);
            QTRY_VERIFY_WITH_TIMEOUT(page(stage)->hasResults(), 60000);
            QVERIFY2(page(stage)->lastEvaluation() == nullptr,
                     "loading the data is not an evaluation (nothing decided or saved)");
            QVERIFY2(!plotsWithData(stage).isEmpty(), qPrintable(QStringLiteral("stage %1: no plot with data").arg(stage)));
            noSidewaysScrolling(stage);
            QVERIFY(m_window->grab().save(artifacts() + QStringLiteral("/before-evaluate-stage%1.png").arg(stage)));
        }
        // Nothing was saved: the stages are still not started (4 locked).
        QCOMPARE(m_window->browser()->stageStateOf(1).kind, Kind::NotStarted);
    }

    void firstScreenHasVerdictAndPlot() {
        const Kind expected[] = {Kind::Passed, Kind::Passed, Kind::Stopped};
        for (int stage = 1; stage <= 3; ++stage) {
            m_window->showStage(stage);
            auto* evaluate = page(stage)->findChild<QPushButton*>(QStringLiteral("evaluateButton"));
            QTRY_VERIFY(evaluate->isVisible() && evaluate->isEnabled());
            evaluate->click();
            QTRY_VERIFY_WITH_TIMEOUT(page(stage)->lastEvaluation() != nullptr && !page(stage)->isEvaluating(), 60000);
            QTRY_COMPARE_WITH_TIMEOUT(m_window->browser()->stageStateOf(stage).kind, expected[stage - 1], 10000);
            QApplication::processEvents();
            QScrollArea* area = scroll(stage);
            // After Evaluate the page shows its top: the verdict and the key plots.
            QCOMPARE(area->verticalScrollBar()->value(), 0);
            const QRect view = area->viewport()->rect();
            auto* verdict = page(stage)->findChild<QFrame*>(QStringLiteral("verdictFrame"));
            QVERIFY(verdict->isVisible());
            QVERIFY2(view.contains(inViewport(verdict, area)),
                     qPrintable(QStringLiteral("stage %1: verdict at %2,%3 %4×%5 outside the %6×%7 first screen")
                                    .arg(stage)
                                    .arg(inViewport(verdict, area).x())
                                    .arg(inViewport(verdict, area).y())
                                    .arg(verdict->width())
                                    .arg(verdict->height())
                                    .arg(view.width())
                                    .arg(view.height())));
            bool plotOnFirstScreen = false;
            QStringList where;
            for (plots::PlotView* v : plotsWithData(stage)) {
                const QRect r = inViewport(v, area);
                where << QStringLiteral("%1 at y %2..%3").arg(v->objectName()).arg(r.top()).arg(r.bottom());
                plotOnFirstScreen = plotOnFirstScreen || view.contains(r);
            }
            QVERIFY2(plotOnFirstScreen, qPrintable(QStringLiteral("stage %1, viewport height %2: %3")
                                                       .arg(stage)
                                                       .arg(view.height())
                                                       .arg(where.join(QStringLiteral(", ")))));
            noSidewaysScrolling(stage);
            QVERIFY(m_window->grab().save(artifacts() + QStringLiteral("/stage%1.png").arg(stage)));
        }
    }

    // Stage 2 asks "faster, or lower validation loss?": the panel that answers it — the
    // loss zoomed on the end of training beside the throughput — is the first thing of
    // the results, whole on the first screen at 1366×768 and at 1920×1080, above the
    // whole curves; the zoom starts at 70 % of the curves' token span and its y range is
    // a small part of the whole plot's; its caption has each run's last validation loss
    // (read here from the store).
    void stageTwoDecidingPanelFirst() {
        const QList<QSize> sizes{kWindow, QSize(1920, 1040)};
        for (const QSize& size : sizes) {
            m_window->resize(size);
            m_window->showStage(2);
            QTRY_VERIFY_WITH_TIMEOUT(page(2)->hasResults(), 60000);
            QTest::qWait(100);
            QScrollArea* area = scroll(2);
            area->verticalScrollBar()->setValue(0);
            QApplication::processEvents();
            auto* tail = page(2)->findChild<plots::PlotView*>(QStringLiteral("stage2LossTailPlot"));
            auto* throughput = page(2)->findChild<plots::PlotView*>(QStringLiteral("stage2ThroughputPlot"));
            auto* whole = page(2)->findChild<plots::PlotView*>(QStringLiteral("stage2LossPlot"));
            QVERIFY(tail && throughput && whole);
            QVERIFY(!plots::isEmpty(tail->spec()) && !plots::isEmpty(throughput->spec()));
            const QRect view = area->viewport()->rect();
            for (plots::PlotView* v : {tail, throughput}) {
                const QRect r = inViewport(v, area);
                QVERIFY2(view.contains(r), qPrintable(QStringLiteral("%1×%2: %3 at y %4..%5, the first screen is %6 px")
                                                          .arg(size.width())
                                                          .arg(size.height())
                                                          .arg(v->objectName())
                                                          .arg(r.top())
                                                          .arg(r.bottom())
                                                          .arg(view.height())));
            }
            // Side by side, the whole curves under them; no plot of the page above them.
            QCOMPARE(inViewport(tail, area).top(), inViewport(throughput, area).top());
            QVERIFY(inViewport(tail, area).right() < inViewport(throughput, area).left());
            QVERIFY(inViewport(whole, area).top() > inViewport(tail, area).bottom());
            for (plots::PlotView* v : page(2)->findChildren<plots::PlotView*>())
                QVERIFY(inViewport(v, area).top() >= inViewport(tail, area).top());
            QVERIFY(m_window->grab().save(
                artifacts() + QStringLiteral("/stage2-deciding-%1.png").arg(size.width())));
        }
        m_window->resize(kWindow);
        QTest::qWait(100);

        // The zoom, against the whole curves' token span (their first to last point).
        auto* tail = page(2)->findChild<plots::PlotView*>(QStringLiteral("stage2LossTailPlot"));
        auto* whole = page(2)->findChild<plots::PlotView*>(QStringLiteral("stage2LossPlot"));
        QCOMPARE(tail->spec().id, QStringLiteral("stage2-loss-tail"));
        double lo = std::numeric_limits<double>::infinity(), hi = -lo;
        for (const plots::Series& s : whole->spec().series)
            for (double x : s.x) {
                lo = std::min(lo, x);
                hi = std::max(hi, x);
            }
        QVERIFY(lo < hi);
        const QCPRange xr = tail->customPlot()->axisRect()->axis(QCPAxis::atBottom)->range();
        QVERIFY2(std::fabs(xr.lower - (hi - 0.3 * (hi - lo))) <= 1e-9 * hi,
                 qPrintable(QStringLiteral("%1 vs %2").arg(xr.lower).arg(hi - 0.3 * (hi - lo))));
        const double tailSpan = tail->customPlot()->axisRect()->axis(QCPAxis::atLeft)->range().size();
        const double wholeSpan = whole->customPlot()->axisRect()->axis(QCPAxis::atLeft)->range().size();
        QVERIFY2(tailSpan < wholeSpan / 2, qPrintable(QStringLiteral("zoomed y span %1, whole %2").arg(tailSpan).arg(wholeSpan)));
        // Its caption gives each run's last validation loss, read here from the store.
        store::ProjectStore* project = m_window->project();
        int named = 0;
        for (const store::RunRow& r : project->runs()) {
            const QVector<store::StepMetric> val = project->stepMetrics(r.id, QStringLiteral("val_loss"));
            if (val.isEmpty() || !tail->spec().note.contains(r.name))
                continue;
            const auto last = std::max_element(val.begin(), val.end(), [](const auto& a, const auto& b) { return a.step < b.step; });
            QVERIFY2(tail->spec().note.contains(QStringLiteral("%1 %2").arg(r.name, QString::number(last->value, 'f', 3))),
                     qPrintable(tail->spec().note));
            ++named;
        }
        QVERIFY2(named >= 2, qPrintable(tail->spec().note));
    }

    // The plots take the height the window gives: taller at 1920×1080 than at
    // 1366×768, the first screen still holding the verdict and a plot; and their legends
    // stay off the data at both sizes.
    void plotsGrowWithTheWindowAndLegendsKeepOffTheData() {
        QMap<QString, int> small;
        QStringList problems;
        for (int stage = 1; stage <= 3; ++stage) {
            m_window->showStage(stage);
            QTest::qWait(50);
            for (plots::PlotView* v : plotsWithData(stage)) {
                small[v->objectName()] = v->height();
                problems << legendProblems(v);
            }
        }
        m_window->resize(1920, 1040);
        QTest::qWait(100);
        int grown = 0;
        for (int stage = 1; stage <= 3; ++stage) {
            m_window->showStage(stage);
            QTest::qWait(100);
            QScrollArea* area = scroll(stage);
            area->verticalScrollBar()->setValue(0);
            QApplication::processEvents();
            bool firstScreen = false;
            for (plots::PlotView* v : plotsWithData(stage)) {
                problems << legendProblems(v);
                if (v->height() > small.value(v->objectName()) + 100)
                    ++grown;
                firstScreen = firstScreen || area->viewport()->rect().contains(inViewport(v, area));
            }
            QVERIFY2(firstScreen, qPrintable(QStringLiteral("stage %1 at 1920×1040: no plot on the first screen").arg(stage)));
            QVERIFY(m_window->grab().save(artifacts() + QStringLiteral("/stage%1-1920.png").arg(stage)));
        }
        QVERIFY2(grown >= 3, qPrintable(QStringLiteral("only %1 plots grew by 100 px at 1920×1040").arg(grown)));
        m_window->resize(kWindow);
        QTest::qWait(100);
        for (int stage = 1; stage <= 3; ++stage) {
            m_window->showStage(stage);
            QTest::qWait(50);
            for (plots::PlotView* v : plotsWithData(stage))
                QVERIFY2(v->height() <= small.value(v->objectName()) + 4,
                         qPrintable(QStringLiteral("%1: %2 px, was %3").arg(v->objectName()).arg(v->height()).arg(small.value(v->objectName()))));
        }
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QStringLiteral("\n"))));
    }

    // A locked stage says why once, with what unlocks it (stage 4 after stage 3's stop).
    void lockReasonSaidOnce() {
        QCOMPARE(m_window->browser()->stageStateOf(4).kind, Kind::Locked);
        m_window->showStage(4);
        QApplication::processEvents();
        int said = 0;
        QStringList texts;
        for (QLabel* l : m_window->stageFrame(4)->findChildren<QLabel*>())
            if (l->isVisible()) {
                const QString plain = QTextDocumentFragment::fromHtml(l->text()).toPlainText();
                said += int(plain.count(QStringLiteral("Stage 4 is locked")));
                if (plain.contains(QStringLiteral("locked")))
                    texts << plain;
            }
        QVERIFY2(said == 1, qPrintable(texts.join(QStringLiteral("\n---\n"))));
        QVERIFY2(texts.join(QLatin1Char(' ')).contains(QStringLiteral("To unlock it: open stage 3 (Ctrl+3)")),
                 qPrintable(texts.join(QStringLiteral("\n---\n"))));
        QVERIFY(m_window->grab().save(artifacts() + QStringLiteral("/stage4-locked.png")));
    }

    // A check with several findings shows its summary; the findings behind a toggle.
    void warningsGroupedWithADetailsToggle() {
        gui::WarningsBar* bar = m_window->warningsBar();
        const checks::MisjudgmentWarning* grouped = nullptr;
        for (const checks::MisjudgmentWarning& w : bar->warnings())
            if (w.details.size() > 1)
                grouped = &w;
        QVERIFY2(grouped, "the demo has a check with several findings");
        gui::WarningsDialog* list = bar->openList();
        QVERIFY(list->text().contains(grouped->summary));
        QVERIFY(!list->text().contains(grouped->details.last()));
        QVERIFY(list->text().contains(QStringLiteral("Show the %1 finding").arg(grouped->details.size())));
        emit list->browser()->anchorClicked(QUrl(QStringLiteral("details:%1").arg(grouped->id)));
        QVERIFY(list->detailsShown(grouped->id));
        for (const QString& d : grouped->details)
            QVERIFY2(list->text().contains(d), qPrintable(d));
        QVERIFY(list->grab().save(artifacts() + QStringLiteral("/warnings-details.png")));
        emit list->browser()->anchorClicked(QUrl(QStringLiteral("details:%1").arg(grouped->id)));
        QVERIFY(!list->text().contains(grouped->details.last()));
        list->close();
    }

    void runColoursPairwiseDistinct() {
        int checked = 0;
        for (int stage = 1; stage <= 3; ++stage) {
            m_window->showStage(stage);
            QApplication::processEvents();
            for (plots::PlotView* v : plotsWithData(stage)) {
                // The pen colour drawn for each run's legend series.
                QMap<QString, QRgb> byRun;
                QCustomPlot* plot = v->customPlot();
                for (int i = 0; i < plot->graphCount(); ++i) {
                    QCPGraph* g = plot->graph(i);
                    const QVariant si = g->property("moewbSeries");
                    if (!si.isValid() || !plot->legend->hasItemWithPlottable(g))
                        continue;
                    const plots::Series& s = v->spec().series[si.toInt()];
                    if (s.colour < 0 || s.run.isEmpty())
                        continue;
                    const QRgb c = g->pen().color().rgb();
                    if (byRun.contains(s.run)) {
                        QCOMPARE(byRun[s.run], c); // one run, one colour
                        continue;
                    }
                    for (auto it = byRun.cbegin(); it != byRun.cend(); ++it)
                        QVERIFY2(it.value() != c, qPrintable(QStringLiteral("%1: runs %2 and %3 share colour %4")
                                                                 .arg(v->spec().id, it.key(), s.run)
                                                                 .arg(c, 6, 16)));
                    byRun[s.run] = c;
                }
                if (byRun.size() >= 2)
                    ++checked;
            }
        }
        QVERIFY2(checked >= 2, "at least two plots with several runs were compared");
    }

    void wheelOverPlotScrollsThePage() {
        m_window->showStage(1);
        QScrollArea* area = scroll(1);
        QApplication::processEvents();
        QVERIFY2(area->verticalScrollBar()->maximum() > 0, "the stage 1 page is taller than the window");
        area->verticalScrollBar()->setValue(0);
        plots::PlotView* view = plotsWithData(1).first();
        QCustomPlot* plot = view->customPlot();
        QCPAxis* x = plot->axisRect()->axis(QCPAxis::atBottom);
        const QCPRange x0 = x->range();
        const QPoint centre = plot->axisRect()->rect().center();
        QWheelEvent down(centre, plot->mapToGlobal(centre), QPoint(), QPoint(0, -120), Qt::NoButton, Qt::NoModifier,
                         Qt::NoScrollPhase, false);
        QApplication::sendEvent(plot, &down);
        QVERIFY2(area->verticalScrollBar()->value() > 0, "the wheel over a plot must scroll the page");
        QCOMPARE(x->range(), x0);
        // Ctrl+wheel zooms.
        QWheelEvent zoom(centre, plot->mapToGlobal(centre), QPoint(), QPoint(0, 120), Qt::NoButton,
                         Qt::ControlModifier, Qt::NoScrollPhase, false);
        const int scrolled = area->verticalScrollBar()->value();
        QApplication::sendEvent(plot, &zoom);
        QVERIFY2(x->range().size() < x0.size() * 0.99, "Ctrl+wheel must zoom");
        QCOMPARE(area->verticalScrollBar()->value(), scrolled);
        view->resetView();
    }

    void legendClickHidesSeries() {
        m_window->showStage(1);
        plots::PlotView* view = nullptr;
        for (plots::PlotView* v : plotsWithData(1))
            if (v->customPlot()->legend->visible() && v->customPlot()->legend->itemCount() >= 2)
                view = v;
        QVERIFY(view);
        scroll(1)->ensureWidgetVisible(view);
        QApplication::processEvents();
        QCustomPlot* plot = view->customPlot();
        auto* item = qobject_cast<QCPPlottableLegendItem*>(plot->legend->item(0));
        QVERIFY(item);
        QCPAbstractPlottable* series = item->plottable();
        QVERIFY(series->visible());
        const QPoint at = item->rect().center();
        QMouseEvent press(QEvent::MouseButtonPress, at, plot->mapToGlobal(at), Qt::LeftButton, Qt::LeftButton,
                          Qt::NoModifier);
        QApplication::sendEvent(plot, &press);
        QMouseEvent release(QEvent::MouseButtonRelease, at, plot->mapToGlobal(at), Qt::LeftButton, Qt::NoButton,
                            Qt::NoModifier);
        QApplication::sendEvent(plot, &release);
        QVERIFY2(!series->visible(), "a click on the legend entry hides its series");
        QVERIFY(view->isSeriesHidden(series->name()));
        // The cross-hair no longer lists it.
        const double xMid = plot->axisRect()->axis(QCPAxis::atBottom)->range().center();
        QVERIFY(!view->crosshairTextAt(xMid).contains(series->name() + QLatin1Char(':')));
        QApplication::sendEvent(plot, &press);
        QApplication::sendEvent(plot, &release);
        QVERIFY2(series->visible(), "a second click shows it again");
    }

    void helpMenu() {
        QStringList names;
        for (QAction* a : m_window->menuBar()->actions())
            if (a->menu())
                for (QAction* i : a->menu()->actions())
                    names << i->objectName();
        QVERIFY(names.contains(QStringLiteral("actionGuide")));
        QVERIFY(names.contains(QStringLiteral("actionShortcuts")));
        const QString guide = gui::MainWindow::guidePath();
        QVERIFY2(!guide.isEmpty(), "the guide is found beside the build");
        QVERIFY(guide.endsWith(QStringLiteral("guide.md")));
    }
};

QTEST_MAIN(TestResultsFirst)
#include "test_results_first.moc"
