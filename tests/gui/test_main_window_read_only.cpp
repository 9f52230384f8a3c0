// A project on read-only media, in the real window: the title and the status bar say
// "read-only". Read-only for root too: the test runs itself again inside a private
// mount namespace (unshare -m) with the project's folder bind-mounted read-only.
#include "MainWindow.h"
#include "store/ProjectStore.h"

#include <QLabel>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace moewb;

namespace {
const char* const kChildProject = "MOEWB_READ_ONLY_CHILD_PROJECT";
}

class TestMainWindowReadOnly : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName(QStringLiteral("moewb-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("test_main_window_read_only"));
        QVERIFY(m_dir.isValid());
        qputenv("XDG_CONFIG_HOME", m_dir.filePath(QStringLiteral("config")).toUtf8());
    }

    void titleAndStatusSayReadOnly() {
        const QString child = qEnvironmentVariable(kChildProject);
        if (!child.isEmpty()) { // inside the mount namespace: the folder is read-only
            gui::MainWindow window;
            window.show();
            QVERIFY(window.openProject(child));
            QVERIFY(window.project()->readOnly());
            QVERIFY2(window.windowTitle() == QStringLiteral("p.moewb (read-only) — MoE Workbench"),
                     qPrintable(window.windowTitle()));
            QVERIFY(window.findChild<QLabel*>(QStringLiteral("projectPathLabel"))
                        ->text()
                        .endsWith(QStringLiteral(" — read-only")));
            return;
        }
        const QString folder = m_dir.filePath(QStringLiteral("media"));
        QVERIFY(QDir().mkpath(folder));
        const QString path = folder + QStringLiteral("/p.moewb");
        {
            auto project = store::ProjectStore::open(path);
            QVERIFY(project);
            QVERIFY(project.value()->addConfigRecord(QStringLiteral("moe"), {}, false));
        }
        { // writable: no "read-only" anywhere
            gui::MainWindow window;
            QVERIFY(window.openProject(path));
            QVERIFY(!window.project()->readOnly());
            QCOMPARE(window.windowTitle(), QStringLiteral("p.moewb — MoE Workbench"));
        }
        const QString script = QStringLiteral("mount --bind -o ro '%1' '%1' && exec '%2' titleAndStatusSayReadOnly")
                                   .arg(folder, QCoreApplication::applicationFilePath());
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QString::fromLatin1(kChildProject), path);
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        p.setProcessEnvironment(env);
        p.start(QStringLiteral("unshare"), {QStringLiteral("-m"), QStringLiteral("sh"), QStringLiteral("-c"), script});
        QVERIFY(p.waitForFinished(60000));
        const QString out = QString::fromUtf8(p.readAllStandardOutput() + p.readAllStandardError());
        if (p.exitCode() != 0 && (out.contains(QStringLiteral("unshare:")) || out.contains(QStringLiteral("mount:"))))
            QSKIP("a read-only bind mount in a private mount namespace is not possible here");
        QVERIFY2(p.exitCode() == 0, qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("PASS   : TestMainWindowReadOnly::titleAndStatusSayReadOnly()")),
                 qPrintable(out));
    }
};

QTEST_MAIN(TestMainWindowReadOnly)
#include "test_main_window_read_only.moc"
