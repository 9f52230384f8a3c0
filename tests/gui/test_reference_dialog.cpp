// Start screen ▸ "Measure a reference evaluation on this computer" through the real
// window: the button opens ReferenceDialog with its default project; a trainer that
// fails is reported in the dialog and leaves nothing; Cancel while a trainer runs ends it
// (and every process it started) and closes the dialog, leaving nothing; a project that
// carries the reference marker shows its banner above the pages. The trainer is a
// stand-in script (MOEWB_REFERENCE_DIR); the real run is tests/e2e/test_e2e_reference.
#include "../e2e/ReferenceTrainerStub.h"
#include "MainWindow.h"
#include "ReferenceDialog.h"
#include "ReferenceMarker.h"
#include "StartScreen.h"
#include "store/ProjectStore.h"

#include <QCheckBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QTemporaryDir>
#include <QtTest>

using namespace moewb;

class TestReferenceDialog : public QObject {
    Q_OBJECT
    QTemporaryDir m_home;
    QString m_stub;

    void writeStub(const QString& body) { QVERIFY(moewb::testing::writeTrainerStub(m_stub, body)); }

    gui::ReferenceDialog* openDialog(gui::MainWindow& w) {
        w.startScreen()->referenceButton()->click();
        return w.findChild<gui::ReferenceDialog*>();
    }

private slots:
    void initTestCase() {
        QVERIFY(m_home.isValid());
        qputenv("HOME", m_home.path().toUtf8());
        qputenv("XDG_DATA_HOME", m_home.filePath(QStringLiteral("data")).toUtf8());
        qputenv("XDG_CONFIG_HOME", m_home.filePath(QStringLiteral("config")).toUtf8());
        m_stub = m_home.filePath(QStringLiteral("stub"));
        qputenv("MOEWB_REFERENCE_DIR", m_stub.toUtf8());
        if (!QFileInfo(QStringLiteral("/usr/bin/python3")).isExecutable())
            QSKIP("no /usr/bin/python3");
    }

    void theButtonOpensTheDialogAndAFailureIsShown() {
        writeStub(QStringLiteral("import sys\nprint('progress 0.5 iteration 5/10', flush=True)\n"
                                 "sys.stderr.write('reference_train.py: no corpus here\\n')\nsys.exit(3)\n"));
        gui::MainWindow w;
        w.show();
        QVERIFY(w.startScreen()->referenceButton()->isVisible());
        gui::ReferenceDialog* d = openDialog(w);
        QVERIFY(d);
        QVERIFY(d->isVisible());
        QCOMPARE(QDir::fromNativeSeparators(d->pathEdit()->text()), gui::ReferenceDialog::defaultPath());
        QVERIFY(gui::ReferenceDialog::defaultPath().startsWith(m_home.path()));
        const QString project = m_home.filePath(QStringLiteral("failed.moewb"));
        d->pathEdit()->setText(project);
        d->startButton()->click();
        QVERIFY(d->running());
        QTRY_VERIFY_WITH_TIMEOUT(!d->running(), 60000);
        QVERIFY2(d->statusLabel()->text().contains(QStringLiteral("no corpus here")), qPrintable(d->statusLabel()->text()));
        QVERIFY(d->startButton()->isEnabled()); // can try again
        QVERIFY(!QFileInfo::exists(project));
        QVERIFY(!QFileInfo::exists(m_home.filePath(QStringLiteral("failed.reference-data"))));
    }

    void cancelEndsTheTrainerAndKeepsNothing() {
        const QString pids = m_home.filePath(QStringLiteral("pids"));
        writeStub(QStringLiteral("import os, subprocess, sys, time\n"
                                 "child = 'import signal, time\\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\\ntime.sleep(600)\\n'\n"
                                 "p = subprocess.Popen([sys.executable, '-c', child])\n"
                                 "open(%1, 'w').write('%d %d' % (p.pid, os.getpid()))\n"
                                 "print('progress 0.2 iteration 2/10', flush=True)\n"
                                 "time.sleep(600)\n")
                      .arg(QStringLiteral("'") + pids + QStringLiteral("'")));
        gui::MainWindow w;
        w.show();
        QPointer<gui::ReferenceDialog> d = openDialog(w);
        QVERIFY(d);
        const QString project = m_home.filePath(QStringLiteral("cancelled.moewb"));
        d->pathEdit()->setText(project);
        d->startButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(pids), 30000);
        QTRY_VERIFY_WITH_TIMEOUT(d->statusLabel()->text().contains(QStringLiteral("iteration 2/10")), 10000);
        QVERIFY(d->progressBar()->value() > 0);
        QFile f(pids);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QByteArray> words = f.readAll().split(' ');
        QCOMPARE(words.size(), 2);
        d->cancelButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(d.isNull() || !d->isVisible(), 15000);
        for (const QByteArray& pid : words)
            QVERIFY2(!moewb::testing::processRunning(pid.toLongLong()), pid.constData());
        QVERIFY(!QFileInfo::exists(project));
        QVERIFY(!QFileInfo::exists(m_home.filePath(QStringLiteral("cancelled.reference-data"))));
        QVERIFY(QDir(m_home.path()).entryList({QStringLiteral(".cancelled.moewb*")}, QDir::Files | QDir::Hidden).isEmpty());
    }

    void aReferenceProjectShowsItsBanner() {
        const QString path = m_home.filePath(QStringLiteral("marked.moewb"));
        {
            auto opened = store::ProjectStore::open(path);
            QVERIFY(opened);
            reference::ReferenceInfo info;
            info.stageFourMeasured = false;
            info.stageFourWhyNot = QStringLiteral("not root.");
            store::ClusterRow c;
            c.name = QStringLiteral("A-loopback");
            c.facts.insert(QString::fromLatin1(reference::kMarkerKey), reference::markerJson(info));
            QVERIFY(opened.value()->addCluster(c, {}));
        }
        gui::MainWindow w;
        w.show();
        QVERIFY(w.openProject(path));
        auto* banner = w.findChild<QLabel*>(QStringLiteral("referenceBanner"));
        QVERIFY(banner);
        QVERIFY(banner->isVisible());
        QVERIFY(banner->text().startsWith(QStringLiteral("Measured on this computer: CPU, gloo, tiny model")));
        QVERIFY(banner->text().contains(QStringLiteral("Stage 4 was not measured: not root.")));
        QVERIFY(banner->text().contains(QStringLiteral("moewb cluster add")));
        // An ordinary project: no banner.
        const QString plain = m_home.filePath(QStringLiteral("plain.moewb"));
        QVERIFY(store::ProjectStore::open(plain));
        QVERIFY(w.openProject(plain));
        QVERIFY(!banner->isVisible());
    }
};

QTEST_MAIN(TestReferenceDialog)
#include "test_reference_dialog.moc"
