// The run page's "Step anatomy" (docs/gui.md, "Runs"), through the real window,
// offscreen: the demo project written to a file, a training run with a step anatomy
// (tests/fixtures/anatomy/AnatomyFixture.h) saved into it through ProjectStore::saveRun,
// the file opened. The section shows only for that run; its step chooser starts at the
// step with the largest imbalance bill and changes the bars' values (read back from the
// plot's spec against the stored rows; hovering a stacked segment names that segment
// and its own value); the summary names the busiest rank with its
// node and local rank; the straggler table counts how often each rank was the busiest
// (against a count made here); the all-to-all table compares with stage 1's demo probe.
// The one-step timeline shows a row per rank, the busiest marked; hovering a known point
// names the kernel, its group and bytes (against the fixture's construction); the wheel
// and zoomBy narrow the visible range, reset restores it; a run saved without a timeline
// (imported before schema v8) says to import its traces again.
// Screenshots at 1366×768 and 1920×1080: tests/artifacts/gui/anatomy/ (or
// $MOEWB_SHOTS_DIR); `test_step_anatomy_view screenshots` alone takes them in the
// language MOEWB_LANG chooses.
#include "AnatomyFixture.h"
#include "GuiTestSupport.h"
#include "MainWindow.h"
#include "ProjectBrowser.h"
#include "RunPage.h"
#include "StepAnatomyView.h"
#include "StepTimelineView.h"
#include "demo/DemoProject.h"
#include "plots/PlotView.h"
#include "plotspec/AnatomyPlots.h"
#include "plotspec/Stacking.h"
#include "plotspec/StagePlots.h"
#include "store/ProjectStore.h"

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QWheelEvent>
#include <QScrollArea>
#include <QScrollBar>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>
#include <qcustomplot.h>

#include <map>

using namespace moewb;
using K = gui::ProjectBrowser::ItemKind;

namespace {

const QString kRun = QStringLiteral("anatomy-train");
const QString kOldRun = QStringLiteral("anatomy-before-timelines");

QString shotsDir() {
    QString dir = qEnvironmentVariable("MOEWB_SHOTS_DIR");
    if (dir.isEmpty())
        dir = QStringLiteral(MOEWB_BINARY_DIR "/tests/artifacts/gui/anatomy");
    QDir().mkpath(dir);
    return dir;
}

const store::RankStepAnatomy* rowAt(const store::RunAnatomy& a, qint64 step, int rank) {
    for (const store::RankStepAnatomy& r : a.rows)
        if (r.step == step && r.rank == rank)
            return &r;
    return nullptr;
}

} // namespace

class TestStepAnatomyView : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<gui::MainWindow> m_window;

    gui::RunPage* openRun(const QString& name) {
        if (!m_window->browser()->select(K::Run, name))
            return nullptr;
        gui::RunPage* page = m_window->runPage();
        if (m_window->currentPage() != page)
            return nullptr;
        if (!QTest::qWaitFor([page] { return !page->isLoading(); }, 60000))
            return nullptr;
        QApplication::processEvents();
        return page;
    }

    void screenshot(gui::RunPage* page, QSize size, const QString& name, QWidget* top = nullptr) {
        m_window->resize(size);
        QTest::qWait(200);
        QApplication::processEvents();
        auto* scroll = page->findChild<QScrollArea*>(QStringLiteral("runPageScroll"));
        QVERIFY(scroll);
        // The section's top at the top of the view.
        QWidget* view = top ? top : page->stepAnatomyView();
        scroll->verticalScrollBar()->setValue(view->mapTo(scroll->widget(), QPoint(0, 0)).y() - (top ? 30 : 0));
        QApplication::processEvents();
        const QImage image = m_window->grab().toImage();
        QVERIFY(!image.isNull());
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 3)
            for (int x = 0; x < image.width(); x += 3)
                colours.insert(image.pixel(x, y));
        QVERIFY2(colours.size() > 24, qPrintable(name + QStringLiteral(" looks blank")));
        QVERIFY(image.save(shotsDir() + QLatin1Char('/') + name + QStringLiteral(".png")));
        // Nothing scrolls sideways.
        QVERIFY2(scroll->widget()->width() <= scroll->viewport()->width(),
                 qPrintable(QStringLiteral("%1: content %2 px in a %3 px view")
                                .arg(name)
                                .arg(scroll->widget()->width())
                                .arg(scroll->viewport()->width())));
    }

