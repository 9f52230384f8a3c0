// Runs are first-class in the window (docs/gui.md, "Runs"): the real window, offscreen,
// on a fresh demo project. A run's page shows its header, its metrics, the worst-layer
// load ratio per step (checked against max/mean computed here from the raw expert-load
// blocks), the last step's layer × expert heatmap, a probe run's bandwidth per size
// (checked against bytes·(n−1)/n ÷ median computed here from the raw samples) and
// which stage verdicts used it. Through the real context menus and dialogs: compare two
// runs (two series, distinct colours), tag, move to another record, rename (the stage
// 1 verdict keeps the run: still current) and delete (Cancel leaves it; confirmed, the
// run and its measurements are gone), each read back by a second connection. A run whose
// stored load summary was altered says what cannot be read instead of drawing it.
// Screenshots at 1366×720 and 1920×1080: tests/artifacts/gui/runs/.
#include "CompareRunsView.h"
#include "GuiTestSupport.h"
#include "MainWindow.h"
#include "ProjectBrowser.h"
#include "RunActions.h"
#include "RunPage.h"
#include "RunsView.h"
#include "plots/PlotView.h"
#include "plotspec/StagePlots.h"
#include "stages/StageEvaluation.h"
#include "store/ProjectStore.h"

#include <QAbstractButton>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include <algorithm>
#include <functional>
#include <map>
#include <optional>

using namespace moewb;
using K = gui::ProjectBrowser::ItemKind;

namespace {

const QString kTrain = QStringLiteral("demo-train-moe-cf1.25");
const QString kOtherTrain = QStringLiteral("demo-train-moe-cf1.0");
const QString kProbe = QStringLiteral("demo-probe-a100-ib-2n");

QString artifacts() {
    const QString dir = QStringLiteral(MOEWB_BINARY_DIR "/tests/artifacts/gui/runs");
    QDir().mkpath(dir);
    return dir;
}

// Runs `act` on the first modal dialog (or popup menu) of type T that shows up, from
// the event loop, so that code which calls exec() can be driven.
template <typename T>
void whenShown(std::function<void(T*)> act, bool popup = false) {
    auto* timer = new QTimer;
    timer->setInterval(20);
    QObject::connect(timer, &QTimer::timeout, [timer, act, popup] {
        QWidget* w = popup ? QApplication::activePopupWidget() : QApplication::activeModalWidget();
        if (T* t = qobject_cast<T*>(w); t && t->isVisible()) {
            timer->stop();
            timer->deleteLater();
            act(t);
        }
    });
    timer->start();
}

// Opens the runs list's context menu on `runs` (selected) and picks the action named `action`.
void pickFromRunsMenu(gui::RunsView* view, const QStringList& runs, const QString& action) {
    view->selectRuns(runs);
    QTableWidget* table = view->table();
    int row = -1;
    for (int r = 0; r < table->rowCount(); ++r)
        if (table->item(r, 0)->text() == runs.first())
            row = r;
    QVERIFY(row >= 0);
    const QPoint at = table->visualItemRect(table->item(row, 0)).center();
    whenShown<QMenu>(
        [action](QMenu* menu) {
            QAction* a = menu->findChild<QAction*>(action);
            QVERIFY2(a && a->isEnabled(), qPrintable(action));
            menu->setActiveAction(a);
            QTest::keyClick(menu, Qt::Key_Return);
        },
        true);
    emit table->customContextMenuRequested(at);
}

double median(QVector<double> v) {
    std::sort(v.begin(), v.end());
    const qsizetype n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

} // namespace

class TestRunPages : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<gui::MainWindow> m_window;

