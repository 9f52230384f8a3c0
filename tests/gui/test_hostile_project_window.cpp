// Opening a hostile project in the window (docs/store.md, "What opening a project
// checks"; docs/gui.md): a project written by the store, then given a trigger that
// flips verdicts with the SQLite C API. The window refuses it with a box that names the
// trigger and offers "Save a clean copy…"; the file is not changed and its stop verdict
// stays a stop; the window stays alive with the project it had; the clean copy is
// written off the GUI thread, holds the known rows, and opens.
#include "../unit/store/HostileFile.h"
#include "GuiTestSupport.h"
#include "MainWindow.h"
#include "StartScreen.h"
#include "store/ProjectStore.h"

#include <QFile>
#include <QJsonArray>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>


#include <functional>

using namespace moewb;

namespace {

using testing::plant;
using testing::sha256;

QString verdictOf(const QString& path, int stage) {
    return testing::firstValue(path, QStringLiteral("SELECT status FROM verdict WHERE stage = %1").arg(stage));
}

// Once a visible modal QMessageBox named `name` is up, `act` on it.
void whenBoxShown(const QString& name, std::function<void(QMessageBox*)> act) {
    auto* timer = new QTimer;
    timer->setInterval(20);
    QObject::connect(timer, &QTimer::timeout, [timer, name, act] {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        if (box && box->isVisible() && box->objectName() == name) {
            timer->stop();
            timer->deleteLater();
            act(box);
        }
    });
    timer->start();
}

} // namespace

class TestHostileProjectWindow : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_good;
    QString m_hostile;

private slots:
    void initTestCase() {
        const QString error = testing::startGuiTest(m_dir, QStringLiteral("test_hostile_project_window"));
        QVERIFY2(error.isEmpty(), qPrintable(error));
        m_good = m_dir.filePath(QStringLiteral("good.moewb"));
        {
            auto opened = store::ProjectStore::open(m_good);
            QVERIFY(opened);
            store::ProjectStore& p = **opened;
            QVERIFY(p.addConfigRecord(QStringLiteral("rec"), QJsonObject{{QStringLiteral("name"), QStringLiteral("rec")}},
                                      false));
            store::RunData run;
            run.name = QStringLiteral("baseline");
            run.kind = store::RunKind::Probe;
            run.recordName = QStringLiteral("rec");
            run.commSamples = {{1 << 20, 0, 0, 850.0}, {1 << 20, 1, 0, 870.0}};
            QVERIFY(p.saveRun(run));
            QVERIFY(p.saveVerdict(store::VerdictRow{3, QStringLiteral("stop"), QJsonArray{}, {}, {}}));
        }
        m_hostile = m_dir.filePath(QStringLiteral("from-a-colleague.moewb"));
        QVERIFY(QFile::copy(m_good, m_hostile));
        QCOMPARE(plant(m_hostile, "CREATE TRIGGER zz_flip AFTER INSERT ON verdict BEGIN "
                                  "UPDATE verdict SET status = 'pass' WHERE stage = new.stage; END;"),
                 QString());
    }

    void refusesNamesTheTriggerAndOffersACleanCopy() {
        std::unique_ptr<gui::MainWindow> window;
        QString error = testing::showMainWindow(window, QSize(1200, 760));
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(window->openProject(m_good));
        const QByteArray before = sha256(m_hostile);

        // Opened directly: refused, the current project stays.
        QVERIFY(!window->openProject(m_hostile, false, &error));
        QVERIFY2(error.contains(QStringLiteral("a trigger zz_flip that moewb did not create")), qPrintable(error));
        QCOMPARE(window->project()->path(), m_good);

        // From the start screen: the box names the trigger and offers the clean copy.
        window->closeProject();
        const QString cleanPath = m_dir.filePath(QStringLiteral("from-a-colleague-clean.moewb"));
        QString suggested;
        window->setCleanCopyTarget([&suggested, cleanPath](const QString& s) {
            suggested = s;
            return cleanPath;
        });
        QString boxText;
        bool offered = false;
        whenBoxShown(QStringLiteral("foreignSchemaBox"), [&](QMessageBox* box) {
            boxText = box->text();
            auto* save = box->findChild<QPushButton*>(QStringLiteral("saveCleanCopy"));
            offered = save && save->text().contains(QStringLiteral("clean copy"));
            // The copy written: its box offers to open it.
            whenBoxShown(QStringLiteral("cleanCopyWrittenBox"), [](QMessageBox* written) {
                auto* open = written->findChild<QPushButton*>(QStringLiteral("openCleanCopy"));
                QVERIFY(open);
                open->click();
            });
            if (save)
                save->click();
            else
                box->reject();
        });
        QSignalSpy written(window.get(), &gui::MainWindow::cleanCopyWritten);
        emit window->startScreen()->openPath(m_hostile);
        QVERIFY2(boxText.contains(QStringLiteral("zz_flip")) && boxText.contains(QStringLiteral("not opened")),
                 qPrintable(boxText));
        QVERIFY(offered);
        QCOMPARE(suggested, cleanPath);
        QVERIFY(written.wait(60000) || written.count() == 1);
        QCOMPARE(written.first().at(0).toBool(), true);
        QTRY_VERIFY_WITH_TIMEOUT(window->project() && window->project()->path() == cleanPath, 30000);

        // The clean copy holds the run and the stop; the original is as it was.
        QCOMPARE(window->project()->runs().size(), 1);
        QCOMPARE(window->project()->verdict(3)->status, QStringLiteral("stop"));
        QCOMPARE(sha256(m_hostile), before);
        QCOMPARE(verdictOf(m_hostile, 3), QStringLiteral("stop"));

        // The window stays usable: it opens the good project again.
        QVERIFY(window->isVisible());
        QVERIFY(window->openProject(m_good));
        QCOMPARE(window->project()->path(), m_good);
        testing::closeMainWindow(window);
    }
};

QTEST_MAIN(TestHostileProjectWindow)
#include "test_hostile_project_window.moc"
