// The import dialog through the real window, offscreen: several files and a folder
// (a Megatron-Core --save folder with eight rank files and the console log) become ONE
// run; the plan is shown before anything is stored; a missing rank file is an error
// naming it, Import stays disabled and nothing is stored; adding files to an existing
// run; the record preset and its draft warning; files dropped on the window open the
// dialog with them; a log of two all-to-all tests offers which one to import.
// Screenshots: <build>/tests/artifacts/gui/import-*.png and
// /tmp/moewb-import-dialog-plan.png (the dialog in a 1366 × 768 window).
#include "GuiTestSupport.h"
#include "ImportDialog.h"
#include "MainWindow.h"
#include "store/ProjectStore.h"

#include <QComboBox>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QHeaderView>
#include <QJsonDocument>
#include <QLabel>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QUrl>
#include <QtTest>

using namespace moewb;

namespace {

const QString kFixture = QStringLiteral(MOEWB_SOURCE_DIR "/tests/fixtures/runs/megatron-ep4-mtp");

QJsonObject fixtureRecord() {
    QFile f(kFixture + QStringLiteral("/record.json"));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

bool copyTree(const QString& from, const QString& to) {
    if (!QDir().mkpath(to))
        return false;
    QDirIterator it(from, QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        const QString target = to + QLatin1Char('/') + QDir(from).relativeFilePath(path);
        if (it.fileInfo().isDir()) {
            if (!QDir().mkpath(target))
                return false;
        } else if (!QFile::copy(path, target)) {
            return false;
        }
    }
    return true;
}

// The plan table's rows as "file\tformat".
QStringList planRows(QTableWidget* table) {
    QStringList rows;
    for (int r = 0; r < table->rowCount(); ++r)
        rows << table->item(r, 0)->text() + QLatin1Char('\t') + table->item(r, 1)->text();
    return rows;
}

} // namespace

class TestImportDialog : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    int m_projects = 0;

    // A fresh project holding the fixture's record (complete), and any extra records.
    QString newProject(const QList<std::pair<QString, bool>>& extra = {}) {
        const QString path = m_dir.filePath(QStringLiteral("import-%1.moewb").arg(++m_projects));
        auto opened = store::ProjectStore::open(path);
        if (!opened)
            return {};
        if (!opened.value()->addConfigRecord(QStringLiteral("ep4-mtp"), fixtureRecord(), true))
            return {};
        for (const auto& [name, complete] : extra)
            if (!opened.value()->addConfigRecord(name, fixtureRecord(), complete))
                return {};
        return path;
    }

    static QList<store::RunRow> storedRuns(const QString& path) {
        auto reopened = store::ProjectStore::open(path, store::OpenMode::MustExist);
        return reopened ? reopened.value()->runs() : QList<store::RunRow>{};
    }

    static void save(QWidget* w, const QString& name) {
        const QString dir = QStringLiteral(MOEWB_BINARY_DIR "/tests/artifacts/gui");
        QDir().mkpath(dir);
        const QImage image = w->grab().toImage();
        QVERIFY(!image.isNull());
        QVERIFY(image.save(dir + QLatin1Char('/') + name + QStringLiteral(".png")));
    }

    static QPushButton* importButton(gui::ImportDialog* d) {
        return d->findChild<QPushButton*>(QStringLiteral("importStart"));
    }

    static bool waitForCheck(gui::ImportDialog* d) {
        return QTest::qWaitFor(
            [d] { return !d->isChecking() && (d->hasPlan() || !d->planErrors().isEmpty()); }, 30000);
    }

private slots:
    void initTestCase() {
        const QString error = testing::startGuiTest(m_dir, QStringLiteral("test_import_dialog"));
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(!fixtureRecord().isEmpty());
    }

    void importsFolderAndLogAsOneRun() {
        const QString project = newProject();
        QVERIFY(!project.isEmpty());
        gui::MainWindow window;
        window.resize(1366, 768);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openProject(project));
        const QString saveDir = kFixture + QStringLiteral("/save");
        const QString log = kFixture + QStringLiteral("/train.log");
        gui::ImportDialog* d = window.openImportDialog(QStringList{saveDir, log});
        QVERIFY(d);
        QVERIFY(QTest::qWaitForWindowExposed(d));
        QCOMPARE(d->paths(), (QStringList{saveDir, log}));
        // The only complete record is the default; it is no draft.
        QCOMPARE(d->record(), QStringLiteral("ep4-mtp"));
        QVERIFY(!d->findChild<QLabel*>(QStringLiteral("importRecordWarning"))->isVisible());
        QVERIFY(!importButton(d)->isEnabled()); // no plan yet

