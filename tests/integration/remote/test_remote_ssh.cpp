// Integration tests of remote/ against a real sshd on 127.0.0.x (see SshdFixture).
#include "NodeAddress.h"
#include "SshdFixture.h"
#include "ssh/RemoteCommand.h"
#include "ssh/SftpUpload.h"
#include "ssh/ShellQuote.h"
#include "ssh/SshSession.h"

#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QTest>
#include <QThread>
#include <QUuid>
#include <QDir>
#include <QDateTime>
#include <QProcess>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <thread>

using namespace moewb::remote;

namespace {

#define START(fx)                                   \
    do {                                            \
        const QString why = (fx).start();           \
        QVERIFY2(why.isEmpty(), qPrintable(why));   \
    } while (0)

QString errorOf(const moewb::Expected<std::unique_ptr<SshSession>, RemoteError>& r) {
    return r ? QString() : r.error().message;
}

// Lines of the node's process table (ps -ww -eo pid,pgid,args: whole command lines,
// whatever COLUMNS says) that contain marker.
QStringList processesWith(const QString& marker) {
    const QString out = SshdFixture::run(QStringLiteral("ps"), {QStringLiteral("-ww"), QStringLiteral("-eo"), QStringLiteral("pid,pgid,args")});
    QStringList hits;
    for (const QString& line : out.split(QLatin1Char('\n')))
        if (line.contains(marker))
            hits << line;
    return hits;
}

} // namespace

class TestRemoteSsh : public QObject {
    Q_OBJECT
private slots:
    void nodeAddress_data();
    void nodeAddress();
    void shellQuote();
    void knownHostProceeds();
    void unknownHostRefusedThenAccepted();
    void changedHostKeyRefused();
    void otherKeyTypeRefused();
    void wrongKeyRefused();
    void passphraseAskedNotStored();
    void nothingListeningFailsFast();
    void silentNodeTimesOut();
    void cancelWhileConnecting();
    void hostileArgvRoundTrips();
    void streamingAndExitStatus();
    void cancelLeavesNoProcess();
    void timeoutLeavesNoProcess();
    void cancelIsPrompt();
    void stopBeforeStartLeavesNothing();
    void lostClientEndsTheCommand();
    void killGroupEndsAGroupThatIgnoresTerm();
    void sftpUploadSkipVerify();
    void sessionBelongsToItsThread();
};

void TestRemoteSsh::nodeAddress_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<QString>("user");
    QTest::addColumn<QString>("host");
    QTest::addColumn<int>("port");
    QTest::newRow("alias") << "gpu-node-01" << true << "" << "gpu-node-01" << 0;
    QTest::newRow("user@host:port") << "alice@10.0.0.5:2222" << true << "alice" << "10.0.0.5" << 2222;
    QTest::newRow("host:port") << "n1.example.org:22" << true << "" << "n1.example.org" << 22;
    QTest::newRow("ipv6") << "bob@[fe80::1%eth0]:2200" << true << "bob" << "fe80::1%eth0" << 2200;
    QTest::newRow("ipv6 no port") << "[::1]" << true << "" << "::1" << 0;
    QTest::newRow("ipv6 bare") << "::1" << false << "" << "" << 0;
    QTest::newRow("bad port") << "h:99999" << false << "" << "" << 0;
    QTest::newRow("empty") << "" << false << "" << "" << 0;
    QTest::newRow("option") << "-oProxyCommand=x" << false << "" << "" << 0;
    QTest::newRow("shell") << "h;rm" << false << "" << "" << 0;
    QTest::newRow("empty user") << "@h" << false << "" << "" << 0;
}

void TestRemoteSsh::nodeAddress() {
    QFETCH(QString, text);
    QFETCH(bool, ok);
    auto a = NodeAddress::parse(text);
    QCOMPARE(a.hasValue(), ok);
    if (!ok) {
        QVERIFY(a.error().contains(text));
        return;
    }
    QFETCH(QString, user);
    QFETCH(QString, host);
    QFETCH(int, port);
    QCOMPARE(a->user, user);
    QCOMPARE(a->host, host);
    QCOMPARE(a->port, port);
    QCOMPARE(NodeAddress::parse(a->display())->host, host);
}

void TestRemoteSsh::shellQuote() {
    QCOMPARE(moewb::remote::shellQuote(QString()), QStringLiteral("''"));
    QCOMPARE(moewb::remote::shellQuote(QStringLiteral("a b")), QStringLiteral("'a b'"));
    QCOMPARE(moewb::remote::shellQuote(QStringLiteral("it's")), QStringLiteral("'it'\\''s'"));
    QCOMPARE(shellJoin({QStringLiteral("echo"), QStringLiteral("$(x)")}), QStringLiteral("'echo' '$(x)'"));
}

