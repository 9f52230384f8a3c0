// A key no agent holds, protected by a passphrase: the CLI's session asks for it on
// the terminal with echo off (driven here through a real pseudo-terminal), connects,
// and the passphrase shows nowhere; without a terminal the error says so and what to
// do. Real sshd (SshdFixture), real encrypted key.
#include "SshdFixture.h"

#include <QProcess>
#include <QStandardPaths>
#include <QUuid>
#include <QtTest>

namespace {

// Runs the child under a pseudo-terminal, answers its prompt with `answer`, and
// returns everything the terminal showed.
QString throughTerminal(const QStringList& childArgs, const QString& answer, int* exitCode) {
    QProcess p;
    p.start(QStringLiteral("/usr/bin/python3"),
            QStringList{QStringLiteral(PTY_ANSWER), answer, QStringLiteral(SSH_CONNECT_CHILD)} +
                childArgs);
    if (!p.waitForFinished(130000)) {
        p.kill();
        p.waitForFinished();
    }
    *exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    return QString::fromUtf8(p.readAllStandardOutput()) + QString::fromUtf8(p.readAllStandardError());
}

} // namespace

class TestSshPassphrase : public QObject {
    Q_OBJECT

private slots:
    void askedOnTheTerminalWithEchoOff() {
        SshdFixture fx;
        const QString why = fx.start();
        if (!why.isEmpty())
            QSKIP(qPrintable(why));
        fx.writeKnownHosts(QStringLiteral("hostkey_a"));
        const QString secret = QStringLiteral("pw%1").arg(QUuid::createUuid().toString(QUuid::Id128));
        const QString locked = fx.key(QStringLiteral("locked"), QStringLiteral("ed25519"), secret);
        fx.authorize(locked);
        fx.installClientKey(locked);
        const QStringList args{fx.user(), fx.ip(), QString::number(fx.port()), fx.sshDir()};

        int rc = -1;
        const QString shown = throughTerminal(args, secret, &rc);
        QVERIFY2(rc == 0, qPrintable(shown));
        QVERIFY2(shown.contains(QStringLiteral("no ssh-agent holds this key")), qPrintable(shown));
        QVERIFY2(shown.contains(QStringLiteral("connected")), qPrintable(shown));
        QVERIFY2(!shown.contains(secret), qPrintable(shown)); // echo was off

        const QString wrong = throughTerminal(args, QStringLiteral("wrong-passphrase"), &rc);
        QCOMPARE(rc, 1);
        QVERIFY2(wrong.contains(QStringLiteral("authentication refused")), qPrintable(wrong));
        QVERIFY2(!wrong.contains(QStringLiteral("wrong-passphrase")), qPrintable(wrong));
    }

    void withoutATerminalTheErrorSaysSo() {
        SshdFixture fx;
        const QString why = fx.start();
        if (!why.isEmpty())
            QSKIP(qPrintable(why));
        fx.writeKnownHosts(QStringLiteral("hostkey_a"));
        const QString locked = fx.key(QStringLiteral("locked"), QStringLiteral("ed25519"), QStringLiteral("secret-pw"));
        fx.authorize(locked);
        fx.installClientKey(locked);
        // setsid: a new session without a controlling terminal, as a batch job has.
        QProcess p;
        p.setStandardInputFile(QProcess::nullDevice());
        p.start(QStringLiteral("setsid"), {QStringLiteral("-w"), QStringLiteral(SSH_CONNECT_CHILD), fx.user(), fx.ip(),
                                           QString::number(fx.port()), fx.sshDir()});
        QVERIFY(p.waitForFinished(30000));
        const QString out = QString::fromUtf8(p.readAllStandardOutput());
        QCOMPARE(p.exitCode(), 1);
        QVERIFY2(out.contains(QStringLiteral("there is no terminal to ask it on: add the key to ssh-agent (ssh-add)")),
                 qPrintable(out));
    }
};

QTEST_GUILESS_MAIN(TestSshPassphrase)
#include "test_ssh_passphrase.moc"