    store::ProjectStore* project() const { return m_window->project(); }
    // A second connection to the same file: what another program would read.
    std::unique_ptr<store::ProjectStore> reader() const {
        auto s = store::ProjectStore::open(project()->path(), store::OpenMode::MustExist);
        return s ? std::move(*s) : nullptr;
    }
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
    void screenshot(const QString& name) {
        QApplication::processEvents();
        const QImage image = m_window->grab().toImage();
        QVERIFY(!image.isNull());
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 3)
            for (int x = 0; x < image.width(); x += 3)
                colours.insert(image.pixel(x, y));
        QVERIFY2(colours.size() > 24, qPrintable(name + QStringLiteral(" looks blank")));
        QVERIFY(image.save(artifacts() + QLatin1Char('/') + name + QStringLiteral(".png")));
    }
    // Nothing scrolls sideways: the page's content fits its scroll area, tables their view.
    void fitsWidth(QWidget* page, const QString& scrollName) {
        QApplication::processEvents();
        auto* scroll = page->findChild<QScrollArea*>(scrollName);
        QVERIFY(scroll);
        QVERIFY2(scroll->widget()->width() <= scroll->viewport()->width(),
                 qPrintable(QStringLiteral("%1: content %2 px in a %3 px view")
                                .arg(scrollName)
                                .arg(scroll->widget()->width())
                                .arg(scroll->viewport()->width())));
        for (QTableWidget* t : page->findChildren<QTableWidget*>()) {
            if (!t->isVisible())
                continue;
            int sum = 0;
            for (int c = 0; c < t->columnCount(); ++c)
                sum += t->horizontalHeader()->sectionSize(c);
            QVERIFY2(sum <= t->viewport()->width() + 1,
                     qPrintable(QStringLiteral("%1: columns %2 px in %3 px").arg(t->objectName()).arg(sum).arg(t->viewport()->width())));
        }
    }

