// The whole wizard through the real window, offscreen, on the demo project: the
// start screen opens the demo (written off the GUI thread into a temp data dir);
// stages 2–4 are locked at first with their reason; stage 1 passes and stage 2
// unlocks; stage 2 passes; stage 3 stops and stage 4 is locked; an override with a
// written justification unlocks stage 4; stage 4 is evaluated. One plot is exported
// as PNG and PDF; the warnings bar shows the demo's warning; every page is saved as
// a screenshot under the build dir's tests/artifacts/gui/ and checked not blank.
#include "GuiTestSupport.h"
#include "MainWindow.h"
#include "ProjectBrowser.h"
#include "RecordEditor.h"
#include "RunsView.h"
#include "StageFrame.h"
#include "StartScreen.h"
#include "WarningsBar.h"
#include "demo/DemoProject.h"
#include "plots/PlotView.h"
#include "store/ProjectStore.h"

#include <QApplication>
#include <QDialog>
#include <QDir>
#include <QFile>
#include <QHash>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

using namespace moewb;
using Kind = gui::StageState::Kind;

class TestWizard : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<gui::MainWindow> m_window;

    static QString artifacts() {
        const QString dir = QStringLiteral(MOEWB_BINARY_DIR "/tests/artifacts/gui");
        QDir().mkpath(dir);
        return dir;
    }

    // Saves the widget as NAME.png and checks it is not blank: many colours, and no
    // single colour covering (nearly) everything.
    void screenshot(QWidget* w, const QString& name) {
        QApplication::processEvents();
        const QImage image = w->grab().toImage();
        QVERIFY(!image.isNull());
        QHash<QRgb, int> counts;
        int samples = 0;
        for (int y = 0; y < image.height(); y += 2)
            for (int x = 0; x < image.width(); x += 2, ++samples)
                ++counts[image.pixel(x, y)];
        int most = 0;
        for (int c : counts)
            most = std::max(most, c);
        QVERIFY2(counts.size() > 24, qPrintable(name + QStringLiteral(": only %1 colours").arg(counts.size())));
        QVERIFY2(most < samples * 0.97, qPrintable(name + QStringLiteral(" is one colour")));
        QVERIFY(image.save(artifacts() + QLatin1Char('/') + name + QStringLiteral(".png")));
    }

    gui::StageState state(int stage) const { return m_window->browser()->stageStateOf(stage); }

    QPushButton* pageButton(int stage, const char* name) const {
        QWidget* page = m_window->stageFrame(stage)->page();
        return page ? page->findChild<QPushButton*>(QLatin1String(name)) : nullptr;
    }

    // Shows the stage with its shortcut and presses Evaluate; waits for the verdict.
    void evaluate(int stage, Kind expected) {
        QTest::keyClick(m_window.get(), Qt::Key(Qt::Key_0 + stage), Qt::ControlModifier);
        QCOMPARE(m_window->currentPage(), static_cast<QWidget*>(m_window->stageFrame(stage)));
        QPushButton* button = pageButton(stage, "evaluateButton");
        QVERIFY(button);
        QTRY_VERIFY(button->isVisible() && button->isEnabled());
        QTest::mouseClick(button, Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(state(stage).kind != Kind::NotStarted && state(stage).kind != Kind::Running, 60000);
        QCOMPARE(state(stage).kind, expected);
        // The stored verdict says the same.
        QVERIFY(m_window->project()->verdict(stage));
    }

private slots:
    void initTestCase() {
        const QString error =
            testing::startWithWindow(m_dir, QStringLiteral("test_wizard"), {1500, 940}, m_window, /*activate=*/true);
        QVERIFY2(error.isEmpty(), qPrintable(error));
    }

    void cleanupTestCase() { testing::closeMainWindow(m_window); }

    void startScreenOpensTheDemo() {
        QCOMPARE(m_window->currentPage(), static_cast<QWidget*>(m_window->startScreen()));
        QVERIFY(m_window->demoAvailable());
        screenshot(m_window.get(), QStringLiteral("wizard-00-start-screen"));
        QVERIFY(!QFile::exists(demo::defaultDemoPath()));
        QSignalSpy opened(m_window.get(), &gui::MainWindow::demoOpened);
        QTest::mouseClick(m_window->startScreen()->demoButton(), Qt::LeftButton);
        // Written off the GUI thread: the button says so meanwhile.
        QVERIFY(m_window->isDemoBusy() || opened.count() == 1);
        QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 120000);
        QVERIFY2(opened.first().at(0).toBool(), qPrintable(opened.first().at(1).toString()));
        QVERIFY(QFile::exists(demo::defaultDemoPath()));
        QVERIFY(m_window->isDemo());
        QVERIFY(m_window->windowTitle().contains(QStringLiteral("demo.moewb")));
        QVERIFY(m_window->windowTitle().contains(QStringLiteral("DEMO")));
        QVERIFY(m_window->findChild<QLabel*>(QStringLiteral("demoBadge"))->isVisible());
        QVERIFY(m_window->findChild<QLabel*>(QStringLiteral("demoBanner"))->isVisible());
        screenshot(m_window.get(), QStringLiteral("wizard-01-overview"));
    }

    void laterStagesLockedAtFirst() {
        QCOMPARE(state(1).kind, Kind::NotStarted);
        for (int stage = 2; stage <= 4; ++stage) {
            QCOMPARE(state(stage).kind, Kind::Locked);
            QVERIFY(state(stage).detail.contains(QStringLiteral("stage 1 has no verdict")));
            QVERIFY(m_window->browser()->stageItem(stage)->text(0).contains(QStringLiteral("locked")));
        }
        // The locked page says why and offers no Evaluate.
        QTest::keyClick(m_window.get(), Qt::Key_2, Qt::ControlModifier);
        QCOMPARE(m_window->currentPage(), static_cast<QWidget*>(m_window->stageFrame(2)));
        QVERIFY(m_window->stageFrame(2)->isLocked());
        QWidget* page = m_window->stageFrame(2)->page();
        QVERIFY(page);
        auto* lock = page->findChild<QLabel*>(QStringLiteral("lockLabel"));
        QVERIFY(lock && lock->isVisible());
        QVERIFY2(lock->text().contains(QStringLiteral("stage 1")), qPrintable(lock->text()));
        QVERIFY(!pageButton(2, "evaluateButton")->isVisible());
        screenshot(m_window.get(), QStringLiteral("wizard-02-stage2-locked"));
    }

    void stageOnePassesAndUnlocksStageTwo() {
        evaluate(1, Kind::Passed);
        QCOMPARE(state(2).kind, Kind::NotStarted);
        QCOMPARE(state(3).kind, Kind::Locked);
        QVERIFY(m_window->browser()->stageItem(1)->text(0).contains(QStringLiteral("✔")));
        QVERIFY(m_window->browser()->stageItem(1)->text(0).contains(QStringLiteral("passed")));
        screenshot(m_window.get(), QStringLiteral("wizard-03-stage1-passed"));

        // Export one of stage 1's plots, PNG and vector PDF.
        const auto plots = m_window->stageFrame(1)->page()->findChildren<plots::PlotView*>();
        QVERIFY(!plots.isEmpty());
        plots::PlotView* plot = plots.first();
        const QString png = artifacts() + QStringLiteral("/wizard-plot.png");
        const QString pdf = artifacts() + QStringLiteral("/wizard-plot.pdf");
        QFile::remove(png);
        QFile::remove(pdf);
        QString error;
        QVERIFY2(plot->exportPng(png, &error), qPrintable(error));
        QVERIFY2(plot->exportPdf(pdf, &error), qPrintable(error));
        QImage exported(png);
        QVERIFY(!exported.isNull());
        QVERIFY(exported.width() > 200);
        QFile pdfFile(pdf);
        QVERIFY(pdfFile.open(QIODevice::ReadOnly));
        QVERIFY(pdfFile.read(5) == "%PDF-");
        QVERIFY(pdfFile.size() > 2000);
        // Exporting into a folder that does not exist fails with the file named.
        QVERIFY(!plot->exportPng(m_dir.filePath(QStringLiteral("no/such/dir/p.png")), &error));
        QVERIFY2(error.contains(QStringLiteral("p.png")), qPrintable(error));
    }

    void stageTwoPasses() {
        evaluate(2, Kind::Passed);
        QCOMPARE(state(3).kind, Kind::NotStarted);
        screenshot(m_window.get(), QStringLiteral("wizard-04-stage2-passed"));
    }

    void stageThreeStopsAndLocksStageFour() {
        evaluate(3, Kind::Stopped);
        QVERIFY(!state(3).detail.isEmpty());
        QVERIFY(m_window->browser()->stageItem(3)->text(0).contains(QStringLiteral("stopped")));
        QCOMPARE(state(4).kind, Kind::Locked);
        QVERIFY2(state(4).detail.contains(QStringLiteral("stage 3")), qPrintable(state(4).detail));
        screenshot(m_window.get(), QStringLiteral("wizard-05-stage3-stopped"));
    }

    void overrideUnlocksStageFour() {
        QTest::keyClick(m_window.get(), Qt::Key_3, Qt::ControlModifier);
        QPushButton* overrideButton = pageButton(3, "overrideButton");
        QVERIFY(overrideButton);
        QTRY_VERIFY(overrideButton->isVisible());
        bool filled = false;
        // The dialog is modal: fill it in once it is up. An empty justification is
        // refused first (the dialog stays open), then a written one is accepted.
        QTimer::singleShot(200, this, [&] {
            auto* dialog = qobject_cast<QDialog*>(QApplication::activeModalWidget());
            if (!dialog)
                return;
            QMetaObject::invokeMethod(dialog, "accept");
            QApplication::processEvents();
            const bool stillOpen = dialog->isVisible();
            auto* text = dialog->findChild<QPlainTextEdit*>(QStringLiteral("justification"));
            if (!text || !stillOpen)
                return;
            screenshot(dialog, QStringLiteral("wizard-06-override-dialog"));
            text->setPlainText(QStringLiteral("The hot expert appears only after step 150 in the synthetic run; "
                                              "accepted for the demo walk-through."));
            filled = true;
            dialog->accept();
        });
        QTest::mouseClick(overrideButton, Qt::LeftButton);
        QVERIFY(filled);
        QTRY_COMPARE(state(3).kind, Kind::Overridden);
        QVERIFY(state(3).detail.contains(QStringLiteral("hot expert")));
        QCOMPARE(m_window->project()->overrides().size(), 1);
        QCOMPARE(state(4).kind, Kind::NotStarted);
        QVERIFY(!m_window->stageFrame(4)->isLocked());
    }

    void stageFourIsEvaluated() {
        // The override dialog had the focus; the shortcuts need the window active again.
        m_window->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
        QTest::keyClick(m_window.get(), Qt::Key_4, Qt::ControlModifier);
        QCOMPARE(m_window->currentPage(), static_cast<QWidget*>(m_window->stageFrame(4)));
        QPushButton* button = pageButton(4, "evaluateButton");
        QVERIFY(button);
        QTRY_VERIFY(button->isVisible());
        QTest::mouseClick(button, Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(state(4).kind != Kind::NotStarted && state(4).kind != Kind::Running, 60000);
        QVERIFY2(state(4).kind == Kind::Passed || state(4).kind == Kind::Stopped,
                 qPrintable(state(4).words + QStringLiteral(": ") + state(4).detail));
        QVERIFY(m_window->project()->verdict(4));
        screenshot(m_window.get(), QStringLiteral("wizard-07-stage4"));
        // Every stage page once more, as it stands at the end of the walk.
        for (int stage = 1; stage <= 3; ++stage) {
            m_window->showStage(stage);
            screenshot(m_window.get(), QStringLiteral("wizard-08-stage%1-final").arg(stage));
        }
    }

    void warningsBarShowsTheDemoWarning() {
        gui::WarningsBar* bar = m_window->warningsBar();
        QVERIFY(!bar->warnings().isEmpty());
        QVERIFY(bar->text().contains(QStringLiteral("warning")));
        QVERIFY(bar->text().contains(bar->warnings().first().title));
        gui::WarningsDialog* list = bar->openList();
        QVERIFY(list->isVisible());
        QVERIFY(list->text().contains(QStringLiteral("What to do")));
        QVERIFY(list->text().contains(bar->warnings().first().fix.left(30)));
        screenshot(list, QStringLiteral("wizard-09-warnings"));
        list->close();
    }

    void everyOtherPage() {
        gui::ProjectBrowser* b = m_window->browser();
        using K = gui::ProjectBrowser::ItemKind;
        // The demo's draft record: incomplete, listed first with reasons.
        const auto records = m_window->project()->configRecords();
        QString draft, complete;
        for (const auto& r : records)
            (r.complete ? complete : draft) = r.name;
        QVERIFY(!draft.isEmpty() && !complete.isEmpty());
        QVERIFY(b->select(K::Record, draft));
        QVERIFY(!m_window->recordEditor()->issues().isEmpty());
        screenshot(m_window.get(), QStringLiteral("wizard-10-record-draft"));
        QVERIFY(b->select(K::Record, complete));
        QVERIFY(m_window->recordEditor()->issues().isEmpty());
        screenshot(m_window.get(), QStringLiteral("wizard-11-record-complete"));
        QVERIFY(b->select(K::RunsSection));
        QCOMPARE(m_window->currentPage(), static_cast<QWidget*>(m_window->runsView()));
        screenshot(m_window.get(), QStringLiteral("wizard-12-runs"));
        if (m_window->costPage()) {
            QVERIFY(b->select(K::LearnCost));
            QCOMPARE(m_window->currentPage(), m_window->costPage());
            screenshot(m_window.get(), QStringLiteral("wizard-13-learn-cost"));
            QVERIFY(b->select(K::LearnRouting));
            QCOMPARE(m_window->currentPage(), m_window->routingPage());
            screenshot(m_window.get(), QStringLiteral("wizard-14-learn-routing"));
        }
        if (m_window->assessmentPage()) {
            QVERIFY(b->select(K::Assessment));
            QCOMPARE(m_window->currentPage(), m_window->assessmentPage());
            screenshot(m_window.get(), QStringLiteral("wizard-15-assessment"));
        }
    }
};

QTEST_MAIN(TestWizard)
#include "test_wizard.moc"