void TestRemoteSsh::knownHostProceeds() {
    SshdFixture fx;
    START(fx);
    fx.writeKnownHosts(QStringLiteral("hostkey_a"));
    auto o = fx.options();
    bool asked = false;
    o.hostKeys = KnownHostsPolicy::ask([&](const HostKeyInfo&) { return asked = true; });
    auto s = SshSession::connect(o);
    QVERIFY2(s, qPrintable(errorOf(s)));
    QVERIFY(!asked);
    auto r = RemoteCommand::run(**s, {QStringLiteral("true")});
    QVERIFY2(r, r ? "" : qPrintable(r.error().message));
    QCOMPARE(r->exitStatus, 0);

    // An ~/.ssh/config alias resolves host, port and user.
    auto o2 = fx.options();
    o2.node = NodeAddress{QString(), QStringLiteral("testnode"), 0};
    o2.hostKeys = KnownHostsPolicy::refuseUnknown();
    auto s2 = SshSession::connect(o2);
    QVERIFY2(s2, qPrintable(errorOf(s2)));
}

void TestRemoteSsh::unknownHostRefusedThenAccepted() {
    SshdFixture fx;
    START(fx);
    auto o = fx.options();
    const QString node = o.node.display();
    const QString fp = fx.fingerprint(fx.dir() + QStringLiteral("/hostkey_a"));
    QVERIFY(fp.startsWith(QLatin1String("SHA256:")));

    o.hostKeys = KnownHostsPolicy::refuseUnknown();
    auto refused = SshSession::connect(o);
    QVERIFY(!refused);
    QCOMPARE(refused.error().kind, RemoteError::Kind::HostKeyUnknown);
    QVERIFY2(refused.error().message.contains(node), qPrintable(refused.error().message));
    QVERIFY2(refused.error().message.contains(fp), qPrintable(refused.error().message));
    QVERIFY(!QFile::exists(o.knownHostsFile) || QFile(o.knownHostsFile).size() == 0);

    HostKeyInfo seen;
    o.hostKeys = KnownHostsPolicy::ask([&](const HostKeyInfo& i) {
        seen = i;
        return false;
    });
    QVERIFY(!SshSession::connect(o));
    QCOMPARE(seen.fingerprint, fp);
    QCOMPARE(seen.keyType, QStringLiteral("ssh-ed25519"));

    o.hostKeys = KnownHostsPolicy::acceptUnknown();
    {
        auto accepted = SshSession::connect(o);
        QVERIFY2(accepted, qPrintable(errorOf(accepted)));
    }
    QFile kh(o.knownHostsFile);
    QVERIFY(kh.open(QIODevice::ReadOnly));
    const QByteArray text = kh.readAll();
    QVERIFY2(text.contains(QStringLiteral("[%1]:%2 ssh-ed25519 ").arg(fx.ip()).arg(fx.port()).toUtf8()) ||
                 text.startsWith("|1|"),
             text.constData());

    bool asked = false;
    o.hostKeys = KnownHostsPolicy::ask([&](const HostKeyInfo&) { return asked = true; });
    auto silent = SshSession::connect(o);
    QVERIFY2(silent, qPrintable(errorOf(silent)));
    QVERIFY(!asked);
}

void TestRemoteSsh::changedHostKeyRefused() {
    SshdFixture fx;
    START(fx);
    auto o = fx.options();
    o.hostKeys = KnownHostsPolicy::acceptUnknown();
    QVERIFY(SshSession::connect(o));
    const QString fpA = fx.fingerprint(fx.dir() + QStringLiteral("/hostkey_a"));
    fx.stop();
    const QString why = fx.start(QStringLiteral("hostkey_b"));
    QVERIFY2(why.isEmpty(), qPrintable(why));
    const QString fpB = fx.fingerprint(fx.dir() + QStringLiteral("/hostkey_b"));
    QVERIFY(fpA != fpB);
    QElapsedTimer t;
    t.start();
    auto r = SshSession::connect(o);  // even with acceptUnknown: a changed key is never accepted
    QVERIFY(!r);
    QVERIFY(t.elapsed() < o.connectTimeoutMs + 1000);
    QCOMPARE(r.error().kind, RemoteError::Kind::HostKeyChanged);
    const QString m = r.error().message;
    QVERIFY2(m.contains(o.node.display()), qPrintable(m));
    QVERIFY2(m.contains(fpA), qPrintable(m));
    QVERIFY2(m.contains(fpB), qPrintable(m));
    QVERIFY2(m.contains(QLatin1String("CHANGED")), qPrintable(m));
}