private slots:
    void initTestCase() {
        QString error = testing::startWithWindow(m_dir, QStringLiteral("test_step_anatomy_view"), {1366, 768}, m_window);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QString path = m_dir.filePath(QStringLiteral("anatomy.moewb"));
        QVERIFY(demo::writeDemoProject(path));
        {
            auto opened = store::ProjectStore::open(path, store::OpenMode::MustExist);
            QVERIFY(opened);
            const auto saved = (*opened)->saveRun(testing::sampleAnatomyRun(kRun));
            QVERIFY2(saved, saved ? "" : qPrintable(saved.error().text()));
            store::RunData old = testing::sampleAnatomyRun(kOldRun);
            old.anatomy.timeline.clear(); // as a run imported before the timelines were kept
            QVERIFY((*opened)->saveRun(old));
        }
        QVERIFY2(m_window->openProject(path, false, &error), qPrintable(error));
    }

    void cleanupTestCase() { testing::closeMainWindow(m_window); }

    void sectionShowsOnlyForARunWithAnatomy() {
        gui::RunPage* page = openRun(QStringLiteral("demo-train-moe-cf1.25"));
        QVERIFY(page);
        QVERIFY(!page->stepAnatomyView()->isVisibleTo(page));
        page = openRun(kRun);
        QVERIFY(page);
        QVERIFY(page->stepAnatomyView()->isVisibleTo(page));
    }

    void chooserStartsAtTheLargestBillAndChangesTheBars() {
        gui::RunPage* page = openRun(kRun);
        QVERIFY(page);
        gui::StepAnatomyView* view = page->stepAnatomyView();
        const store::RunAnatomy stored = m_window->project()->runAnatomy(m_window->project()->run(kRun)->id);
        QCOMPARE(stored.rows.size(), testing::sampleAnatomy().rows.size());
        QCOMPARE(view->stepChooser()->count(), int(testing::kAnatomyLastStep - testing::kAnatomyFirstStep + 1));
        QCOMPARE(view->currentStep(), testing::kAnatomyWorstStep);

        // The bars of the worst step: per rank the stored fields, the straggler marked.
        const auto checkBars = [&](qint64 step) {
            const plots::PlotSpec spec = view->barsPlot()->spec();
            QCOMPARE(spec.id, QStringLiteral("anatomy-step-bars"));
            QCOMPARE(spec.categoryLabels.size(), testing::kAnatomyRanks);
            const int busiest = testing::anatomyBusiestRank(step);
            QCOMPARE(spec.categoryLabels[busiest], QStringLiteral("%1\nbusiest").arg(busiest));
            const QVector<double> bottoms = plots::stackBottoms(spec, 6);
            for (int rank = 0; rank < testing::kAnatomyRanks; ++rank) {
                const store::RankStepAnatomy* r = rowAt(stored, step, rank);
                QVERIFY(r);
                QCOMPARE(spec.series[0].y[rank], r->computeUs);
                QCOMPARE(spec.series[2].y[rank], r->a2aWaitUs);
                QCOMPARE(bottoms[rank] + spec.series[6].y[rank],
                         r->computeUs + r->a2aUs + r->otherCommUs + r->memcpyUs + r->idleUs);
            }
        };
        checkBars(testing::kAnatomyWorstStep);
        const QString summary = view->summaryLabel()->text();
        QVERIFY2(summary.contains(QStringLiteral("Step 6: busiest rank 10 (node 1, local rank 2)")), qPrintable(summary));
        // Bill in step 6 by hand: 17200 − mean busy (16·13000 + 20·120 + 4000) ÷ 16 = 3800 µs.
        QVERIFY2(summary.contains(QStringLiteral("the others wait 3.8 ms")), qPrintable(summary));

        // Hovering a segment names that segment, its rank and its own value (not the stack's top).
        {
            QCustomPlot* plot = view->barsPlot()->customPlot();
            plot->replot();
            QCPAxis* xa = plot->axisRect()->axis(QCPAxis::atBottom);
            QCPAxis* ya = plot->axisRect()->axis(QCPAxis::atLeft);
            const store::RankStepAnatomy* r = rowAt(stored, testing::kAnatomyWorstStep, 3); // one that waits
            const auto at = [&](double y) { return QPoint(int(xa->coordToPixel(3)), int(ya->coordToPixel(y))); };
            const QString compute = view->barsPlot()->hoverTextAt(at(r->computeUs / 2));
            QVERIFY2(compute.startsWith(QStringLiteral("compute")) && compute.contains(QStringLiteral("Rank: 3")),
                     qPrintable(compute));
            const double transfer = r->a2aUs - r->a2aWaitUs;
            const QString wait = view->barsPlot()->hoverTextAt(at(r->computeUs + transfer + r->a2aWaitUs / 2));
            QVERIFY2(wait.startsWith(QStringLiteral("all-to-all waiting")) &&
                         wait.contains(plots::formatValue(r->a2aWaitUs, view->barsPlot()->spec().y)),
                     qPrintable(wait));
        }

        // Step 4: other values, rank 5 the busiest.
        const double before = view->barsPlot()->spec().series[0].y[10];
        QVERIFY(view->chooseStep(4));
        QCOMPARE(view->currentStep(), qint64(4));
        QVERIFY(view->barsPlot()->spec().series[0].y[10] != before);
        checkBars(4);
        QVERIFY2(view->summaryLabel()->text().contains(QStringLiteral("Step 4: busiest rank 5 (node 0, local rank 5)")),
                 qPrintable(view->summaryLabel()->text()));
        QVERIFY(view->chooseStep(testing::kAnatomyWorstStep));

        // The heatmap: ranks × steps of busy ÷ step.
        const plots::PlotSpec heat = view->busyHeatmap()->spec();
        QVERIFY(heat.heatmap);
        QCOMPARE(heat.heatmap->rows, testing::kAnatomyRanks);
        QCOMPARE(heat.heatmap->columns, int(testing::kAnatomyLastStep - testing::kAnatomyFirstStep + 1));
        QCOMPARE(heat.heatmap->values[10 * heat.heatmap->columns + 3], 100.0 * 17200 / 20000);
    }

    void stragglersAndTheBaseline() {
        gui::RunPage* page = openRun(kRun);
        QVERIFY(page);
        gui::StepAnatomyView* view = page->stepAnatomyView();
        // How often each rank was the busiest, counted here from the construction.
        std::map<int, int> count;
        for (qint64 s = testing::kAnatomyFirstStep; s <= testing::kAnatomyLastStep; ++s)
            ++count[testing::anatomyBusiestRank(s)];
        QTableWidget* t = view->stragglerTable();
        QCOMPARE(t->rowCount(), int(count.size()));
        QCOMPARE(t->item(0, 0)->text(), QStringLiteral("10"));
        QCOMPARE(t->item(0, 1)->text(), QStringLiteral("1")); // node
        QCOMPARE(t->item(0, 2)->text(), QStringLiteral("2")); // local rank
        QCOMPARE(t->item(0, 3)->text().toInt(), count[10]);
        QCOMPARE(t->item(1, 0)->text(), QStringLiteral("5"));
        QCOMPARE(t->item(1, 3)->text().toInt(), count[5]);
        QVERIFY(!t->isColumnHidden(1));

        // Two sizes of all-to-all against the demo's stage 1 probe of the same record and cluster.
        QTableWidget* a2a = view->a2aTable();
        QCOMPARE(a2a->rowCount(), 2);
        QCOMPARE(a2a->item(0, 1)->text(), QStringLiteral("1 MiB"));
        QCOMPARE(a2a->item(1, 1)->text(), QStringLiteral("4 MiB"));
        for (int r = 0; r < 2; ++r) {
            QVERIFY2(a2a->item(r, 4)->text().endsWith(QStringLiteral("GB/s")), qPrintable(a2a->item(r, 4)->text()));
            QVERIFY2(a2a->item(r, 5)->text().endsWith(QStringLiteral("%")), qPrintable(a2a->item(r, 5)->text()));
        }
        // 1 MiB in 180 µs: 5.83 GB/s.
        QCOMPARE(a2a->item(0, 3)->text(), QStringLiteral("5.83 GB/s"));
        QVERIFY(view->runLabel()->text().contains(QStringLiteral("per step")));
    }

    void timelineShowsTheStep() {
        gui::RunPage* page = openRun(kRun);
        QVERIFY(page);
        gui::StepAnatomyView* view = page->stepAnatomyView();
        QVERIFY(view->chooseStep(testing::kAnatomyWorstStep));
        gui::StepTimelineView* tl = view->timeline();
        QVERIFY(tl->customPlot()->isVisibleTo(page));
        QCOMPARE(tl->rowCount(), testing::kAnatomyRanks);
        for (int row = 0; row < testing::kAnatomyRanks; ++row)
            QCOMPARE(tl->rankOfRow(row), row);
        QCustomPlot* plot = tl->customPlot();
        plot->replot();
        // The busiest rank's row is marked on the axis.
        auto ticker = plot->yAxis->ticker().dynamicCast<QCPAxisTickerText>();
        QVERIFY(ticker);
        QCOMPARE(ticker->ticks().value(testing::kAnatomyStraggler), QStringLiteral("10 · busiest"));

        // Rank 3 in the worst step: the combine (its second all-to-all) waits for rank 10.
        const qint64 step = testing::kAnatomyWorstStep;
        const store::RankStepTimeline truth = testing::sampleTimeline(step, 3);
        const qint64 arrive = (testing::kTimelineCombineStartUs + testing::anatomyExpertUs(step, 3)) * 1000;
        const qint64 latest = (testing::kTimelineCombineStartUs + testing::anatomyExpertUs(step, testing::kAnatomyStraggler)) * 1000;
        QVERIFY(latest - arrive > 1'000'000);
        const QString waiting = tl->hoverTextAt(tl->pixelAt(3, (arrive + latest) / 2, store::TimelineClass::Waiting));
        QVERIFY2(waiting.startsWith(QStringLiteral("all-to-all waiting for the group's latest rank")), qPrintable(waiting));
        const QString transfer = tl->hoverTextAt(tl->pixelAt(3, latest + 200'000, store::TimelineClass::AllToAll));
        QVERIFY2(transfer.startsWith(QStringLiteral("all-to-all\nKernel: ") + truth.labels[0]), qPrintable(transfer));
        QVERIFY2(transfer.contains(QStringLiteral("Process group: 7 · EXPERT_MODEL_PARALLEL_GROUP")), qPrintable(transfer));
        QVERIFY2(transfer.contains(QStringLiteral("Bytes: 4 MiB")), qPrintable(transfer));
        QVERIFY2(transfer.contains(QStringLiteral("Rank 3 · 400 µs")), qPrintable(transfer));
        // The straggler does not wait there: its lane holds the transfer right at its arrival.
        const QString straggler = tl->hoverTextAt(tl->pixelAt(testing::kAnatomyStraggler, latest + 200'000, store::TimelineClass::AllToAll));
        QVERIFY2(straggler.startsWith(QStringLiteral("all-to-all\n")), qPrintable(straggler));
        const QString compute = tl->hoverTextAt(tl->pixelAt(3, 1'000'000, store::TimelineClass::Compute));
        QVERIFY2(compute.startsWith(QStringLiteral("compute (merged kernels)")), qPrintable(compute));
        const QString deepEp = tl->hoverTextAt(tl->pixelAt(3, latest + 400'000 + 1'000'000 + 150'000, store::TimelineClass::Dispatch));
        QVERIFY2(deepEp.startsWith(QStringLiteral("dispatch\nKernel: void deep_ep::intranode::dispatch")), qPrintable(deepEp));
        QVERIFY(!deepEp.contains(QStringLiteral("Bytes")));

        // Zoom: zoomBy halves the range around its centre; Ctrl+wheel narrows it; reset restores it.
        const double lower = tl->visibleLowerUs(), upper = tl->visibleUpperUs();
        QVERIFY(upper - lower > 20000.0);
        tl->zoomBy(0.5, (lower + upper) / 2);
        QVERIFY(qAbs((tl->visibleUpperUs() - tl->visibleLowerUs()) - (upper - lower) / 2) < 1e-6 * (upper - lower));
        tl->resetView();
        QCOMPARE(tl->visibleLowerUs(), lower);
        const QPoint at = tl->pixelAt(3, 5'000'000, store::TimelineClass::Compute);
        QWheelEvent wheel(at, plot->mapToGlobal(at), QPoint(), QPoint(0, 240), Qt::NoButton, Qt::ControlModifier,
                          Qt::NoScrollPhase, false);
        QApplication::sendEvent(plot, &wheel);
        const double zoomed = tl->visibleUpperUs() - tl->visibleLowerUs();
        QVERIFY2(zoomed < 0.8 * (upper - lower), qPrintable(QString::number(zoomed)));
        QVERIFY(tl->visibleLowerUs() > lower && tl->visibleUpperUs() < upper);
        // After zooming, the same hover still names the same call (pixels recomputed).
        QVERIFY(tl->hoverTextAt(tl->pixelAt(3, 5'000'000, store::TimelineClass::Compute)).startsWith(QStringLiteral("compute")));
        auto* reset = tl->findChild<QPushButton*>(QStringLiteral("timelineResetZoom"));
        QVERIFY(reset);
        reset->click();
        QCOMPARE(tl->visibleLowerUs(), lower);
        QCOMPARE(tl->visibleUpperUs(), upper);

        // Another step draws its own rows: rank 5 is the busiest in step 4.
        QVERIFY(view->chooseStep(4));
        QCOMPARE(tl->customPlot()->yAxis->ticker().dynamicCast<QCPAxisTickerText>()->ticks().value(5),
                 QStringLiteral("5 · busiest"));
    }

    void runWithoutTimelineSaysToReimport() {
        gui::RunPage* page = openRun(kOldRun);
        QVERIFY(page);
        gui::StepTimelineView* tl = page->stepAnatomyView()->timeline();
        QVERIFY(!tl->customPlot()->isVisibleTo(page));
        QCOMPARE(tl->rowCount(), 0);
        QVERIFY2(tl->messageLabel()->text().contains(QStringLiteral("import the traces again")),
                 qPrintable(tl->messageLabel()->text()));
        QVERIFY(tl->messageLabel()->isVisibleTo(page));
    }

    void screenshots() {
        gui::RunPage* page = openRun(kRun);
        QVERIFY(page);
        const QString lang = qEnvironmentVariable("MOEWB_LANG", QStringLiteral("en"));
        screenshot(page, {1366, 768}, QStringLiteral("anatomy-%1-1366x768").arg(lang));
        screenshot(page, {1920, 1080}, QStringLiteral("anatomy-%1-1920x1080").arg(lang));
        QVERIFY(page->stepAnatomyView()->chooseStep(testing::kAnatomyWorstStep));
        gui::StepTimelineView* tl = page->stepAnatomyView()->timeline();
        screenshot(page, {1366, 768}, QStringLiteral("anatomy-timeline-%1-1366x768").arg(lang), tl);
        screenshot(page, {1920, 1080}, QStringLiteral("anatomy-timeline-%1-1920x1080").arg(lang), tl);
        // Zoomed into the combine of the worst step.
        tl->zoomBy(0.15, double(testing::kTimelineCombineStartUs + testing::kTimelineExpertUs + 800));
        screenshot(page, {1366, 768}, QStringLiteral("anatomy-timeline-zoomed-%1-1366x768").arg(lang), tl);
        tl->resetView();
        m_window->resize(1366, 768);
    }
};

QTEST_MAIN(TestStepAnatomyView)
#include "test_step_anatomy_view.moc"