private slots:
    void initTestCase() {
        const QString error = testing::startWithDemo(m_dir, QStringLiteral("test_run_pages"), {1366, 720}, m_window);
        QVERIFY2(error.isEmpty(), qPrintable(error));
    }

    void cleanupTestCase() { testing::closeMainWindow(m_window); }

    void trainingRunPage() {
        gui::RunPage* page = openRun(kTrain);
        QVERIFY(page);
        const auto row = project()->run(kTrain);
        QVERIFY(row);
        const QString header = page->headerLabel()->text();
        QVERIFY2(header.contains(row->recordName), qPrintable(header));
        QVERIFY(header.contains(QStringLiteral("expert-load block")));
        // Stage 3 takes it and has no verdict yet.
        QVERIFY2(page->usedByLabel()->text().contains(QStringLiteral("not evaluated yet")),
                 qPrintable(page->usedByLabel()->text()));

        // Metrics: the loss first; the plot holds lm_loss at every step the store has.
        QCOMPARE(page->metricChooser()->currentIndex(), 0);
        QVERIFY(page->metricChooser()->count() >= 3); // loss, then each metric by name
        const plots::PlotSpec loss = page->metricsPlot()->spec();
        const auto lm = project()->stepMetrics(row->id, QStringLiteral("lm_loss"));
        QVERIFY(!lm.isEmpty());
        bool found = false;
        for (const plots::Series& s : loss.series)
            if (s.name.contains(QStringLiteral("lm_loss")) && s.style == plots::SeriesStyle::Line) {
                QCOMPARE(s.x.size(), lm.size());
                QCOMPARE(s.y.last(), lm.last().value);
                found = true;
            }
        QVERIFY(found);
        // Another metric from the chooser.
        const int drop = page->metricChooser()->findData(QStringLiteral("drop_rate"));
        QVERIFY(drop > 0);
        page->metricChooser()->setCurrentIndex(drop);
        QCOMPARE(page->metricsPlot()->spec().series.size(), 1);
        QCOMPARE(page->metricsPlot()->spec().series.first().x.size(),
                 project()->stepMetrics(row->id, QStringLiteral("drop_rate")).size());
        page->metricChooser()->setCurrentIndex(0);

        // Load ratio per step = max over layers of (max ÷ mean) of the raw counts.
        std::map<qint64, double> worst;
        std::map<qint64, int> layersAt;
        for (const store::ExpertLoadBlock& b : project()->expertLoad(row->id)) {
            double sum = 0, max = 0;
            for (quint32 t : b.tokensPerExpert) {
                sum += t;
                max = std::max(max, double(t));
            }
            const double ratio = max / (sum / b.tokensPerExpert.size());
            worst[b.step] = std::max(worst[b.step], ratio);
            ++layersAt[b.step];
        }
        QVERIFY(worst.size() > 100);
        const plots::PlotSpec ratio = page->loadRatioPlot()->spec();
        const auto series = std::find_if(ratio.series.cbegin(), ratio.series.cend(),
                                         [](const plots::Series& s) { return s.run == kTrain; });
        QVERIFY(series != ratio.series.cend());
        QCOMPARE(series->x.size(), qsizetype(worst.size()));
        int i = 0;
        for (const auto& [step, value] : worst) {
            QCOMPARE(qint64(series->x[i]), step);
            QVERIFY2(std::abs(series->y[i] - value) <= 1e-9 * value,
                     qPrintable(QStringLiteral("step %1: %2 vs %3").arg(step).arg(series->y[i]).arg(value)));
            ++i;
        }
        // The heatmap: the last step's layers × 16 experts.
        const plots::PlotSpec heat = page->heatmapPlot()->spec();
        QVERIFY(heat.heatmap);
        QCOMPARE(heat.heatmap->columns, 16);
        QCOMPARE(heat.heatmap->rows, layersAt.rbegin()->second);
        QVERIFY(heat.title.contains(QString::number(worst.rbegin()->first)));
        // No communication section for a training run.
        QVERIFY(!page->bandwidthPlot()->isVisibleTo(page));
        fitsWidth(page, QStringLiteral("runPageScroll"));
        screenshot(QStringLiteral("run-page-training-1366"));
    }

    void probeRunPage() {
        gui::RunPage* page = openRun(kProbe);
        QVERIFY(page);
        const auto row = project()->run(kProbe);
        QVERIFY(row);
        QMap<quint64, QVector<double>> bySize;
        for (const store::CommSample& s : project()->commSamples(row->id))
            bySize[s.bytesPerRank] << s.timeUs;
        const int world = row->environment.value(QStringLiteral("world")).toInt();
        QCOMPARE(world, 16);
        QCOMPARE(page->commTable()->rowCount(), int(bySize.size()));
        const plots::PlotSpec bw = page->bandwidthPlot()->spec();
        QCOMPARE(bw.series.size(), 1);
        QCOMPARE(bw.series.first().x.size(), qsizetype(bySize.size()));
        const quint64 largest = bySize.lastKey();
        const double expected = double(largest) * (world - 1) / world / (median(bySize.last()) * 1e-6);
        QVERIFY2(std::abs(bw.series.first().y.last() - expected) <= 1e-9 * expected,
                 qPrintable(QStringLiteral("%1 vs %2").arg(bw.series.first().y.last()).arg(expected)));
        QCOMPARE(page->commTable()->item(page->commTable()->rowCount() - 1, 5)->text(),
                 QLocale().toString(expected / 1e9, 'f', 2));
        QVERIFY(page->bandwidthPlot()->offersLogY());

        // Stage 1 evaluated and saved: the page says its verdict used the run and is current.
        auto e = stages::evaluateStage(*project(), 1);
        QVERIFY(e);
        QVERIFY(stages::saveStageVerdict(*project(), *e));
        page = openRun(kProbe);
        QVERIFY(page);
        const QString used = page->usedByLabel()->text();
        QVERIFY2(used.contains(QStringLiteral("Stage 1")) && used.contains(QStringLiteral("the verdict is current")),
                 qPrintable(used));
        fitsWidth(page, QStringLiteral("runPageScroll"));
        screenshot(QStringLiteral("run-page-probe-1366"));
    }

    void runsListFits() {
        QVERIFY(m_window->browser()->select(K::RunsSection));
        gui::RunsView* view = m_window->runsView();
        QCOMPARE(m_window->currentPage(), static_cast<QWidget*>(view));
        QCOMPARE(view->table()->rowCount(), int(project()->runs().size()));
        QApplication::processEvents();
        int sum = 0;
        for (int c = 0; c < view->table()->columnCount(); ++c)
            sum += view->table()->horizontalHeader()->sectionSize(c);
        QVERIFY2(sum <= view->table()->viewport()->width() + 1,
                 qPrintable(QStringLiteral("columns %1 px in %2 px").arg(sum).arg(view->table()->viewport()->width())));
        QVERIFY(!view->compareButton()->isEnabled());
        screenshot(QStringLiteral("runs-list-1366"));
    }

    // The summary columns W&B users expect, sortable: a header click sorts the validation
    // loss as numbers, up and down, the runs without one last either way (shown as "—",
    // not 0); each value is the run's val_loss at its last logged step, read here from
    // the store. Tokens/s/GPU sorts as numbers too (not as text).
    void runsListSummaryColumnsSort() {
        QVERIFY(m_window->browser()->select(K::RunsSection));
        QTableWidget* t = m_window->runsView()->table();
        QHeaderView* header = t->horizontalHeader();
        auto column = [t](const QString& title) {
            for (int c = 0; c < t->columnCount(); ++c)
                if (t->horizontalHeaderItem(c)->text() == title)
                    return c;
            return -1;
        };
        for (const QString& title : {QStringLiteral("Final loss"), QStringLiteral("Val loss"), QStringLiteral("Tokens/s/GPU"),
                                     QStringLiteral("Drop rate"), QStringLiteral("Config record"), QStringLiteral("Cluster")})
            QVERIFY2(column(title) >= 0, qPrintable(title));
        const int valCol = column(QStringLiteral("Val loss"));
        const int tpsCol = column(QStringLiteral("Tokens/s/GPU"));
        auto db = reader();
        QVERIFY(db);
        std::map<QString, std::optional<double>> expected;
        int with = 0;
        for (const store::RunRow& r : db->runs()) {
            std::optional<double> last;
            qint64 lastStep = -1;
            for (const store::StepMetric& m : db->stepMetrics(r.id, QStringLiteral("val_loss")))
                if (m.step > lastStep) {
                    lastStep = m.step;
                    last = m.value;
                }
            expected[r.name] = last;
            with += last ? 1 : 0;
        }
        QVERIFY2(with >= 2 && with < int(expected.size()), "the demo has runs with and without a validation loss");
        auto click = [header](int c) {
            QTest::mouseClick(header->viewport(), Qt::LeftButton, {},
                              QPoint(header->sectionViewportPosition(c) + header->sectionSize(c) / 2, header->height() / 2));
            QApplication::processEvents();
        };
        for (int round = 0; round < 2; ++round) {
            click(valCol);
            QCOMPARE(header->sortIndicatorSection(), valCol);
            const bool up = header->sortIndicatorOrder() == Qt::AscendingOrder;
            QCOMPARE(up, round == 0);
            QStringList order;
            bool missingSeen = false;
            std::optional<double> previous;
            for (int r = 0; r < t->rowCount(); ++r) {
                const QString name = t->item(r, 0)->text();
                order << QStringLiteral("%1=%2").arg(name, t->item(r, valCol)->text());
                QVERIFY2(expected.count(name), qPrintable(name));
                const std::optional<double> v = expected[name];
                if (!v) {
                    QCOMPARE(t->item(r, valCol)->text(), QStringLiteral("–")); // every table's "no value"
                    missingSeen = true;
                    continue;
                }
                QCOMPARE(t->item(r, valCol)->text(), QString::number(*v, 'f', 3));
                QVERIFY2(!missingSeen, qPrintable(QStringLiteral("a run without val loss before one with: ") + order.join(QLatin1Char(' '))));
                if (previous)
                    QVERIFY2(up ? *previous <= *v : *previous >= *v, qPrintable(order.join(QLatin1Char(' '))));
                previous = v;
            }
        }
        for (int round = 0; round < 2; ++round) {
            click(tpsCol);
            const bool up = header->sortIndicatorOrder() == Qt::AscendingOrder;
            std::optional<double> previous;
            QStringList texts;
            for (int r = 0; r < t->rowCount(); ++r) {
                const QString text = t->item(r, tpsCol)->text();
                texts << text;
                bool ok = false;
                // Tokens/s are written grouped ("19,292", common/Units.h).
                const double v = QString(text).remove(QLatin1Char(',')).toDouble(&ok);
                if (!ok)
                    continue;
                if (previous)
                    QVERIFY2(up ? *previous <= v : *previous >= v, qPrintable(texts.join(QLatin1Char(' '))));
                previous = v;
            }
            QVERIFY(previous.has_value());
        }
        click(0); // back to the names
        // With the summary columns the names still read whole at 1366 px: the counts of
        // samples and load blocks wait behind the header's menu.
        const int samples = column(QStringLiteral("Comm. samples"));
        QVERIFY(samples >= 0 && t->isColumnHidden(samples));
        int widest = 0;
        for (const auto& [name, value] : expected)
            widest = std::max(widest, t->fontMetrics().horizontalAdvance(name));
        QVERIFY2(header->sectionSize(0) >= widest,
                 qPrintable(QStringLiteral("the name column is %1 px, the longest name %2 px").arg(header->sectionSize(0)).arg(widest)));
        m_window->runsView()->setColumnShown(samples, true);
        QVERIFY(!t->isColumnHidden(samples) && header->sectionSize(samples) > 0);
        m_window->runsView()->setColumnShown(samples, false);
        QVERIFY(t->isColumnHidden(samples));
        screenshot(QStringLiteral("runs-list-sorted-1366"));
    }

    void compareTwoRunsFromTheList() {
        gui::RunsView* view = m_window->runsView();
        view->selectRuns({kTrain, kOtherTrain});
        QCOMPARE(view->selectedRuns().size(), 2);
        QVERIFY(view->compareButton()->isEnabled());
        QTest::mouseClick(view->compareButton(), Qt::LeftButton);
        gui::CompareRunsView* compare = m_window->compareView();
        QCOMPARE(m_window->currentPage(), static_cast<QWidget*>(compare));
        QTRY_VERIFY_WITH_TIMEOUT(!compare->isLoading(), 60000);
        QCOMPARE(compare->table()->rowCount(), 2);
        // The title counts them with the English plural form the window installs (not "run(s)").
        auto* title = compare->findChild<QLabel*>(QStringLiteral("compareRunsTitle"));
        QVERIFY(title);
        QVERIFY2(title->text() == QStringLiteral("Comparing 2 runs: %1, %2").arg(kTrain, kOtherTrain) ||
                     title->text() == QStringLiteral("Comparing 2 runs: %1, %2").arg(kOtherTrain, kTrain),
                 qPrintable(title->text()));
        // Loss: one solid lm_loss curve per run, in two colours.
        QSet<QString> runs;
        QSet<int> colours;
        for (const plots::Series& s : compare->lossPlot()->spec().series)
            if (s.style == plots::SeriesStyle::Line) {
                runs.insert(s.run);
                colours.insert(s.colour);
            }
        QCOMPARE(runs, (QSet<QString>{kTrain, kOtherTrain}));
        QCOMPARE(colours.size(), 2);
        // Load ratio: the two runs (and the limit), each in its run's colour.
        QStringList loadRuns;
        for (const plots::Series& s : compare->loadRatioPlot()->spec().series)
            if (!s.run.isEmpty()) {
                loadRuns << s.run;
                QCOMPARE(s.colour, int(compare->runs().indexOf(s.run)));
            }
        QCOMPARE(loadRuns.size(), 2);
        QVERIFY(compare->lossPlot()->isVisibleTo(compare));
        // No probe run chosen: no bandwidth plot.
        QVERIFY(!compare->bandwidthPlot()->isVisibleTo(compare));
        fitsWidth(compare, QStringLiteral("compareRunsScroll"));
        screenshot(QStringLiteral("compare-1366"));
        m_window->resize(1920, 1080);
        QApplication::processEvents();
        fitsWidth(compare, QStringLiteral("compareRunsScroll"));
        screenshot(QStringLiteral("compare-1920"));
        QVERIFY(openRun(kTrain));
        screenshot(QStringLiteral("run-page-training-1920"));
        m_window->resize(1366, 720);
        QApplication::processEvents();

        // A probe and a training run through the run page's Compare with… dialog.
        whenShown<QDialog>([](QDialog* d) {
            auto* list = d->findChild<QListWidget*>(QStringLiteral("compareRunsList"));
            QVERIFY(list);
            for (int i = 0; i < list->count(); ++i)
                if (list->item(i)->data(Qt::UserRole).toString() == kProbe)
                    list->item(i)->setCheckState(Qt::Checked);
            d->accept();
        });
        QTest::mouseClick(m_window->runPage()->findChild<QPushButton*>(QStringLiteral("runPageCompare")), Qt::LeftButton);
        QCOMPARE(compare->runs(), (QStringList{kProbe, kTrain}));
        QCOMPARE(m_window->currentPage(), static_cast<QWidget*>(compare));
        QTRY_VERIFY_WITH_TIMEOUT(!compare->isLoading(), 60000);
        QVERIFY(compare->bandwidthPlot()->isVisibleTo(compare));
        QVERIFY(compare->loadRatioPlot()->isVisibleTo(compare));
        QVERIFY(compare->findChild<QLabel*>(QStringLiteral("compareRunsStatus"))->text().contains(kProbe));
    }

    // Five runs compared at 1366 px: the title names them all, wrapped onto more lines
    // rather than cut at the page's edge.
    void compareTitleOfFiveRunsReadsWhole() {
        m_window->resize(1366, 768);
        QApplication::processEvents();
        const QStringList five{kTrain, kOtherTrain, QStringLiteral("demo-train-moe-cf1.5"),
                               QStringLiteral("demo-train-moe-dropless"), QStringLiteral("demo-train-dense-1.2b")};
        m_window->runsView()->selectRuns(five);
        QCOMPARE(m_window->runsView()->selectedRuns().size(), 5);
        QTest::mouseClick(m_window->runsView()->compareButton(), Qt::LeftButton);
        gui::CompareRunsView* compare = m_window->compareView();
        QTRY_VERIFY_WITH_TIMEOUT(!compare->isLoading(), 60000);
        auto* title = compare->findChild<QLabel*>(QStringLiteral("compareRunsTitle"));
        QVERIFY(title);
        QApplication::processEvents();
        for (const QString& run : five)
            QVERIFY2(title->text().contains(run), qPrintable(title->text()));
        // The text, wrapped at the label's width, fits the label's height; one line would not.
        const QFontMetrics fm(title->font());
        const QRect inside = title->contentsRect();
        QVERIFY2(fm.horizontalAdvance(title->text()) > inside.width(), "five names fit one line: no wrap tested");
        const QRect needed = fm.boundingRect(QRect(0, 0, inside.width(), 100000), Qt::TextWordWrap, title->text());
        QVERIFY2(needed.height() <= inside.height() && needed.height() >= 2 * fm.height(),
                 qPrintable(QStringLiteral("needs %1 px, has %2 px").arg(needed.height()).arg(inside.height())));
        fitsWidth(compare, QStringLiteral("compareRunsScroll"));
        screenshot(QStringLiteral("compare-five-1366"));
    }

    void tagThroughTheMenu() {
        QVERIFY(m_window->browser()->select(K::RunsSection));
        whenShown<QInputDialog>([](QInputDialog* d) {
            d->setTextValue(QStringLiteral("baseline,  keep , baseline"));
            d->accept();
        });
        pickFromRunsMenu(m_window->runsView(), {kTrain}, QStringLiteral("runTagAction"));
        QTRY_COMPARE(store::ProjectStore::runTags(*reader()->run(kTrain)), (QStringList{QStringLiteral("baseline"), QStringLiteral("keep")}));
        // The list shows them.
        gui::RunsView* view = m_window->runsView();
        bool shown = false;
        for (int r = 0; r < view->table()->rowCount(); ++r)
            shown = shown || (view->table()->item(r, 0)->text() == kTrain &&
                              view->table()->item(r, view->table()->columnCount() - 1)->text() == QStringLiteral("baseline, keep"));
        QVERIFY(shown);
    }

    void moveToAnotherRecord() {
        const auto before = reader()->run(kOtherTrain);
        QVERIFY(before);
        const QString target = QStringLiteral("demo-moe-16e-top2-dropless");
        QVERIFY(before->recordName != target);
        whenShown<QInputDialog>([target](QInputDialog* d) {
            QVERIFY(d->comboBoxItems().contains(target));
            d->setTextValue(target);
            d->accept();
        });
        pickFromRunsMenu(m_window->runsView(), {kOtherTrain}, QStringLiteral("runMoveAction"));
        const auto after = reader()->run(kOtherTrain);
        QVERIFY(after);
        QCOMPARE(after->recordName, target);
        QCOMPARE(after->id, before->id);
        QCOMPARE(after->stepCount, before->stepCount);
    }

    void renameKeepsTheVerdictsLink() {
        const QString renamed = QStringLiteral("baseline-2n-renamed");
        const qint64 id = reader()->run(kProbe)->id;
        // A name that is taken is refused and changes nothing.
        whenShown<QInputDialog>([](QInputDialog* d) {
            d->setTextValue(kTrain);
            d->accept();
        });
        whenShown<QMessageBox>([](QMessageBox* box) { box->accept(); });
        pickFromRunsMenu(m_window->runsView(), {kProbe}, QStringLiteral("runRenameAction"));
        QVERIFY(reader()->run(kProbe));

        // From the browser's context menu.
        whenShown<QInputDialog>([renamed](QInputDialog* d) {
            QCOMPARE(d->textValue(), kProbe);
            d->setTextValue(renamed);
            d->accept();
        });
        QVERIFY(m_window->browser()->select(K::Run, kProbe));
        whenShown<QMenu>(
            [](QMenu* menu) {
                QAction* a = menu->findChild<QAction*>(QStringLiteral("runRenameAction"));
                QVERIFY(a);
                menu->setActiveAction(a);
                QTest::keyClick(menu, Qt::Key_Return);
            },
            true);
        QContextMenuEvent event(QContextMenuEvent::Keyboard, QPoint(), QCursor::pos());
        QApplication::sendEvent(m_window->browser(), &event);

        const auto r = reader();
        QVERIFY(!r->run(kProbe));
        QVERIFY(r->run(renamed));
        QCOMPARE(r->run(renamed)->id, id);
        // The stage 1 verdict names it anew and is still current.
        const auto verdict = r->verdict(1);
        QVERIFY(verdict);
        QStringList names;
        for (const QJsonValue& v : verdict->basis.value(QStringLiteral("runs")).toArray())
            names << v.toObject().value(QStringLiteral("name")).toString();
        QVERIFY(names.contains(renamed));
        QVERIFY(!names.contains(kProbe));
        QVERIFY(!stages::verdictFreshness(*r, *verdict).newData());
        // The window shows the renamed run's page.
        QCOMPARE(m_window->currentPage(), static_cast<QWidget*>(m_window->runPage()));
        QCOMPARE(m_window->runPage()->runName(), renamed);
        QTRY_VERIFY_WITH_TIMEOUT(!m_window->runPage()->isLoading(), 60000);
        QVERIFY(m_window->runPage()->usedByLabel()->text().contains(QStringLiteral("the verdict is current")));
    }

    void deleteAsksFirst() {
        const QString name = QStringLiteral("baseline-2n-renamed");
        const auto before = reader()->run(name);
        QVERIFY(before);
        QVERIFY(!reader()->commSamples(before->id).isEmpty());
        QVERIFY(openRun(name));
        auto* button = m_window->runPage()->findChild<QPushButton*>(QStringLiteral("runPageDelete"));
        QVERIFY(button);
        // Cancel leaves everything.
        QString text;
        whenShown<QMessageBox>([&text](QMessageBox* box) {
            text = box->text();
            box->button(QMessageBox::Cancel)->click();
        });
        QTest::mouseClick(button, Qt::LeftButton);
        QVERIFY2(text.contains(name) && text.contains(QStringLiteral("communication sample")) &&
                     text.contains(QStringLiteral("stage 1")),
                 qPrintable(text));
        QVERIFY(reader()->run(name));
        QCOMPARE(reader()->commSamples(before->id).size(), before->commSampleCount);
        // Confirmed: the run and its measurements are gone; the verdict says so.
        whenShown<QMessageBox>([](QMessageBox* box) {
            box->findChild<QPushButton*>(QStringLiteral("confirmDeleteButton"))->click();
        });
        QTest::mouseClick(button, Qt::LeftButton);
        const auto r = reader();
        QVERIFY(!r->run(name));
        QVERIFY(r->commSamples(before->id).isEmpty());
        QVERIFY(stages::verdictFreshness(*r, *r->verdict(1)).removed.contains(name));
        QCOMPARE(m_window->currentPage(), static_cast<QWidget*>(m_window->runsView()));
    }

    void damagedRunSaysWhatItCannotRead() {
        // A project from someone else whose run holds a summary that claims 2^31 - 1
        // steps (docs/store.md, "Reading a project from someone else"): the run's page
        // says which part cannot be read and draws nothing from the rest; the window
        // stays, and another run's page is whole.
        const QString damaged = QStringLiteral("demo-train-moe-cf1.5");
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("attacker"));
            db.setDatabaseName(project()->path());
            QVERIFY(db.open());
            QSqlQuery q(db);
            QVERIFY(q.prepare(QStringLiteral("UPDATE expert_load_summary SET steps = 2147483647 WHERE layer = 0 AND "
                                             "first_step = (SELECT min(first_step) FROM expert_load_summary) AND run_id "
                                             "= (SELECT id FROM run WHERE name = ?)")));
            q.bindValue(0, damaged);
            QVERIFY(q.exec());
            QCOMPARE(q.numRowsAffected(), 1);
            q.finish();
            db.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("attacker"));
        gui::RunPage* page = openRun(damaged);
        QVERIFY(page);
        const auto* status = page->findChild<QLabel*>(QStringLiteral("runPageStatus"));
        QVERIFY(status);
        QVERIFY2(status->isVisibleTo(page), qPrintable(status->text()));
        QVERIFY2(status->text().startsWith(QStringLiteral("Not everything could be shown: the load summary of layer 0, "
                                                          "steps ")) &&
                     status->text().contains(QStringLiteral("cannot be read: it claims 2147483647 steps (1 to 256)")),
                 qPrintable(status->text()));
        QVERIFY(!page->loadRatioPlot()->isVisibleTo(page));
        gui::RunPage* other = openRun(kOtherTrain);
        QVERIFY(other);
        QVERIFY(!other->findChild<QLabel*>(QStringLiteral("runPageStatus"))->isVisibleTo(other));
        QVERIFY(other->loadRatioPlot()->isVisibleTo(other));
    }

    void deleteSeveralInOneGo() {
        const QStringList names{kTrain, kOtherTrain};
        const int before = int(reader()->runs().size());
        whenShown<QMessageBox>([](QMessageBox* box) {
            box->findChild<QPushButton*>(QStringLiteral("confirmDeleteButton"))->click();
        });
        pickFromRunsMenu(m_window->runsView(), names, QStringLiteral("runDeleteAction"));
        const auto r = reader();
        QCOMPARE(int(r->runs().size()), before - 2);
        QVERIFY(!r->run(kTrain) && !r->run(kOtherTrain));
        QCOMPARE(m_window->runsView()->table()->rowCount(), before - 2);
    }
};

QTEST_MAIN(TestRunPages)
#include "test_run_pages.moc"
