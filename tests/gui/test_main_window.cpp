// The real window, offscreen: the start screen and recent projects, the stage
// checklist and its gating, the record editor (missing fields first, save, new,
// duplicate, fill from node inventory, comparisons blocked), the runs table, import
// off the GUI thread with errors naming file and line, shortcuts, and closing during
// work. Every page it shows is saved as a screenshot artifact and checked not blank.
#include "GuiTestSupport.h"
#include "ImportDialog.h"
#include "MainWindow.h"
#include "ProjectOverview.h"
#include "RecentProjects.h"
#include "RecordEditor.h"
#include "RunPage.h"
#include "RunsView.h"
#include "StageFrame.h"
#include "StartScreen.h"
#include "WarningsBar.h"
#include "record/RecordValidation.h"
#include "store/ProjectStore.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QJsonArray>
#include <QSet>
#include <QSplitter>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

using namespace moewb;

class TestMainWindow : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_project;

    // Saves the window to tests/artifacts/gui/NAME.png in the build tree and checks it
    // is not blank: a real page has text, lines and fills in many colours.
    void screenshot(QWidget* w, const QString& name) {
        const QString dir = QStringLiteral(MOEWB_BINARY_DIR "/tests/artifacts/gui");
        QDir().mkpath(dir);
        const QImage image = w->grab().toImage();
        QVERIFY(!image.isNull());
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 3)
            for (int x = 0; x < image.width(); x += 3)
                colours.insert(image.pixel(x, y));
        QVERIFY2(colours.size() > 8, qPrintable(name + QStringLiteral(" looks blank")));
        QVERIFY(image.save(dir + QLatin1Char('/') + name + QStringLiteral(".png")));
    }

    static QJsonObject fixtureRecord() {
        QFile f(QStringLiteral(MOEWB_SOURCE_DIR "/tests/fixtures/records/moe-64e-top8.json"));
        if (!f.open(QIODevice::ReadOnly))
            return {};
        return QJsonDocument::fromJson(f.readAll()).object();
    }

    static bool writeFile(const QString& path, const QByteArray& bytes) {
        QFile f(path);
        return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
    }