void TestRemoteSsh::otherKeyTypeRefused() {
    SshdFixture fx;
    START(fx);
    auto o = fx.options();
    o.hostKeys = KnownHostsPolicy::acceptUnknown();
    QVERIFY(SshSession::connect(o));
    const QString fpA = fx.fingerprint(fx.dir() + QStringLiteral("/hostkey_a"));
    fx.stop();
    const QString why = fx.start(QStringLiteral("hostkey_ecdsa"), QStringLiteral("ecdsa"));
    QVERIFY2(why.isEmpty(), qPrintable(why));
    const QString fpE = fx.fingerprint(fx.dir() + QStringLiteral("/hostkey_ecdsa"));
    auto r = SshSession::connect(o);
    QVERIFY(!r);
    QCOMPARE(r.error().kind, RemoteError::Kind::HostKeyChanged);
    QVERIFY2(r.error().message.contains(fpA) && r.error().message.contains(fpE), qPrintable(r.error().message));
}

void TestRemoteSsh::wrongKeyRefused() {
    SshdFixture fx;
    START(fx);
    fx.writeKnownHosts(QStringLiteral("hostkey_a"));
    fx.installClientKey(fx.key(QStringLiteral("stranger")));
    auto o = fx.options();
    QElapsedTimer t;
    t.start();
    auto r = SshSession::connect(o);
    QVERIFY(!r);
    QVERIFY(t.elapsed() < o.connectTimeoutMs + 1000);
    QCOMPARE(r.error().kind, RemoteError::Kind::AuthRefused);
    QVERIFY2(r.error().message.contains(o.node.display()), qPrintable(r.error().message));
}

void TestRemoteSsh::passphraseAskedNotStored() {
    SshdFixture fx;
    START(fx);
    fx.writeKnownHosts(QStringLiteral("hostkey_a"));
    const QString secret = QStringLiteral("pw-%1").arg(QUuid::createUuid().toString(QUuid::Id128));
    const QString locked = fx.key(QStringLiteral("locked"), QStringLiteral("ed25519"), secret);
    fx.authorize(locked);
    fx.installClientKey(locked);
    auto o = fx.options();
    int asked = 0;
    o.passphrase = [&](const QString&) {
        ++asked;
        return secret;
    };
    {
        auto s = SshSession::connect(o);
        QVERIFY2(s, qPrintable(errorOf(s)));
    }
    QVERIFY(asked >= 1);
    o.passphrase = [&](const QString&) { return QStringLiteral("wrong"); };
    auto bad = SshSession::connect(o);
    QVERIFY(!bad);
    QCOMPARE(bad.error().kind, RemoteError::Kind::AuthRefused);
    QVERIFY(!bad.error().message.contains(secret));
}

void TestRemoteSsh::nothingListeningFailsFast() {
    SshdFixture fx;  // not started: a port nobody listens on
    auto o = fx.options();
    o.node.port = SshdFixture::freePort(fx.ip());
    QVERIFY(o.node.port > 0);
    o.connectTimeoutMs = 3000;
    QElapsedTimer t;
    t.start();
    auto r = SshSession::connect(o);
    QVERIFY(!r);
    QVERIFY2(t.elapsed() < 3000 + 1000, qPrintable(QString::number(t.elapsed())));
    QCOMPARE(r.error().kind, RemoteError::Kind::Unreachable);
    QVERIFY2(r.error().message.contains(o.node.display()), qPrintable(r.error().message));
    QCOMPARE(r.error().node, o.node.display());
}

