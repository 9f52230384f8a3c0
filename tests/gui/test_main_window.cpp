// The real window, offscreen: opens a project, shows its records and runs, marks
// incomplete records, and every page it shows is saved as a screenshot artifact.
#include "MainWindow.h"
#include "ProjectOverview.h"
#include "RecordView.h"
#include "RunsView.h"
#include "store/ProjectStore.h"

#include <QDir>
#include <QLabel>
#include <QFile>
#include <QJsonDocument>
#include <QSet>
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

private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        qputenv("XDG_DATA_HOME", m_dir.filePath(QStringLiteral("data")).toUtf8());
        qputenv("XDG_CONFIG_HOME", m_dir.filePath(QStringLiteral("config")).toUtf8());
        m_project = m_dir.filePath(QStringLiteral("eval.moewb"));
        auto opened = store::ProjectStore::open(m_project);
        QVERIFY(opened);
        auto& p = *opened.value();
        QFile f(QStringLiteral(MOEWB_SOURCE_DIR "/tests/fixtures/records/moe-64e-top8.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(p.addConfigRecord(QStringLiteral("moe-64e-top8"), QJsonDocument::fromJson(f.readAll()).object(), true));
        QVERIFY(p.addConfigRecord(QStringLiteral("half-done"),
                                  QJsonObject{{QStringLiteral("moe"), QJsonObject{{QStringLiteral("experts"), 64}}}},
                                  false));
        store::RunData run;
        run.name = QStringLiteral("baseline-8n");
        run.kind = store::RunKind::Probe;
        run.recordName = QStringLiteral("moe-64e-top8");
        run.commSamples = {{1 << 20, 0, 0, 850.0}, {1 << 20, 0, 1, 870.0}};
        QVERIFY(p.saveRun(run));
    }

    void showsRecordsAndRuns() {
        gui::MainWindow window;
        window.resize(1200, 760);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openProject(m_project));
        QCOMPARE(window.currentPage(), static_cast<QWidget*>(window.overview()));
        QVERIFY(window.overview()->text().contains(QStringLiteral("1 incomplete")));
        screenshot(&window, QStringLiteral("01-overview"));

        // The incomplete record carries a "!" in the browser and lists what is missing.
        QList<QTreeWidgetItem*> marked = window.browser()->findItems(QStringLiteral("half-done  !"),
                                                                     Qt::MatchExactly | Qt::MatchRecursive);
        QCOMPARE(marked.size(), 1);
        QVERIFY(window.browser()->select(gui::ProjectBrowser::ItemKind::Record, QStringLiteral("half-done")));
        QCOMPARE(window.currentPage(), static_cast<QWidget*>(window.recordView()));
        QVERIFY(window.recordView()->statusText().contains(QStringLiteral("Incomplete")));
        QTableWidget* fields = window.recordView()->fieldTable();
        bool topKMissing = false;
        for (int r = 0; r < fields->rowCount(); ++r)
            topKMissing = topKMissing || fields->item(r, 0)->text() == QStringLiteral("! moe.top_k");
        QVERIFY(topKMissing);
        screenshot(&window, QStringLiteral("02-record-incomplete"));

        QVERIFY(window.browser()->select(gui::ProjectBrowser::ItemKind::Record, QStringLiteral("moe-64e-top8")));
        QVERIFY(window.recordView()->statusText().contains(QStringLiteral("Complete")));
        screenshot(&window, QStringLiteral("03-record-complete"));

        QVERIFY(window.browser()->select(gui::ProjectBrowser::ItemKind::Run, QStringLiteral("baseline-8n")));
        QCOMPARE(window.currentPage(), static_cast<QWidget*>(window.runsView()));
        QTableWidget* runs = window.runsView()->table();
        QCOMPARE(runs->rowCount(), 1);
        QCOMPARE(runs->item(0, 0)->text(), QStringLiteral("baseline-8n"));
        QCOMPARE(runs->item(0, 4)->text(), QStringLiteral("2"));
        QVERIFY(window.runsView()->selectionAsTsv().startsWith(QStringLiteral("baseline-8n\tprobe\tmoe-64e-top8")));
        screenshot(&window, QStringLiteral("04-runs"));
        // The status bar shows the whole project path (it once got 6 pixels).
        auto* pathLabel = window.findChild<QLabel*>(QStringLiteral("projectPathLabel"));
        QVERIFY(pathLabel);
        QCOMPARE(pathLabel->text(), m_project);
        QVERIFY(pathLabel->width() >= pathLabel->sizeHint().width());
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
};

QTEST_MAIN(TestMainWindow)
#include "test_main_window.moc"
