// `moewb reference` cancelled, and failing, leaves nothing behind: Ctrl-C (SIGINT) while
// a training runs ends the trainer and every process it started (its process group),
// exits 130, and removes the half-made project and its measurement folder; a trainer
// that fails is reported with its last stderr line, also with nothing kept.
// The trainer here is a stand-in script in MOEWB_REFERENCE_DIR (the real one takes
// minutes: test_e2e_reference runs it) that starts two child processes which ignore
// SIGTERM, so only the group's SIGKILL after the grace period ends them.
#include "../integration/MoewbCli.h"
#include "ReferenceTrainerStub.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

#include <csignal>
#include <sys/types.h>

class TestReferenceCancel : public QObject {
    Q_OBJECT
    QTemporaryDir m_home;
    QString m_stub;

    void writeStub(const QString& body) { QVERIFY(moewb::testing::writeTrainerStub(m_stub, body)); }

private slots:
    void initTestCase() {
        QVERIFY(m_home.isValid());
        if (!QFileInfo(QStringLiteral("/usr/bin/python3")).isExecutable())
            QSKIP("no /usr/bin/python3");
        m_stub = m_home.filePath(QStringLiteral("stub"));
    }

    void ctrlCEndsEveryProcessAndKeepsNothing() {
        const QString pids = m_home.filePath(QStringLiteral("pids"));
        writeStub(QStringLiteral(R"(import os, signal, subprocess, sys, time
out = sys.argv[sys.argv.index("--out") + 1]
os.makedirs(out, exist_ok=True)
open(os.path.join(out, "partial.txt"), "w").write("half")
child = "import signal, time\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\ntime.sleep(600)\n"
procs = [subprocess.Popen([sys.executable, "-c", child]) for _ in range(2)]
with open(%1, "w") as f:
    f.write(" ".join(str(p.pid) for p in procs + [None] if p) + " " + str(os.getpid()))
print("progress 0.1 iteration 1/10", flush=True)
time.sleep(600)
)")
                      .arg(QStringLiteral("\"") + pids + QStringLiteral("\"")));
        const QString project = m_home.filePath(QStringLiteral("cancel.moewb"));
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HOME"), m_home.path());
        env.insert(QStringLiteral("XDG_DATA_HOME"), m_home.filePath(QStringLiteral("data")));
        env.insert(QStringLiteral("MOEWB_REFERENCE_DIR"), m_stub);
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(MOEWB_CLI), {QStringLiteral("reference"), QStringLiteral("--quick"),
                                            QStringLiteral("--no-cluster-b"), QStringLiteral("-o"), project});
        QVERIFY(p.waitForStarted());
        QElapsedTimer t;
        t.start();
        while (!QFileInfo::exists(pids) && t.elapsed() < 30000)
            QThread::msleep(50);
        QVERIFY2(QFileInfo::exists(pids), qPrintable(QString::fromUtf8(p.readAllStandardError())));
        QThread::msleep(300);
        QFile f(pids);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QList<qint64> started;
        for (const QByteArray& w : f.readAll().split(' '))
            if (!w.trimmed().isEmpty())
                started << w.trimmed().toLongLong();
        QCOMPARE(started.size(), 3);
        // The temporary project exists while it runs.
        QVERIFY(!QDir(m_home.path()).entryList({QStringLiteral(".cancel.moewb.*.tmp")}, QDir::Files | QDir::Hidden).isEmpty());

        ::kill(pid_t(p.processId()), SIGINT);
        t.restart();
        QVERIFY(p.waitForFinished(15000));
        const qint64 took = t.elapsed();
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 130);
        QVERIFY2(took < 8000, qPrintable(QString::number(took)));
        QVERIFY(QString::fromUtf8(p.readAllStandardError()).contains(QStringLiteral("nothing was kept")));
        for (qint64 pid : started)
            QVERIFY2(!moewb::testing::processRunning(pid), qPrintable(QStringLiteral("process %1 still runs").arg(pid)));
        QVERIFY(!QFileInfo::exists(project));
        QVERIFY(!QFileInfo::exists(m_home.filePath(QStringLiteral("cancel.reference-data"))));
        QVERIFY(QDir(m_home.path()).entryList({QStringLiteral(".cancel.moewb*")}, QDir::Files | QDir::Hidden).isEmpty());
    }

    void aFailedTrainingKeepsNothing() {
        writeStub(QStringLiteral(R"(import sys
print("progress 0.5 iteration 5/10", flush=True)
sys.stderr.write("reference_train.py: the corpus folder is empty\n")
sys.exit(3)
)"));
        const QString project = m_home.filePath(QStringLiteral("fail.moewb"));
        const CliResult r = [&] {
            qputenv("MOEWB_REFERENCE_DIR", m_stub.toUtf8());
            CliResult out = runMoewb(m_home.path(), {QStringLiteral("reference"), QStringLiteral("--quick"),
                                                     QStringLiteral("--no-cluster-b"), QStringLiteral("-o"), project},
                                     60000);
            qunsetenv("MOEWB_REFERENCE_DIR");
            return out;
        }();
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(r.err.contains(QStringLiteral("the dense training failed (exit 3)")), qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("the corpus folder is empty")), qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(project));
        QVERIFY(!QFileInfo::exists(m_home.filePath(QStringLiteral("fail.reference-data"))));
        QVERIFY(QDir(m_home.path()).entryList({QStringLiteral(".fail.moewb*")}, QDir::Files | QDir::Hidden).isEmpty());
    }

    void anExistingProjectIsNotReplaced() {
        const QString project = m_home.filePath(QStringLiteral("kept.moewb"));
        QFile f(project);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("mine");
        f.close();
        const CliResult r = runMoewb(m_home.path(), {QStringLiteral("reference"), QStringLiteral("-o"), project}, 60000);
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(r.err.contains(QStringLiteral("already exists")), qPrintable(r.err));
        QFile back(project);
        QVERIFY(back.open(QIODevice::ReadOnly));
        QCOMPARE(back.readAll(), QByteArray("mine"));
    }
};

QTEST_GUILESS_MAIN(TestReferenceCancel)
#include "test_reference_cancel.moc"