void TestRemoteSsh::silentNodeTimesOut() {
    SshdFixture fx;
    // A socket that accepts TCP (backlog) but never speaks SSH.
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    QVERIFY(fd >= 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    ::inet_pton(AF_INET, fx.ip().toLatin1().constData(), &a.sin_addr);
    QCOMPARE(::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
    QCOMPARE(::listen(fd, 4), 0);
    socklen_t len = sizeof a;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
    auto o = fx.options();
    o.node.port = ntohs(a.sin_port);
    o.connectTimeoutMs = 1500;
    QElapsedTimer t;
    t.start();
    auto r = SshSession::connect(o);
    const qint64 took = t.elapsed();
    ::close(fd);
    QVERIFY(!r);
    QVERIFY2(took < 1500 + 2500, qPrintable(QString::number(took)));
    QVERIFY2(r.error().message.contains(o.node.display()), qPrintable(r.error().message));
}

// A node that accepts TCP but never speaks SSH, with a long connect timeout: a cancel
// ends the connect within about 50 ms instead of waiting the timeout out.
void TestRemoteSsh::cancelWhileConnecting() {
    SshdFixture fx;
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    QVERIFY(fd >= 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    ::inet_pton(AF_INET, fx.ip().toLatin1().constData(), &a.sin_addr);
    QCOMPARE(::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
    QCOMPARE(::listen(fd, 4), 0);
    socklen_t len = sizeof a;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
    auto o = fx.options();
    o.node.port = ntohs(a.sin_port);
    o.connectTimeoutMs = 30000;
    std::atomic_bool cancel{false};
    o.cancel = &cancel;
    QElapsedTimer t;
    t.start();
    std::atomic<qint64> cancelledAt{-1};
    std::thread canceller([&] {
        ::usleep(500 * 1000);
        cancelledAt = t.elapsed();
        cancel = true;
    });
    auto r = SshSession::connect(o);
    const qint64 took = t.elapsed();
    canceller.join();
    ::close(fd);
    QVERIFY(!r);
    QCOMPARE(r.error().kind, RemoteError::Kind::Cancelled);
    qInfo("connect returned %lld ms after the cancel", took - cancelledAt.load());
    QVERIFY2(took - cancelledAt < 2000, qPrintable(QString::number(took - cancelledAt)));
    QVERIFY2(r.error().message.contains(o.node.display()), qPrintable(r.error().message));
}

void TestRemoteSsh::hostileArgvRoundTrips() {
    SshdFixture fx;
    START(fx);
    fx.writeKnownHosts(QStringLiteral("hostkey_a"));
    auto s = SshSession::connect(fx.options());
    QVERIFY2(s, qPrintable(errorOf(s)));
    const QString canary = fx.dir() + QStringLiteral("/INJECTED");
    const QStringList hostile = {
        QStringLiteral("node'01"),
        QStringLiteral("\"double\" quotes"),
        QStringLiteral("$(touch %1)").arg(canary),
        QStringLiteral("`touch %1`").arg(canary),
        QStringLiteral("; touch %1;").arg(canary),
        QStringLiteral("&& touch %1 || touch %1 | touch %1 &").arg(canary),
        QStringLiteral("line1\nline2\n"),
        QStringLiteral("  leading and trailing spaces  "),
        QStringLiteral("tab\there"),
        QStringLiteral("*"),
        QStringLiteral("/*"),
        QStringLiteral("?"),
        QStringLiteral("[a-z]*"),
        QStringLiteral("~"),
        QStringLiteral("~root"),
        QStringLiteral("$HOME"),
        QStringLiteral("${PATH}"),
        QStringLiteral("-n"),
        QStringLiteral("--"),
        QStringLiteral("--option=$(id)"),
        QString(),
        QStringLiteral("\\"),
        QStringLiteral("'"),
        QStringLiteral("''"),
        QStringLiteral("'\\''"),
        QStringLiteral(">%1").arg(canary),
        QStringLiteral("<%1").arg(canary),
        QStringLiteral("/tmp/path with space/probe bin"),
        QStringLiteral("!event"),
        QStringLiteral("#comment"),
        QStringLiteral("{a,b}"),
        QStringLiteral("ünïcødé ✓"),
    };
    QStringList argv = {QStringLiteral("printf"), QStringLiteral("%s\\0")};
    argv += hostile;
    QByteArray out;
    RemoteCommandOptions ro;
    ro.onStdout = [&](const QByteArray& b) { out += b; };
    ro.timeoutMs = 20000;
    auto r = RemoteCommand::run(**s, argv, ro);
    QVERIFY2(r, r ? "" : qPrintable(r.error().message));
    QCOMPARE(r->exitStatus, 0);
    QList<QByteArray> parts = out.split('\0');
    QCOMPARE(parts.takeLast(), QByteArray());
    QCOMPARE(parts.size(), hostile.size());
    for (int i = 0; i < hostile.size(); ++i)
        QCOMPARE(QString::fromUtf8(parts[i]), hostile[i]);
    QVERIFY2(!QFile::exists(canary), "a hostile argument was executed");

    // The program name itself is quoted too.
    auto bad = RemoteCommand::run(**s, {QStringLiteral("true; touch %1").arg(canary)});
    QVERIFY(bad);
    QVERIFY(bad->exitStatus != 0);
    QVERIFY(!QFile::exists(canary));
}

void TestRemoteSsh::streamingAndExitStatus() {
    SshdFixture fx;
    START(fx);
    fx.writeKnownHosts(QStringLiteral("hostkey_a"));
    auto s = SshSession::connect(fx.options());
    QVERIFY2(s, qPrintable(errorOf(s)));
    QElapsedTimer t;
    t.start();
    qint64 firstOutAt = -1, firstErrAt = -1;
    QByteArray out, err;
    RemoteCommandOptions ro;
    ro.onStdout = [&](const QByteArray& b) {
        if (firstOutAt < 0)
            firstOutAt = t.elapsed();
        out += b;
    };
    ro.onStderr = [&](const QByteArray& b) {
        if (firstErrAt < 0)
            firstErrAt = t.elapsed();
        err += b;
    };
    ro.timeoutMs = 20000;
    auto r = RemoteCommand::run(
        **s, {QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("echo first; echo warn >&2; sleep 2; echo second; exit 7")},
        ro);
    const qint64 total = t.elapsed();
    QVERIFY2(r, r ? "" : qPrintable(r.error().message));
    QCOMPARE(r->exitStatus, 7);
    QCOMPARE(out, QByteArray("first\nsecond\n"));
    QCOMPARE(err, QByteArray("warn\n"));  // the process-group marker is not passed on
    QVERIFY(total >= 2000);
    QVERIFY2(firstOutAt >= 0 && firstOutAt < total - 1500, qPrintable(QStringLiteral("%1 of %2").arg(firstOutAt).arg(total)));
    QVERIFY2(firstErrAt >= 0 && firstErrAt < total - 1500, qPrintable(QStringLiteral("%1 of %2").arg(firstErrAt).arg(total)));
}

static void stopAndCheck(bool useCancel) {
    SshdFixture fx;
    START(fx);
    fx.writeKnownHosts(QStringLiteral("hostkey_a"));
    auto s = SshSession::connect(fx.options());
    QVERIFY2(s, qPrintable(errorOf(s)));
    const QString marker = QStringLiteral("moewb-marker-%1").arg(QUuid::createUuid().toString(QUuid::Id128));
    // A child in the background, one in the foreground, and TERM ignored (inherited by
    // both sleeps): only SIGKILL of the whole group ends them.
    const QStringList argv = {QStringLiteral("sh"), QStringLiteral("-c"),
                              QStringLiteral("trap '' TERM; sleep 3001 & sleep 3002; wait"), marker};
    std::atomic_bool cancel{false};
    std::atomic_bool sawRunning{false};
    std::thread canceller;
    RemoteCommandOptions ro;
    ro.killGraceMs = 1000;
    if (useCancel) {
        ro.cancel = &cancel;
        canceller = std::thread([&] {
            for (int i = 0; i < 100 && !sawRunning; ++i) {
                ::usleep(100 * 1000);
                FILE* p = ::popen("ps -ww -eo pid,pgid,args", "r");
                if (!p)
                    continue;
                char line[4096];
                while (::fgets(line, sizeof line, p))
                    if (QString::fromLocal8Bit(line).contains(marker))
                        sawRunning = true;
                ::pclose(p);
            }
            cancel = true;
        });
    } else {
        ro.timeoutMs = 2500;
    }
    QElapsedTimer t;
    t.start();
    auto r = RemoteCommand::run(**s, argv, ro);
    const qint64 took = t.elapsed();
    if (canceller.joinable())
        canceller.join();
    QVERIFY(!r);
    QCOMPARE(r.error().kind, useCancel ? RemoteError::Kind::Cancelled : RemoteError::Kind::TimedOut);
    QVERIFY2(r.error().message.contains(s->get()->node()), qPrintable(r.error().message));
    QVERIFY2(!r.error().message.contains(QLatin1String("may still be running")), qPrintable(r.error().message));
    if (useCancel)
        QVERIFY(sawRunning);
    else
        QVERIFY2(took >= 2500 && took < 2500 + 1000 + 8000, qPrintable(QString::number(took)));
    // The node's process table, read over SSH and locally: nothing of the command left.
    auto ps = RemoteCommand::capture(**s, {QStringLiteral("ps"), QStringLiteral("-ww"), QStringLiteral("-eo"), QStringLiteral("pid,pgid,args")}, 10000);
    QVERIFY(ps);
    QCOMPARE(ps->exitStatus, 0);
    QStringList remoteHits;
    for (const QString& line : QString::fromLocal8Bit(ps->out).split(QLatin1Char('\n')))
        // This test's own sleeps only: other tests running at the same time have theirs.
        if (line.contains(marker) || line.contains(QLatin1String("sleep 3001")) ||
            line.contains(QLatin1String("sleep 3002")))
            remoteHits << line;
    QVERIFY2(remoteHits.isEmpty(), qPrintable(remoteHits.join(QLatin1Char('\n'))));
    QVERIFY2(processesWith(marker).isEmpty(), qPrintable(processesWith(marker).join(QLatin1Char('\n'))));
    // The session is still usable afterwards.
    auto again = RemoteCommand::run(**s, {QStringLiteral("true")});
    QVERIFY(again && again->exitStatus == 0);
}

void TestRemoteSsh::cancelLeavesNoProcess() { stopAndCheck(true); }
void TestRemoteSsh::timeoutLeavesNoProcess() { stopAndCheck(false); }

// The command carrying marker itself runs: the login shell's, the wrapper's and a
// local ssh client's argv carry the marker too, but also the wrapper's text.
static bool commandRunning(const QString& marker) {
    const QStringList hits = processesWith(marker);
    return hits.filter(QStringLiteral("MOEWB-PGID")).size() < hits.size();
}

// Waits up to ms for the process table to show (want true) or not show marker.
static bool waitForProcesses(const QString& marker, bool want, int ms) {
    QElapsedTimer t;
    t.start();
    do {
        if (processesWith(marker).isEmpty() != want)
            return true;
        QThread::msleep(50);
    } while (t.elapsed() < ms);
    return false;
}

// A cancel ends a command that honours SIGTERM within about the time the node needs to
// read one end of file: the watchdog kills the group, no new command is started.
void TestRemoteSsh::cancelIsPrompt() {
    SshdFixture fx;
    START(fx);
    fx.writeKnownHosts(QStringLiteral("hostkey_a"));
    auto s = SshSession::connect(fx.options());
    QVERIFY2(s, qPrintable(errorOf(s)));
    const QString marker = QStringLiteral("moewb-prompt-%1").arg(QUuid::createUuid().toString(QUuid::Id128));
    std::atomic_bool cancel{false};
    std::atomic<qint64> cancelledAt{-1};
    QElapsedTimer clock;
    clock.start();
    std::thread canceller([&] {
        // The command itself, not the login shell or wrapper whose argv carry it too.
        QElapsedTimer waited;
        waited.start();
        while (waited.elapsed() < 20000 && !commandRunning(marker))
            QThread::msleep(50);
        ::usleep(500 * 1000);
        cancelledAt = clock.elapsed();
        cancel = true;
    });
    QByteArray err;
    RemoteCommandOptions ro;
    ro.cancel = &cancel;
    ro.onStderr = [&](const QByteArray& b) { err += b; };
    RemoteCommandStop stop;
    ro.stopReport = &stop;
    auto r = RemoteCommand::run(**s, {QStringLiteral("sh"), QStringLiteral("-c"),
                                      QStringLiteral("sleep 3003 & sleep 3004; wait"), marker},
                                ro);
    const qint64 ms = clock.elapsed() - cancelledAt;
    canceller.join();
    QVERIFY(!r);
    QCOMPARE(r.error().kind, RemoteError::Kind::Cancelled);
    qInfo("cancel -> run() returned in %lld ms", ms);
    // About 0.1-0.3 s on an idle machine; the bound leaves room for a loaded CI machine.
    QVERIFY2(ms < 3000, qPrintable(QString::number(ms)));
    QVERIFY(stop.pgid > 1);
    QVERIFY(stop.confirmedGone);
    QVERIFY2(!err.contains("MOEWB-"), err.constData());  // the wrapper's lines are not passed on
    QVERIFY2(processesWith(marker).isEmpty(), qPrintable(processesWith(marker).join(QLatin1Char('\n'))));
}

// Cancelled before the node has even started the command: it must not start unseen
// and stay behind.
void TestRemoteSsh::stopBeforeStartLeavesNothing() {
    SshdFixture fx;
    START(fx);
    fx.writeKnownHosts(QStringLiteral("hostkey_a"));
    auto s = SshSession::connect(fx.options());
    QVERIFY2(s, qPrintable(errorOf(s)));
    const QString marker = QStringLiteral("moewb-early-%1").arg(QUuid::createUuid().toString(QUuid::Id128));
    std::atomic_bool cancel{true};
    RemoteCommandOptions ro;
    ro.cancel = &cancel;
    auto r = RemoteCommand::run(**s, {QStringLiteral("sleep"), QStringLiteral("3005"), marker}, ro);
    QVERIFY(!r);
    QCOMPARE(r.error().kind, RemoteError::Kind::Cancelled);
    // Whatever the node did with the command, none of it is running a moment later.
    QVERIFY(!waitForProcesses(marker, true, 1500));
    QVERIFY2(processesWith(marker).isEmpty(), qPrintable(processesWith(marker).join(QLatin1Char('\n'))));
}

// The client disappears (the workbench crashes, the network drops) while a command
// runs: sshd closes the command's stdin, and the watchdog ends the whole group.
void TestRemoteSsh::lostClientEndsTheCommand() {
    SshdFixture fx;
    START(fx);
    fx.writeKnownHosts(QStringLiteral("hostkey_a"));
    const QString marker = QStringLiteral("moewb-orphan-%1").arg(QUuid::createUuid().toString(QUuid::Id128));
    const QString line =
        RemoteCommand::commandLine({QStringLiteral("sh"), QStringLiteral("-c"),
                                    QStringLiteral("trap '' TERM; sleep 3006 & sleep 3007; wait"), marker},
                                   500);
    // OpenSSH's own client, strict host keys, the fixture's key: a client we can kill.
    QProcess ssh;
    ssh.setProcessChannelMode(QProcess::MergedChannels);
    ssh.start(QStringLiteral("ssh"),
              {QStringLiteral("-F"), QStringLiteral("/dev/null"), QStringLiteral("-o"), QStringLiteral("BatchMode=yes"),
               QStringLiteral("-o"), QStringLiteral("StrictHostKeyChecking=yes"), QStringLiteral("-o"),
               QStringLiteral("UserKnownHostsFile=%1/known_hosts").arg(fx.sshDir()), QStringLiteral("-i"),
               fx.sshDir() + QStringLiteral("/id_ed25519"), QStringLiteral("-p"), QString::number(fx.port()),
               QStringLiteral("%1@%2").arg(fx.user(), fx.ip()), line});
    QVERIFY(ssh.waitForStarted(5000));
    QElapsedTimer waited;
    waited.start();
    while (waited.elapsed() < 20000 && !commandRunning(marker))
        QThread::msleep(50);
    QVERIFY2(commandRunning(marker), qPrintable(QString::fromLocal8Bit(ssh.readAll())));
    QThread::msleep(300);  // the watchdog started just before the command
    ssh.kill();  // SIGKILL: no goodbye to the server
    ssh.waitForFinished(5000);
    // TERM is ignored: the group ends at the watchdog's SIGKILL (0.5 s grace).
    QVERIFY2(waitForProcesses(marker, false, 10000), qPrintable(processesWith(marker).join(QLatin1Char('\n'))));
}

// The fallback kill (a second channel, used when a watchdog does not answer) on a group
// started outside RemoteCommand::run: TERM ignored, so only its SIGKILL ends it.
void TestRemoteSsh::killGroupEndsAGroupThatIgnoresTerm() {
    SshdFixture fx;
    START(fx);
    fx.writeKnownHosts(QStringLiteral("hostkey_a"));
    auto s = SshSession::connect(fx.options());
    QVERIFY2(s, qPrintable(errorOf(s)));
    const QString marker = QStringLiteral("moewb-killgroup-%1").arg(QUuid::createUuid().toString(QUuid::Id128));
    auto started = RemoteCommand::capture(
        **s,
        {QStringLiteral("sh"), QStringLiteral("-c"),
         QStringLiteral("setsid sh -c \"trap '' TERM; sleep 3008 & sleep 3009; wait\" \"$0\" </dev/null >/dev/null 2>&1 &"),
         marker},
        10000);
    QVERIFY(started && started->exitStatus == 0);
    QVERIFY(waitForProcesses(marker, true, 10000));
    const QStringList lines = processesWith(marker);
    const QStringList fields = lines.value(0).simplified().split(QLatin1Char(' '));
    const qint64 pgid = fields.value(1).toLongLong();
    QVERIFY2(pgid > 1, qPrintable(lines.join(QLatin1Char('\n'))));
    QElapsedTimer t;
    t.start();
    auto gone = RemoteCommand::killGroup(**s, pgid, 500);
    QVERIFY2(gone, gone ? "" : qPrintable(gone.error().message));
    QVERIFY(*gone);
    QVERIFY2(t.elapsed() >= 500, qPrintable(QString::number(t.elapsed())));  // TERM was not enough
    QVERIFY2(processesWith(marker).isEmpty(), qPrintable(processesWith(marker).join(QLatin1Char('\n'))));
}

void TestRemoteSsh::sftpUploadSkipVerify() {
    SshdFixture fx;
    START(fx);
    fx.writeKnownHosts(QStringLiteral("hostkey_a"));
    auto s = SshSession::connect(fx.options());
    QVERIFY2(s, qPrintable(errorOf(s)));
    // A hostile file name: quotes, command substitution, globbing, spaces.
    const QString name = QStringLiteral("moe probe'$(id)`id`;*");
    const QString local = fx.dir() + QLatin1Char('/') + name;
    {
        QFile f(local);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("#!/bin/sh\necho probe-ok \"$@\"\n");
        f.write(QByteArray(200000, 'x').prepend("# ").append('\n'));
    }
    QFile lf(local);
    QVERIFY(lf.open(QIODevice::ReadOnly));
    const QByteArray content = lf.readAll();
    const QString sha = QString::fromLatin1(QCryptographicHash::hash(content, QCryptographicHash::Sha256).toHex());
    const QString expected = fx.remoteHome() + QStringLiteral("/.cache/moe-workbench/probe/") + sha + QLatin1Char('/') + name;

    auto up = SftpUpload::upload(**s, local);
    QVERIFY2(up, up ? "" : qPrintable(up.error().message));
    QVERIFY(!up->skipped);
    QCOMPARE(up->sha256, sha);
    QCOMPARE(QFileInfo(up->remotePath).canonicalFilePath(), QFileInfo(expected).canonicalFilePath());
    QFile rf(expected);
    QVERIFY(rf.open(QIODevice::ReadOnly));
    QCOMPARE(rf.readAll(), content);
    rf.close();
    // Read and run by its owner only (0500).
    struct stat st {};
    QCOMPARE(::stat(expected.toLocal8Bit().constData(), &st), 0);
    QCOMPARE(int(st.st_mode & 07777), 0500);
    QByteArray out;
    RemoteCommandOptions ro;
    ro.onStdout = [&](const QByteArray& b) { out += b; };
    auto run = RemoteCommand::run(**s, {up->remotePath, QStringLiteral("a b")}, ro);
    QVERIFY(run && run->exitStatus == 0);
    QCOMPARE(out, QByteArray("probe-ok a b\n"));

    // Already there with the same checksum: skipped.
    const QDateTime mtime = QFileInfo(expected).lastModified();
    auto again = SftpUpload::upload(**s, local);
    QVERIFY2(again, again ? "" : qPrintable(again.error().message));
    QVERIFY(again->skipped);
    QCOMPARE(QFileInfo(expected).lastModified(), mtime);

    // Same size, other content: detected and replaced.
    {
        QFile f(expected);
        QVERIFY(f.open(QIODevice::ReadWrite));
        f.seek(content.size() - 2);
        f.write("y");
    }
    auto remoteSum = SftpUpload::remoteSha256(**s, expected);
    QVERIFY(remoteSum && *remoteSum != sha);
    auto fixed = SftpUpload::upload(**s, local);
    QVERIFY2(fixed, fixed ? "" : qPrintable(fixed.error().message));
    QVERIFY(!fixed->skipped);
    QFile rf2(expected);
    QVERIFY(rf2.open(QIODevice::ReadOnly));
    QCOMPARE(rf2.readAll(), content);
    // No temporary files left beside it.
    QCOMPARE(QDir(QFileInfo(expected).absolutePath()).entryList(QDir::Files | QDir::Hidden).size(), 1);
}

void TestRemoteSsh::sessionBelongsToItsThread() {
    SshdFixture fx;
    START(fx);
    fx.writeKnownHosts(QStringLiteral("hostkey_a"));
    auto s = SshSession::connect(fx.options());
    QVERIFY2(s, qPrintable(errorOf(s)));
    SshSession* session = s->get();
    moewb::Expected<RemoteCommandResult, RemoteError> other =
        moewb::unexpected(RemoteError{RemoteError::Kind::Protocol, QString(), QString()});
    QThread* t = QThread::create([&] { other = RemoteCommand::run(*session, {QStringLiteral("true")}); });
    t->start();
    QVERIFY(t->wait(30000));
    delete t;
    QVERIFY(!other);
    QCOMPARE(other.error().kind, RemoteError::Kind::InvalidArgument);
    QVERIFY(other.error().message.contains(session->node()));
    auto mine = RemoteCommand::run(*session, {QStringLiteral("true")});
    QVERIFY(mine && mine->exitStatus == 0);
}

QTEST_GUILESS_MAIN(TestRemoteSsh)
#include "test_remote_ssh.moc"