        // The plan, read in the worker: nothing is stored meanwhile.
        QVERIFY(waitForCheck(d));
        QVERIFY2(d->hasPlan(), qPrintable(d->planErrors().join(QLatin1Char('\n'))));
        QVERIFY(storedRuns(project).isEmpty());
        const QStringList rows = planRows(d->planTable());
        int rankFiles = 0;
        for (int r = 0; r < 8; ++r)
            for (const QString& row : rows)
                if (row.contains(QStringLiteral("rank%1.jsonl\tmegatron-tpe-jsonl").arg(r)))
                    ++rankFiles;
        QVERIFY2(rankFiles == 8, qPrintable(rows.join(QLatin1Char('\n'))));
        QVERIFY2(rows.filter(QStringLiteral("train.log\tmegatron-log")).size() == 1,
                 qPrintable(rows.join(QLatin1Char('\n'))));
        // The checkpoint folder and marker are listed as skipped, with their reason.
        QVERIFY2(
            rows.filter(QStringLiteral("iter_0000040")).size() >= 1 &&
                rows.filter(QStringLiteral("iter_0000040")).first().endsWith(QStringLiteral("\tskipped")),
            qPrintable(rows.join(QLatin1Char('\n'))));
        QVERIFY2(rows.contains(QStringLiteral("latest_checkpointed_iteration.txt\tskipped")),
                 qPrintable(rows.join(QLatin1Char('\n'))));
        QCOMPARE(d->detectedFormat().split(QLatin1Char('+')).size(), 2);
        QVERIFY(!d->findChild<QPlainTextEdit*>(QStringLiteral("importPlanNotes"))->toPlainText().isEmpty());
        QVERIFY(importButton(d)->isEnabled());

        // It fits a 1366 × 768 screen (the offscreen screen is smaller: open it at the
        // size it takes there); no sideways scrolling in the plan.
        const QSize size = gui::ImportDialog::preferredSize();
        QVERIFY(size.width() <= 1366 && size.height() <= 768 - 60);
        QVERIFY(d->minimumSizeHint().width() <= size.width() &&
                d->minimumSizeHint().height() <= size.height());
        d->resize(size);
        QTest::qWait(50);
        QApplication::processEvents();
        QCOMPARE(d->planTable()->horizontalScrollBar()->maximum(), 0);
        QCOMPARE(d->planTable()->horizontalHeader()->length(), d->planTable()->viewport()->width());
        save(d, QStringLiteral("import-plan"));
        QVERIFY(d->grab().save(QStringLiteral("/tmp/moewb-import-dialog-plan.png")));

        // Import stores exactly that plan: one run, 64 experts per block, the log's loss.
        QSignalSpy imported(d, &gui::ImportDialog::imported);
        QTest::mouseClick(importButton(d), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(imported.count(), 1, 30000);
        const QString runName = imported.first().first().toString();
        QCOMPARE(runName, QStringLiteral("save")); // the first path's name
        QVERIFY2(d->resultText().contains(QStringLiteral("Imported")), qPrintable(d->resultText()));
        QVERIFY(!importButton(d)->isEnabled()); // not offered twice
        save(d, QStringLiteral("import-done"));

        auto reopened = store::ProjectStore::open(project, store::OpenMode::MustExist);
        QVERIFY(reopened);
        const auto runs = reopened.value()->runs();
        QCOMPARE(runs.size(), 1);
        QCOMPARE(runs.first().name, runName);
        QCOMPARE(runs.first().recordName, QStringLiteral("ep4-mtp"));
        const auto blocks = reopened.value()->expertLoad(runs.first().id);
        QVERIFY(!blocks.isEmpty());
        for (const auto& b : blocks)
            QCOMPARE(b.tokensPerExpert.size(), 64);
        QVERIFY(!reopened.value()->stepMetrics(runs.first().id, QStringLiteral("lm_loss")).isEmpty());
        // The window reloaded: the run is in the browser.
        QVERIFY(!window.browser()->findItems(runName, Qt::MatchExactly | Qt::MatchRecursive).isEmpty());
        d->reject();
    }