private slots:
    void initTestCase() {
        const QString error = testing::startGuiTest(m_dir, QStringLiteral("test_main_window"));
        QVERIFY2(error.isEmpty(), qPrintable(error));
        m_project = m_dir.filePath(QStringLiteral("eval.moewb"));
        auto opened = store::ProjectStore::open(m_project);
        QVERIFY(opened);
        auto& p = *opened.value();
        QVERIFY(p.addConfigRecord(QStringLiteral("moe-64e-top8"), fixtureRecord(), true));
        QVERIFY(p.addConfigRecord(QStringLiteral("half-done"),
                                  QJsonObject{{QStringLiteral("moe"), QJsonObject{{QStringLiteral("experts"), 64}}}},
                                  false));
        store::RunData run;
        run.name = QStringLiteral("baseline-8n");
        run.kind = store::RunKind::Probe;
        run.recordName = QStringLiteral("moe-64e-top8");
        run.commSamples = {{1 << 20, 0, 0, 850.0}, {1 << 20, 0, 1, 870.0}};
        QVERIFY(p.saveRun(run));
        store::RunData draft;
        draft.name = QStringLiteral("draft-run");
        draft.recordName = QStringLiteral("half-done");
        draft.stepMetrics = {{1, QStringLiteral("lm_loss"), 3.2}};
        QVERIFY(p.saveRun(draft));
        // A cluster whose nodes carry the probe's inventory.
        const QJsonObject inventory{
            {QStringLiteral("schema"), QStringLiteral("moe-probe-inventory/1")},
            {QStringLiteral("gpu_count"), 8},
            {QStringLiteral("gpus"), QJsonArray{QJsonObject{{QStringLiteral("index"), 0},
                                                            {QStringLiteral("name"), QStringLiteral("NVIDIA H200")}}}},
            {QStringLiteral("infiniband"),
             QJsonArray{QJsonObject{{QStringLiteral("device"), QStringLiteral("mlx5_0")},
                                    {QStringLiteral("ports"),
                                     QJsonArray{QJsonObject{{QStringLiteral("port"), 1},
                                                            {QStringLiteral("state"), QStringLiteral("4: ACTIVE")},
                                                            {QStringLiteral("link_rate_gbps"), 400}}}}}}}};
        store::ClusterRow cluster;
        cluster.name = QStringLiteral("h200-pool");
        cluster.gpusPerNode = 8;
        QVERIFY(p.addCluster(cluster, {{0, 0, QStringLiteral("gpu-01"), 8, inventory},
                                       {0, 0, QStringLiteral("gpu-02"), 8, {{QStringLiteral("inventory"), inventory}}}}));
    }

    void startScreenListsRecentProjects() {
        gui::RecentProjects::clear();
        gui::RecentProjects::add(m_dir.filePath(QStringLiteral("gone.moewb")));
        gui::RecentProjects::add(m_project);
        gui::MainWindow window;
        window.resize(1200, 760);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QCOMPARE(window.currentPage(), static_cast<QWidget*>(window.startScreen()));
        QListWidget* recent = window.startScreen()->recentList();
        QCOMPARE(recent->count(), 2);
        QVERIFY(recent->item(0)->text().startsWith(QStringLiteral("eval.moewb")));
        QVERIFY(recent->item(1)->text().contains(QStringLiteral("gone.moewb — missing")));
        QVERIFY(!(recent->item(1)->flags() & Qt::ItemIsEnabled));
        screenshot(&window, QStringLiteral("10-start-screen-recent"));
        // Activating the recent project opens it.
        emit recent->itemActivated(recent->item(0));
        QVERIFY(window.project());
        QCOMPARE(window.project()->path(), m_project);
        QVERIFY(window.windowTitle().startsWith(QStringLiteral("eval.moewb")));
        QVERIFY(!window.isDemo());
        QVERIFY(!window.findChild<QLabel*>(QStringLiteral("demoBadge"))->isVisible());
    }

    void showsRecordsAndRuns() {
        gui::MainWindow window;
        window.resize(1200, 760);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openProject(m_project));
        QCOMPARE(gui::RecentProjects::list().first(), m_project);
        QCOMPARE(window.currentPage(), static_cast<QWidget*>(window.overview()));
        QVERIFY(window.overview()->text().contains(QStringLiteral("1 incomplete")));
        screenshot(&window, QStringLiteral("11-overview"));

        // The incomplete record carries a "!" in the browser; the editor lists what is
        // missing first, with the reason, and highlights the field.
        QList<QTreeWidgetItem*> marked = window.browser()->findItems(QStringLiteral("half-done  !"),
                                                                     Qt::MatchExactly | Qt::MatchRecursive);
        QCOMPARE(marked.size(), 1);
        QVERIFY(window.browser()->select(gui::ProjectBrowser::ItemKind::Record, QStringLiteral("half-done")));
        gui::RecordEditor* editor = window.recordEditor();
        QCOMPARE(window.currentPage(), static_cast<QWidget*>(editor));
        QVERIFY(editor->statusText().contains(QStringLiteral("Incomplete")));
        QVERIFY(editor->issuesText().contains(QStringLiteral("moe.top_k")));
        QVERIFY(!editor->fieldEditor(QStringLiteral("moe.top_k"))->styleSheet().isEmpty());
        QVERIFY(editor->fieldEditor(QStringLiteral("moe.experts"))->styleSheet().isEmpty());
        QCOMPARE(editor->fieldText(QStringLiteral("moe.experts")), QStringLiteral("64"));
        // A run uses this record: comparisons are blocked, naming what is missing.
        QVERIFY(editor->comparisonText().contains(QStringLiteral("blocked")));
        QVERIFY(editor->comparisonText().contains(QStringLiteral("draft-run")));
        // One run, in the English plural form the window installs (not "run(s)").
        QVERIFY2(editor->comparisonText().contains(QStringLiteral("blocked for 1 run using this record (draft-run)")),
                 qPrintable(editor->comparisonText()));
        QVERIFY(editor->comparisonText().contains(QStringLiteral("moe.top_k")));
        screenshot(&window, QStringLiteral("12-record-incomplete"));

        QVERIFY(window.browser()->select(gui::ProjectBrowser::ItemKind::Record, QStringLiteral("moe-64e-top8")));
        QVERIFY(editor->statusText().contains(QStringLiteral("Complete")));
        QVERIFY(editor->issuesText().isEmpty());
        QCOMPARE(editor->fieldText(QStringLiteral("moe.overflow_policy")), QStringLiteral("drop"));
        QCOMPARE(editor->fieldText(QStringLiteral("cluster.topology.rail_optimized")), QStringLiteral("true"));
        // Loading and re-serialising an unchanged record changes nothing.
        QCOMPARE(editor->currentJson(), fixtureRecord());
        screenshot(&window, QStringLiteral("13-record-complete"));

        // A run opens its page; the RUNS section the list (docs/gui.md, "Runs").
        QVERIFY(window.browser()->select(gui::ProjectBrowser::ItemKind::Run, QStringLiteral("baseline-8n")));
        QCOMPARE(window.currentPage(), static_cast<QWidget*>(window.runPage()));
        QCOMPARE(window.runPage()->runName(), QStringLiteral("baseline-8n"));
        QVERIFY(window.browser()->select(gui::ProjectBrowser::ItemKind::RunsSection));
        QCOMPARE(window.currentPage(), static_cast<QWidget*>(window.runsView()));
        QTableWidget* runs = window.runsView()->table();
        QCOMPARE(runs->rowCount(), 2);
        window.runsView()->selectRuns({QStringLiteral("baseline-8n")});
        QVERIFY(window.runsView()->selectionAsTsv().startsWith(QStringLiteral("baseline-8n\tprobe\tmoe-64e-top8")));
        screenshot(&window, QStringLiteral("14-runs"));
        // The status bar shows the whole project path (it once got 6 pixels).
        auto* pathLabel = window.findChild<QLabel*>(QStringLiteral("projectPathLabel"));
        QVERIFY(pathLabel);
        QCOMPARE(pathLabel->text(), m_project);
        QVERIFY(pathLabel->width() >= pathLabel->sizeHint().width());
    }

    void checklistGatesTheStages() {
        gui::MainWindow window;
        window.resize(1200, 760);
        window.show();
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QVERIFY(window.openProject(m_project));
        QCOMPARE(window.browser()->stageStateOf(1).kind, gui::StageState::Kind::NotStarted);
        for (int stage = 2; stage <= 4; ++stage) {
            const gui::StageState s = window.browser()->stageStateOf(stage);
            QCOMPARE(s.kind, gui::StageState::Kind::Locked);
            // Words and an icon, never colour alone; the tooltip says why and what unlocks it.
            QVERIFY(window.browser()->stageItem(stage)->text(0).contains(QStringLiteral("⊘")));
            QVERIFY(window.browser()->stageItem(stage)->text(0).contains(QStringLiteral("locked")));
            const QString tip = window.browser()->stageItem(stage)->toolTip(0);
            QVERIFY2(tip.contains(QStringLiteral("stage 1 has no verdict")), qPrintable(tip));
            QVERIFY2(tip.contains(QStringLiteral("What unlocks it")), qPrintable(tip));
        }
        // Ctrl+3 shows stage 3's frame, which is locked.
        QTest::keyClick(&window, Qt::Key_3, Qt::ControlModifier);
        QCOMPARE(window.currentPage(), static_cast<QWidget*>(window.stageFrame(3)));
        QVERIFY(window.stageFrame(3)->isLocked());
        screenshot(&window, QStringLiteral("15-stage3-locked"));

        // A stop on stage 1 keeps stage 2 locked with the stop as the reason; an
        // override written after it unlocks stage 2.
        QVERIFY(window.project()->saveVerdict({1, QStringLiteral("stop"),
                                               QJsonArray{QStringLiteral("run-to-run CV 0.23 > 0.10")}, {}, {}}));
        window.reload();
        QCOMPARE(window.browser()->stageStateOf(1).kind, gui::StageState::Kind::Stopped);
        QVERIFY(window.browser()->stageItem(1)->toolTip(0).contains(QStringLiteral("CV 0.23")));
        QCOMPARE(window.browser()->stageStateOf(2).kind, gui::StageState::Kind::Locked);
        QVERIFY(window.project()->addOverride({0, 1, QStringLiteral("known noisy switch, accepted"),
                                               QStringLiteral("lead"), {}}));
        window.reload();
        QCOMPARE(window.browser()->stageStateOf(1).kind, gui::StageState::Kind::Overridden);
        QCOMPARE(window.browser()->stageStateOf(2).kind, gui::StageState::Kind::NotStarted);
        QCOMPARE(window.browser()->stageStateOf(3).kind, gui::StageState::Kind::Locked);
        QVERIFY(!window.stageFrame(2)->isLocked());
    }

    void recordEditorSavesCreatesAndFills() {
        gui::MainWindow window;
        window.resize(1200, 760);
        window.show();
        QVERIFY(window.openProject(m_project));
        gui::RecordEditor* editor = window.recordEditor();
        QVERIFY(window.browser()->select(gui::ProjectBrowser::ItemKind::Record, QStringLiteral("half-done")));
        // Typing fixes a field live; a bad value names the field and what it must hold.
        editor->setFieldText(QStringLiteral("moe.top_k"), QStringLiteral("two"));
        QVERIFY(editor->issuesText().contains(QStringLiteral("moe.top_k")));
        editor->setFieldText(QStringLiteral("moe.top_k"), QStringLiteral("2"));
        QVERIFY(!editor->issuesText().contains(QStringLiteral("<b>moe.top_k</b>")));
        QVERIFY(editor->fieldEditor(QStringLiteral("moe.top_k"))->styleSheet().isEmpty());
        QVERIFY(editor->isModified());

        // Fill from node inventory: node count, GPUs, model and fabric from the facts.
        QString notes;
        QVERIFY2(editor->fillFromCluster(QStringLiteral("h200-pool"), &notes), qPrintable(notes));
        QCOMPARE(editor->fieldText(QStringLiteral("cluster.nodes")), QStringLiteral("2"));
        QCOMPARE(editor->fieldText(QStringLiteral("cluster.accelerators_per_node")), QStringLiteral("8"));
        QCOMPARE(editor->fieldText(QStringLiteral("cluster.accelerator_model")), QStringLiteral("NVIDIA H200"));
        QCOMPARE(editor->fieldText(QStringLiteral("cluster.network_type")), QStringLiteral("InfiniBand"));
        QCOMPARE(editor->fieldText(QStringLiteral("cluster.topology.inter_node_fabric")),
                 QStringLiteral("InfiniBand 400 Gb/s x1"));
        QVERIFY2(notes.contains(QStringLiteral("2 of 2 nodes carry a probe inventory.")), qPrintable(notes));
        QVERIFY(!editor->fillFromCluster(QStringLiteral("nope"), &notes));
        QVERIFY(notes.contains(QStringLiteral("nope")));

        // Save writes through the store; another connection reads it back.
        QString error;
        QVERIFY2(editor->save(&error), qPrintable(error));
        QVERIFY(!editor->isModified());
        {
            auto other = store::ProjectStore::open(m_project, store::OpenMode::MustExist);
            QVERIFY(other);
            const auto row = other.value()->configRecord(QStringLiteral("half-done"));
            QVERIFY(row);
            QCOMPARE(row->json.value(QStringLiteral("moe")).toObject().value(QStringLiteral("top_k")).toInt(), 2);
            QCOMPARE(row->json.value(QStringLiteral("cluster")).toObject().value(QStringLiteral("nodes")).toInt(), 2);
            QVERIFY(!row->complete);
        }

        // Duplicate the complete record: a complete copy under the new name.
        QVERIFY(window.browser()->select(gui::ProjectBrowser::ItemKind::Record, QStringLiteral("moe-64e-top8")));
        QVERIFY2(editor->createRecord(QStringLiteral("moe-copy"), true, &error), qPrintable(error));
        QCOMPARE(editor->recordName(), QStringLiteral("moe-copy"));
        QVERIFY(editor->issues().isEmpty());
        QVERIFY(window.project()->configRecord(QStringLiteral("moe-copy"))->complete);
        QCOMPARE(window.browser()->findItems(QStringLiteral("moe-copy"), Qt::MatchExactly | Qt::MatchRecursive).size(),
                 1);
        // A second record of the same name is refused with the store's reason.
        QVERIFY(!editor->createRecord(QStringLiteral("moe-copy"), false, &error));
        QVERIFY2(error.contains(QStringLiteral("already exists")), qPrintable(error));
        // New record: empty, every required field listed as missing.
        QVERIFY(editor->createRecord(QStringLiteral("blank"), false, &error));
        QVERIFY(editor->issues().size() > 20);
        screenshot(&window, QStringLiteral("16-record-new"));
    }

    void importRunsOffTheGuiThread() {
        gui::MainWindow window;
        window.resize(1200, 760);
        window.show();
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QVERIFY(window.openProject(m_project));
        // A good file: detected, imported in the worker, the window reloads.
        const QString good = m_dir.filePath(QStringLiteral("metrics.csv"));
        QByteArray csv = "step,lm_loss,tokens_per_s_per_gpu\n";
        for (int s = 1; s <= 2000; ++s)
            csv += QByteArray::number(s) + ',' + QByteArray::number(4.0 - s * 1e-4) + ",9000\n";
        QVERIFY(writeFile(good, csv));
        QTest::keyClick(&window, Qt::Key_I, Qt::ControlModifier);
        gui::ImportDialog* dialog = window.findChild<gui::ImportDialog*>();
        QVERIFY(dialog);
        const auto runsBefore = window.project()->runs().size();
        dialog->setFile(good);
        dialog->setRecord(QStringLiteral("moe-64e-top8"));
        // The file is read and checked in the worker first; the plan names its format.
        QTRY_COMPARE_WITH_TIMEOUT(dialog->detectedFormat(), QStringLiteral("csv-metrics"), 20000);
        QVERIFY(dialog->hasPlan());
        QCOMPARE(window.project()->runs().size(), runsBefore); // nothing stored by the check
        QVERIFY(dialog->startImport());
        QVERIFY(dialog->isRunning() || !dialog->resultText().isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(dialog->resultText().contains(QStringLiteral("Imported")), 20000);
        QVERIFY(window.project()->run(QStringLiteral("metrics")));
        QCOMPARE(window.project()->run(QStringLiteral("metrics"))->stepCount, 2000);
        QVERIFY(!window.browser()->findItems(QStringLiteral("metrics"), Qt::MatchExactly | Qt::MatchRecursive).isEmpty());
        screenshot(dialog, QStringLiteral("17-import-done"));

        // A bad file: the error names the file and the line; nothing is stored. Asked
        // at once, the import waits for the check and stores nothing when it fails.
        const QString bad = m_dir.filePath(QStringLiteral("bad.csv"));
        QVERIFY(writeFile(bad, "step,lm_loss\n1,3.5\n2,oops\n"));
        dialog->setFile(bad);
        dialog->setRunName(QStringLiteral("bad-run"));
        QVERIFY(dialog->startImport());
        QTRY_VERIFY_WITH_TIMEOUT(!dialog->isRunning() && !dialog->resultText().isEmpty(), 20000);
        QVERIFY2(dialog->resultText().contains(QStringLiteral("bad.csv:3")), qPrintable(dialog->resultText()));
        QVERIFY(!window.project()->run(QStringLiteral("bad-run")));
        screenshot(dialog, QStringLiteral("18-import-error"));
        dialog->reject();
    }

    void closingDuringImportAsksThenCancels() {
        // A large expert-load file, so the import is still running when we close.
        const QString big = m_dir.filePath(QStringLiteral("load.csv"));
        {
            QFile f(big);
            QVERIFY(f.open(QIODevice::WriteOnly));
            QByteArray header = "step,layer";
            for (int e = 0; e < 64; ++e)
                header += ",e" + QByteArray::number(e);
            f.write(header + '\n');
            for (int step = 1; step <= 1500; ++step)
                for (int layer = 0; layer < 16; ++layer) {
                    QByteArray row = QByteArray::number(step) + ',' + QByteArray::number(layer);
                    for (int e = 0; e < 64; ++e)
                        row += ',' + QByteArray::number((step * 7 + layer * 13 + e * 31) % 900 + 100);
                    f.write(row + '\n');
                }
        }
        auto window = std::make_unique<gui::MainWindow>();
        window->show();
        QVERIFY(window->openProject(m_project));
        gui::ImportDialog* dialog = window->openImportDialog(big);
        dialog->setRecord(QStringLiteral("moe-64e-top8"));
        dialog->setRunName(QStringLiteral("big-load"));
        QVERIFY(dialog->startImport());
        QVERIFY(!window->runningWork().isEmpty());
        // First the user says no: the window stays open and the import goes on.
        QString asked;
        window->setCloseConfirmation([&](const QString& work) {
            asked = work;
            return false;
        });
        QVERIFY(!window->close());
        QVERIFY(asked.contains(QStringLiteral("import")));
        // Then yes: cancelled, nothing stored, the window closes.
        window->setCloseConfirmation([](const QString&) { return true; });
        if (dialog->isRunning()) {
            QVERIFY(window->close());
            QVERIFY(!window->project()->run(QStringLiteral("big-load")) ||
                    window->project()->run(QStringLiteral("big-load"))->expertLoadBlocks == 1500 * 16);
        }
        window.reset();
        auto reopened = store::ProjectStore::open(m_project, store::OpenMode::MustExist);
        QVERIFY(reopened);
        QVERIFY(reopened.value()->integrityProblems().value().isEmpty());
    }

    void refusesMissingProjectAndKeepsCurrent() {
        gui::MainWindow window;
        QVERIFY(window.openProject(m_project));
        QString error;
        QVERIFY(!window.openProject(m_dir.filePath(QStringLiteral("nope.moewb")), false, &error));
        QVERIFY(error.contains(QStringLiteral("nope.moewb")));
        QCOMPARE(window.project()->path(), m_project);
        QVERIFY(!QFile::exists(m_dir.filePath(QStringLiteral("nope.moewb"))));
    }

    void remembersGeometryAndSplitter() {
        QByteArray splitterState;
        {
            gui::MainWindow window;
            window.resize(1010, 700);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            QVERIFY(window.openProject(m_project));
            auto* splitter = window.findChild<QSplitter*>(QStringLiteral("mainSplitter"));
            splitter->setSizes({333, 600});
            splitterState = splitter->saveState();
            window.close();
        }
        gui::MainWindow again;
        QCOMPARE(again.size(), QSize(1010, 700));
        QCOMPARE(again.findChild<QSplitter*>(QStringLiteral("mainSplitter"))->saveState(), splitterState);
    }
};

QTEST_MAIN(TestMainWindow)
#include "test_main_window.moc"
