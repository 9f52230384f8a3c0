// The run's secret on its way from the workbench to the ranks (StageOneSweep over real
// sshd nodes on 127.0.0.x; ProbeSecret): every rank of a sweep point holds the same new
// secret of 256 bits, no process on the machine has it in its command line while the
// probes run, and nothing of it is left in the nodes' home directories afterwards.
// Launchers: ssh (one probe per node) and mpirun (Open MPI, -x MOEWB_PROBE_SECRET).
#include "StageOneTestSupport.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <thread>

using namespace moewb;
using namespace stage1test;

namespace {

QByteArray readProc(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// pid -> MOEWB_PROBE_SECRET of every running moe-probe uploaded under dir (its
// executable's path: other tests may run probes on this machine meanwhile).
QMap<QString, QByteArray> probeSecrets(const QString& dir) {
    QMap<QString, QByteArray> out;
    for (const QString& pid : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
        if (!pid.front().isDigit())
            continue;
        const QString exe = QFile::symLinkTarget(QStringLiteral("/proc/%1/exe").arg(pid));
        if (!exe.startsWith(dir + QLatin1Char('/')) || !exe.endsWith(QLatin1String("/moe-probe")))
            continue;
        // The environment block as the process started (the probe unsets the variable
        // once read, which leaves its first copy in place: readable by the owner only).
        for (const QByteArray& kv : readProc(QStringLiteral("/proc/%1/environ").arg(pid)).split('\0'))
            if (kv.startsWith("MOEWB_PROBE_SECRET="))
                out[pid] = kv.mid(int(qstrlen("MOEWB_PROBE_SECRET=")));
    }
    return out;
}

// Command lines of every process on the machine that hold text.
QStringList commandLinesHolding(const QByteArray& text) {
    QStringList out;
    for (const QString& pid : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
        if (!pid.front().isDigit())
            continue;
        const QByteArray cmd = readProc(QStringLiteral("/proc/%1/cmdline").arg(pid));
        if (cmd.contains(text))
            out << QString::fromLocal8Bit(cmd).replace(QLatin1Char('\0'), QLatin1Char(' '));
    }
    return out;
}

// Files under dir that hold text, and secret files left behind.
QStringList filesHoldingOrLeft(const QString& dir, const QByteArray& text) {
    QStringList out;
    QDirIterator it(dir, QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        if (path.contains(QLatin1String(".moewb-probe-secret-")))
            out << path + QStringLiteral(" (left behind)");
        QFile f(path);
        if (f.size() < (64 << 20) && f.open(QIODevice::ReadOnly) && f.readAll().contains(text))
            out << path;
    }
    return out;
}

} // namespace

class TestProbeSecretHandoff : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;
    int m_n = 0;

    void checkHandoff(remote::StageOneRequest r, const SshdCluster& c) {
        r.messageSizes = {64u << 10};
        r.iterations = 1000000; // runs until cancelled
        Recorder rec;
        remote::StageOneSweep sweep(r, rec.events());
        std::atomic_bool finished{false};
        Expected<QStringList, remote::StageOneFailure> result = QStringList();
        std::thread worker([&] {
            result = sweep.run();
            finished.store(true);
        });
        QMap<QString, QByteArray> secrets;
        QElapsedTimer t;
        t.start();
        while (t.elapsed() < 60000 && !finished.load() && (secrets = probeSecrets(c.dir())).size() < 2)
            QTest::qWait(100);
        // While both ranks run: the same secret, 64 hex digits, in no command line.
        QStringList leaks;
        if (secrets.size() == 2)
            leaks = commandLinesHolding(secrets.first());
        sweep.cancel();
        worker.join();
        QVERIFY2(secrets.size() == 2, qPrintable(rec.logs.join('\n') +
                                                 (result ? QString() : result.error().summary())));
        const QByteArray secret = secrets.first();
        QVERIFY2(QRegularExpression(QStringLiteral("^[0-9a-f]{64}$")).match(QString::fromLatin1(secret)).hasMatch(),
                 secret.constData());
        QCOMPARE(secrets.last(), secret);
        QVERIFY2(leaks.isEmpty(), qPrintable(leaks.join('\n')));
        // Not in the sweep's own log either (it shows the commands it ran).
        for (const QString& l : rec.logs)
            QVERIFY2(!l.toLatin1().contains(secret), qPrintable(l));
        // Nothing of it on the nodes afterwards.
        for (int i = 0; i < c.size(); ++i) {
            const QStringList left = filesHoldingOrLeft(c.remoteHome(i), secret);
            QVERIFY2(left.isEmpty(), qPrintable(left.join('\n')));
        }
    }

private slots:
    void sshLauncherHandsTheSecretOutOfBand() {
        SshdCluster c;
        QVERIFY2(c.start(2).isEmpty(), "sshd");
        remote::StageOneRequest r =
            smallRequest(c, makeProject(m_tmp.filePath(QStringLiteral("p%1.moewb").arg(++m_n))));
        checkHandoff(r, c);
    }

    void mpirunLauncherForwardsTheSecretByName() {
        if (QStandardPaths::findExecutable(QStringLiteral("mpirun")).isEmpty())
            QFAIL("mpirun not found: install openmpi-bin (packaging/install-deps)");
        SshdCluster c;
        QVERIFY2(c.start(2).isEmpty(), "sshd");
        remote::StageOneRequest r =
            smallRequest(c, makeProject(m_tmp.filePath(QStringLiteral("p%1.moewb").arg(++m_n))));
        r.launcher = remote::Launcher::Mpirun;
        r.mpirunExtraArgs = {QStringLiteral("--allow-run-as-root"), QStringLiteral("--oversubscribe")};
        r.mpirunHosts = {QStringLiteral("localhost"), QStringLiteral("localhost")};
        r.rendezvousHost = QStringLiteral("127.0.0.1");
        checkHandoff(r, c);
    }
};

QTEST_GUILESS_MAIN(TestProbeSecretHandoff)
#include "test_probe_secret_handoff.moc"