    void missingRankFileIsAnErrorAndStoresNothing() {
        const QString project = newProject();
        QVERIFY(!project.isEmpty());
        QTemporaryDir copy;
        QVERIFY(copy.isValid());
        QVERIFY(copyTree(kFixture, copy.path()));
        QVERIFY(QFile::remove(copy.filePath(QStringLiteral("save/tokens_per_expert/rank5.jsonl"))));
        gui::MainWindow window;
        window.resize(1366, 768);
        window.show();
        QVERIFY(window.openProject(project));
        gui::ImportDialog* d = window.openImportDialog(
            QStringList{copy.filePath(QStringLiteral("save")), copy.filePath(QStringLiteral("train.log"))});
        QVERIFY(d);
        QVERIFY(waitForCheck(d));
        QVERIFY(!d->hasPlan());
        const QString errors = d->planErrors().join(QLatin1Char('\n'));
        QVERIFY2(errors.contains(QStringLiteral("rank5.jsonl")), qPrintable(errors));
        QVERIFY(d->findChild<QPlainTextEdit*>(QStringLiteral("importPlanNotes"))
                    ->toPlainText()
                    .contains(QStringLiteral("rank5.jsonl")));
        QCOMPARE(d->planTable()->rowCount(), 0);
        QVERIFY(!importButton(d)->isEnabled());
        QTest::mouseClick(importButton(d), Qt::LeftButton); // disabled: does nothing
        QVERIFY(!d->startImport());
        QVERIFY2(d->resultText().contains(QStringLiteral("rank5.jsonl")), qPrintable(d->resultText()));
        QVERIFY(!d->isRunning());
        d->resize(gui::ImportDialog::preferredSize());
        QTest::qWait(50);
        QApplication::processEvents();
        save(d, QStringLiteral("import-error"));
        QVERIFY(d->grab().save(QStringLiteral("/tmp/moewb-import-dialog-error.png")));
        QVERIFY(window.project()->runs().isEmpty());
        QVERIFY(storedRuns(project).isEmpty());

        // Removing the broken folder from the list checks again: the log alone is fine.
        d->setPaths({copy.filePath(QStringLiteral("train.log"))});
        QVERIFY(waitForCheck(d));
        QVERIFY2(d->hasPlan(), qPrintable(d->planErrors().join(QLatin1Char('\n'))));
        QVERIFY(importButton(d)->isEnabled());
        d->reject();
        QVERIFY(storedRuns(project).isEmpty());
    }

    void addsFilesToAnExistingRun() {
        const QString project = newProject();
        QVERIFY(!project.isEmpty());
        gui::MainWindow window;
        window.show();
        QVERIFY(window.openProject(project));
        gui::ImportDialog* d = window.openImportDialog(kFixture + QStringLiteral("/train.log"));
        QVERIFY(d);
        d->setRunName(QStringLiteral("ep4"));
        QSignalSpy imported(d, &gui::ImportDialog::imported);
        QVERIFY(waitForCheck(d));
        QVERIFY(d->startImport());
        QTRY_COMPARE_WITH_TIMEOUT(imported.count(), 1, 30000);
        // Then the rank files into the same run (mergeInto + replaceRun).
        d->setIntoRun(QStringLiteral("ep4"));
        d->setPaths({kFixture + QStringLiteral("/save")});
        QVERIFY(waitForCheck(d));
        QVERIFY2(d->hasPlan(), qPrintable(d->planErrors().join(QLatin1Char('\n'))));
        QVERIFY(d->startImport());
        QTRY_COMPARE_WITH_TIMEOUT(imported.count(), 2, 30000);
        QCOMPARE(imported.last().first().toString(), QStringLiteral("ep4"));
        QVERIFY2(d->resultText().contains(QStringLiteral("Added")), qPrintable(d->resultText()));
        auto reopened = store::ProjectStore::open(project, store::OpenMode::MustExist);
        QVERIFY(reopened);
        const auto runs = reopened.value()->runs();
        QCOMPARE(runs.size(), 1);
        QVERIFY(runs.first().expertLoadBlocks > 0);
        QVERIFY(!reopened.value()->stepMetrics(runs.first().id, QStringLiteral("lm_loss")).isEmpty());
        d->reject();
    }

