// ProxyJump through real OpenSSH: ~/.ssh/config's `Host target` has `ProxyJump jump`;
// libssh 0.10 turns it into a ProxyCommand running OpenSSH's `ssh -W`, which SshSession
// gives the session's own config file, known_hosts (strict) and keys. Five sshd on
// 127.0.0.x: the jump host, targets with a known and an unknown host key, a jump host
// that forwards nothing, and a jump host whose own key is unknown.
#include "SshdCluster.h"
#include "ssh/RemoteCommand.h"
#include "ssh/SshSession.h"

#include <QFile>
#include <QTest>

using namespace moewb;

class TestRemoteProxyJump : public QObject {
    Q_OBJECT

    static remote::SshOptions optionsFor(const SshdCluster& c, const QString& alias) {
        remote::SshOptions o;
        o.node = remote::NodeAddress{{}, alias, 0};
        o.sshDir = c.sshDir();
        o.configFile = c.sshDir() + QStringLiteral("/config");
        o.knownHostsFile = c.sshDir() + QStringLiteral("/known_hosts");
        o.useAgent = false;
        o.connectTimeoutMs = 10000;
        return o;
    }

    static QStringList jumpProcesses(const SshdCluster& c) {
        return SshdCluster::processesMatching(c.dir()).filter(QStringLiteral(" -W "));
    }

private slots:
    void commandsAndHostKeysThroughJumpHost() {
        SshdCluster c;
        QList<SshdCluster::NodeSpec> specs(5);
        specs[2].knownHost = false;      // a target whose host key is unknown
        specs[3].tcpForwarding = false;  // a jump host that forwards nothing
        specs[4].knownHost = false;      // a jump host whose own key is unknown
        const QString e = c.start(5, specs);
        QVERIFY2(e.isEmpty(), qPrintable(e));
        {
            QFile f(c.sshDir() + QStringLiteral("/config"));
            QVERIFY(f.open(QIODevice::Append));
            auto host = [&](const QString& alias, int i, const QString& jump) {
                f.write(QStringLiteral("Host %1\n  HostName %2\n  Port %3\n  User %4\n%5")
                            .arg(alias, c.ip(i))
                            .arg(c.port(i))
                            .arg(c.user(), jump.isEmpty() ? QString() : QStringLiteral("  ProxyJump %1\n").arg(jump))
                            .toUtf8());
            };
            host(QStringLiteral("jump"), 0, {});
            host(QStringLiteral("target"), 1, QStringLiteral("jump"));
            host(QStringLiteral("target-unknown"), 2, QStringLiteral("jump"));
            host(QStringLiteral("nofwd"), 3, {});
            host(QStringLiteral("target-nofwd"), 1, QStringLiteral("nofwd"));
            host(QStringLiteral("jump-unknown"), 4, {});
            host(QStringLiteral("target-jump-unknown"), 1, QStringLiteral("jump-unknown"));
        }

        // 1. A command on the target, through the jump host (and SFTP-free capture).
        {
            auto s = remote::SshSession::connect(optionsFor(c, QStringLiteral("target")));
            QVERIFY2(s, s ? "" : qPrintable(s.error().message));
            QCOMPARE((*s)->host(), c.ip(1));
            QVERIFY2(!jumpProcesses(c).isEmpty(), "no ssh -W process: not through the jump host");
            auto r = remote::RemoteCommand::capture(**s, {QStringLiteral("sh"), QStringLiteral("-c"),
                                                          QStringLiteral("echo \"through $SSH_CONNECTION\"")},
                                                    20000);
            QVERIFY2(r, r ? "" : qPrintable(r.error().message));
            QCOMPARE(r->exitStatus, 0);
            // The target sees the connection arrive on its own address and port.
            QVERIFY2(QString::fromUtf8(r->out).trimmed().endsWith(QStringLiteral("%1 %2").arg(c.ip(1)).arg(c.port(1))),
                     r->out.constData());
            QVERIFY(QString::fromUtf8(r->out).startsWith(QStringLiteral("through ")));
        }
        // The jump process ends with the session.
        QTRY_VERIFY2_WITH_TIMEOUT(jumpProcesses(c).isEmpty(), qPrintable(jumpProcesses(c).join('\n')), 3000);

        // 2. The same target behind a jump host that forwards nothing: no connection,
        //    so the one above really went through the jump host.
        {
            auto s = remote::SshSession::connect(optionsFor(c, QStringLiteral("target-nofwd")));
            QVERIFY(!s);
            QVERIFY2(s.error().message.contains(QStringLiteral("through ProxyJump nofwd")), qPrintable(s.error().message));
        }

        // 3. The target's host key is unknown: refused by the strict policy (libssh
        //    checks it, as for a direct connection), asked when a callback is given.
        {
            auto s = remote::SshSession::connect(optionsFor(c, QStringLiteral("target-unknown")));
            QVERIFY(!s);
            QCOMPARE(s.error().kind, remote::RemoteError::Kind::HostKeyUnknown);
            QStringList asked;
            auto o = optionsFor(c, QStringLiteral("target-unknown"));
            o.hostKeys = remote::KnownHostsPolicy::ask([&](const remote::HostKeyInfo& k) {
                asked << k.fingerprint;
                return false;
            });
            s = remote::SshSession::connect(o);
            QVERIFY(!s);
            QCOMPARE(asked, QStringList{c.hostKeyFingerprint(2)});
        }

        // 4. The jump host's own key is unknown: OpenSSH refuses it (strict, never asked),
        //    and its message comes back.
        {
            auto o = optionsFor(c, QStringLiteral("target-jump-unknown"));
            o.hostKeys = remote::KnownHostsPolicy::acceptUnknown();  // the target's policy only
            auto s = remote::SshSession::connect(o);
            QVERIFY(!s);
            QVERIFY2(s.error().message.contains(QStringLiteral("through ProxyJump jump-unknown")) &&
                         s.error().message.contains(QStringLiteral("Host key verification failed")),
                     qPrintable(s.error().message));
        }
        QTRY_VERIFY2_WITH_TIMEOUT(jumpProcesses(c).isEmpty(), qPrintable(jumpProcesses(c).join('\n')), 3000);
    }
};

QTEST_GUILESS_MAIN(TestRemoteProxyJump)
#include "test_remote_proxyjump.moc"