    // A cluster script's log with alltoall_perf then alltoallv_perf (a traffic matrix): the
    // dialog offers which all-to-all test to import, as `moewb import --collective` does; a
    // log of one test does not show the choice.
    void clusterLogOffersWhichAllToAllTest() {
        const QString project = newProject();
        QVERIFY(!project.isEmpty());
        gui::MainWindow window;
        window.resize(1366, 768);
        window.show();
        QVERIFY(window.openProject(project));
        const QString logs = QStringLiteral(MOEWB_SOURCE_DIR "/tests/fixtures/importers/nccl-tests/");
        gui::ImportDialog* d = window.openImportDialog(logs + QStringLiteral("alltoallv-matrix-summary.txt"));
        QVERIFY(d);
        d->resize(gui::ImportDialog::preferredSize());
        auto* choice = d->findChild<QComboBox*>(QStringLiteral("importCollective"));
        QVERIFY(choice);
        QVERIFY(waitForCheck(d));
        QVERIFY2(d->hasPlan(), qPrintable(d->planErrors().join(QLatin1Char('\n'))));
        QVERIFY(!choice->isVisible()); // one test: nothing to choose

        d->setPaths({logs + QStringLiteral("alltoall-then-alltoallv.txt")});
        QVERIFY(waitForCheck(d));
        QVERIFY2(d->hasPlan(), qPrintable(d->planErrors().join(QLatin1Char('\n'))));
        QVERIFY(choice->isVisible());
        auto* notes = d->findChild<QPlainTextEdit*>(QStringLiteral("importPlanNotes"));
        QVERIFY2(notes->toPlainText().contains(QStringLiteral("the alltoallv test left out")),
                 qPrintable(notes->toPlainText()));
        QTest::qWait(50);
        QApplication::processEvents();
        save(d, QStringLiteral("import-all-to-all-choice"));
        // alltoallv chosen: checked again, the alltoall test is the one left out, and the
        // plan says where the routed run's bytes per rank come from.
        choice->setCurrentIndex(choice->findData(QStringLiteral("alltoallv")));
        QVERIFY(waitForCheck(d));
        QVERIFY2(d->hasPlan(), qPrintable(d->planErrors().join(QLatin1Char('\n'))));
        QVERIFY2(notes->toPlainText().contains(QStringLiteral("the alltoall test left out")),
                 qPrintable(notes->toPlainText()));
        QVERIFY2(notes->toPlainText().contains(QStringLiteral("alltoallv_perf with a traffic matrix (8×8")),
                 qPrintable(notes->toPlainText()));
        QVERIFY(choice->isVisible());
        QTest::qWait(50);
        QApplication::processEvents();
        save(d, QStringLiteral("import-all-to-all-chosen"));
        QSignalSpy imported(d, &gui::ImportDialog::imported);
        QVERIFY(d->startImport());
        QTRY_COMPARE_WITH_TIMEOUT(imported.count(), 1, 30000);
        auto reopened = store::ProjectStore::open(project, store::OpenMode::MustExist);
        QVERIFY(reopened);
        const auto run = reopened.value()->run(imported.first().first().toString());
        QVERIFY(run);
        QCOMPARE(run->environment.value(QStringLiteral("collective")).toString(), QStringLiteral("alltoallv"));
        QCOMPARE(run->environment.value(QStringLiteral("pattern_origin")).toString(),
                 QStringLiteral("alltoallv_perf matrix (8×8, scale 1.000)"));
        QCOMPARE(run->commSampleCount, 3);
        d->reject();
    }

    // Another import (a CLI in a second process) takes the default name after the dialog
    // chose it: the dialog's store takes the next free name in its own transaction.
    void automaticNameTakenMeanwhileGetsTheNextFree() {
        const QString project = newProject();
        QVERIFY(!project.isEmpty());
        gui::MainWindow window;
        window.show();
        QVERIFY(window.openProject(project));
        gui::ImportDialog* d = window.openImportDialog(kFixture + QStringLiteral("/train.log"));
        QVERIFY(d);
        QSignalSpy imported(d, &gui::ImportDialog::imported);
        QVERIFY(waitForCheck(d));
        QVERIFY2(d->hasPlan(), qPrintable(d->planErrors().join(QLatin1Char('\n'))));
        {
            auto other = store::ProjectStore::open(project, store::OpenMode::MustExist);
            QVERIFY(other);
            store::RunData taken;
            taken.name = QStringLiteral("train");
            taken.recordName = QStringLiteral("ep4-mtp");
            QVERIFY2(other.value()->saveRun(taken), "the other writer could not save");
        }
        QVERIFY(d->startImport());
        QTRY_COMPARE_WITH_TIMEOUT(imported.count(), 1, 30000);
        QCOMPARE(imported.last().first().toString(), QStringLiteral("train-2"));
        QVERIFY2(d->resultText().contains(QStringLiteral("train-2")), qPrintable(d->resultText()));
        QStringList names;
        for (const auto& r : storedRuns(project))
            names << r.name;
        names.sort();
        QCOMPARE(names, (QStringList{QStringLiteral("train"), QStringLiteral("train-2")}));
        d->reject();
    }

    void recordPresetAndDraftWarning() {
        // Two complete records: none is preset (chosen explicitly) and nothing is checked.
        const QString two = newProject({{QStringLiteral("other"), true}});
        {
            gui::MainWindow window;
            window.show();
            QVERIFY(window.openProject(two));
            gui::ImportDialog* d = window.openImportDialog(kFixture + QStringLiteral("/train.log"));
            QVERIFY(d);
            QVERIFY(d->record().isEmpty());
            QTest::qWait(500);
            QVERIFY(!d->hasPlan());
            QVERIFY(!importButton(d)->isEnabled());
            d->setRecord(QStringLiteral("other"));
            QVERIFY(waitForCheck(d));
            QVERIFY(d->hasPlan());
            d->reject();
        }
        // Only a draft record: it is the default, and the dialog says it is a draft.
        const QString path = m_dir.filePath(QStringLiteral("draft.moewb"));
        {
            auto opened = store::ProjectStore::open(path);
            QVERIFY(opened);
            QVERIFY(opened.value()->addConfigRecord(
                QStringLiteral("half-done"),
                QJsonObject{{QStringLiteral("moe"), QJsonObject{{QStringLiteral("experts"), 64}}}}, false));
        }
        gui::MainWindow window;
        window.show();
        QVERIFY(window.openProject(path));
        gui::ImportDialog* d = window.openImportDialog();
        QVERIFY(d);
        QCOMPARE(d->record(), QStringLiteral("half-done"));
        auto* warning = d->findChild<QLabel*>(QStringLiteral("importRecordWarning"));
        QVERIFY(warning->isVisible());
        QVERIFY(warning->text().contains(QStringLiteral("incomplete")));
        d->reject();
    }

    void droppedFilesOpenTheDialog() {
        const QString project = newProject();
        gui::MainWindow window;
        window.resize(1200, 760);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.acceptDrops());
        const QString saveDir = kFixture + QStringLiteral("/save");
        const QString log = kFixture + QStringLiteral("/train.log");
        QMimeData web;
        web.setUrls({QUrl(QStringLiteral("https://example.com/train.log"))});
        QDragEnterEvent refused(QPoint(600, 380), Qt::CopyAction, &web, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&window, &refused);
        QVERIFY(!refused.isAccepted()); // local files only
        QVERIFY(window.openProject(project));

        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(saveDir), QUrl::fromLocalFile(log)});
        QDragEnterEvent enter(QPoint(600, 380), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&window, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(600, 380), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&window, &drop);
        QVERIFY(drop.isAccepted());
        auto* d = window.findChild<gui::ImportDialog*>();
        QVERIFY(d);
        QVERIFY(d->isVisible());
        QCOMPARE(d->paths(), (QStringList{saveDir, log}));
        d->reject();
    }
};

QTEST_MAIN(TestImportDialog)
#include "test_import_dialog.moc"
