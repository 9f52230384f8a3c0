// Strangers at the probe's door: real moe-probe ranks on 127.0.0.x and a client in this
// test that speaks the probe's wire format but lacks the run's secret (or, once, holds
// it). Nobody without the secret joins, aborts or stalls a run past its deadline, and
// the text a peer sends is printed with its control characters escaped.
#include "probe_launcher.h"

#include "control_message.h"
#include "peer_auth.h"
#include "rank_facts.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QProcessEnvironment>
#include <QSysInfo>

#include <cerrno>
#include <fcntl.h>
#include <poll.h>

using namespace probetest;

namespace {

int connectTo(quint16 port, bool blocking = true) {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | (blocking ? 0 : SOCK_NONBLOCK), 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(port);
    ::inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 && !(errno == EINPROGRESS && !blocking)) {
        ::close(fd);
        return -1;
    }
    return fd;
}

// Waits until something listens on 127.0.0.1:port (the probe's rendezvous).
bool waitListening(quint16 port, int timeoutMs = 10000) {
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < timeoutMs) {
        const int fd = connectTo(port);
        if (fd >= 0) {
            ::close(fd);
            return true;
        }
        QTest::qWait(30);
    }
    return false;
}

bool sendAll(int fd, const std::string& bytes) {
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::send(fd, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL);
        if (n <= 0)
            return false;
        done += static_cast<std::size_t>(n);
    }
    return true;
}

// Everything the peer sends until it closes (or timeoutMs passes: then closed = false).
QByteArray readUntilClosed(int fd, int timeoutMs, bool& closed) {
    QByteArray got;
    QElapsedTimer t;
    t.start();
    closed = false;
    while (t.elapsed() < timeoutMs) {
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, 50) <= 0)
            continue;
        char buf[256];
        const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
        if (n <= 0) {
            closed = true;
            break;
        }
        got.append(buf, static_cast<int>(n));
    }
    return got;
}

// The rank facts a stranger claims, in the rendezvous' own text form.
std::string strangerHello(const std::string& hostname) {
    moeprobe::RankFacts f;
    f.rank = 1;
    f.world = 2;
    f.gpus_per_process = 1;
    f.pid = 4242;
    f.hostname = hostname;
    f.backend = "tcp";
    f.pattern = "uniform";
    f.schedule = "mesh";
    f.ep_layout = "world";
    f.listen = "127.0.0.9:9";
    return moeprobe::encode_control_frame(moeprobe::ControlType::Hello, moeprobe::serialize_rank_facts(f));
}

// A full handshake as rank 1 with the given key; returns what the acceptor sent back
// (its nonce, and its proof only if it took ours) and leaves fd open.
QByteArray handshake(int fd, const std::string& key, bool& closed) {
    moeprobe::AuthHello hello;
    hello.channel = moeprobe::AuthChannel::Rendezvous;
    hello.rank = 1;
    hello.nonce = moeprobe::random_nonce();
    if (!sendAll(fd, moeprobe::encode_auth_hello(hello)))
        return {};
    QByteArray got;
    QElapsedTimer t;
    t.start();
    while (got.size() < 16 && t.elapsed() < 5000) {
        char buf[16];
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, 50) <= 0)
            continue;
        const ssize_t n = ::recv(fd, buf, 16 - static_cast<std::size_t>(got.size()), 0);
        if (n <= 0)
            break;
        got.append(buf, static_cast<int>(n));
    }
    if (got.size() < 16)
        return got;
    std::array<std::uint8_t, 16> theirs{};
    std::memcpy(theirs.data(), got.constData(), 16);
    const auto proof = moeprobe::auth_proof(key, false, hello, theirs);
    sendAll(fd, std::string(reinterpret_cast<const char*>(proof.data()), proof.size()));
    // The acceptor's proof (32 bytes) comes only when ours was right; otherwise a close.
    QElapsedTimer u;
    u.start();
    while (got.size() < 48 && u.elapsed() < 3000) {
        char buf[64];
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, 50) <= 0)
            continue;
        const ssize_t n = ::recv(fd, buf, 48 - static_cast<std::size_t>(got.size()), 0);
        if (n <= 0) {
            closed = true;
            break;
        }
        got.append(buf, static_cast<int>(n));
    }
    return got;
}

std::string randomKey() {
    return QByteArray::number(QRandomGenerator::system()->generate64(), 16).rightJustified(16, '0').toStdString() +
           QByteArray::number(QRandomGenerator::system()->generate64(), 16).rightJustified(16, '0').toStdString();
}

struct Rank {
    std::unique_ptr<QProcess> p = std::make_unique<QProcess>();
    QByteArray out, err;
    void start(int rank, quint16 port, const QStringList& extra) {
        p->start(probePath(), QStringList{"--rank", QString::number(rank), "--world", "2", "--rendezvous",
                                          QStringLiteral("127.0.0.1:%1").arg(port), "--listen",
                                          QStringLiteral("127.0.0.%1").arg(rank + 1)} +
                                  extra);
    }
    bool wait(int ms) {
        const bool ok = p->state() == QProcess::NotRunning || p->waitForFinished(ms);
        out += p->readAllStandardOutput();
        err += p->readAllStandardError();
        return ok;
    }
    int code() const { return p->exitStatus() == QProcess::NormalExit ? p->exitCode() : -1; }
    ~Rank() {
        if (p->state() != QProcess::NotRunning) {
            p->kill();
            p->waitForFinished(5000);
        }
    }
};

const QStringList kShortRun{"-b", "4K", "-e", "4K", "-n", "2", "-w", "1", "-c", "1"};

} // namespace

class TestProbeAuth : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { ensureRunSecret(); }

    // A stranger who speaks the wire format joins neither with a plain hello (the
    // protocol before the handshake) nor after a handshake with a key of its own; the
    // real ranks complete and the JSON names only them.
    void strangerCannotJoin() {
        QTemporaryDir dir;
        const QString json = dir.filePath("run.json");
        const quint16 port = freePort();
        Rank r0, r1;
        r0.start(0, port, kShortRun + QStringList{"--timeout", "10", "-J", json});
        QVERIFY(waitListening(port));

        const int plain = connectTo(port);
        QVERIFY(plain >= 0);
        QVERIFY(sendAll(plain, strangerHello("stranger-host")));
        const int keyed = connectTo(port);
        QVERIFY(keyed >= 0);
        bool keyedClosed = false;
        const QByteArray keyedGot = handshake(keyed, randomKey(), keyedClosed);
        sendAll(keyed, strangerHello("stranger-host-2"));
        QTest::qWait(300);
        r1.start(1, port, kShortRun + QStringList{"--timeout", "10"});
        QVERIFY(r0.wait(30000) && r1.wait(30000));
        const QString both = QString::fromLocal8Bit(r0.err + r1.err + r0.out);
        QVERIFY2(r0.code() == 0 && r1.code() == 0, qPrintable(both));

        // Nothing came back to the plain hello but a close; the keyed stranger got the
        // 16-byte challenge and then a close, never the acceptor's proof.
        bool plainClosed = false;
        const QByteArray plainGot = readUntilClosed(plain, 3000, plainClosed);
        QVERIFY(plainClosed);
        QCOMPARE(plainGot.size(), 0);
        QVERIFY2(keyedClosed, "the acceptor kept a connection that failed its proof");
        QCOMPARE(keyedGot.size(), 16);
        ::close(plain);
        ::close(keyed);

        const QJsonObject doc = readJsonObject(json);
        const QJsonArray ranks = doc.value("environment").toObject().value("ranks").toArray();
        QCOMPARE(ranks.size(), 2);
        for (const QJsonValue& v : ranks)
            QCOMPARE(v.toObject().value("hostname").toString(), QSysInfo::machineHostName());
        QFile f(json);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray text = f.readAll();
        QVERIFY(!text.contains("stranger"));
        // The secret itself shows up nowhere: not in the JSON, not in any output.
        QVERIFY(!text.contains(ensureRunSecret()));
        QVERIFY(!(r0.out + r0.err + r1.out + r1.err).contains(ensureRunSecret()));
    }

    // A forged abort notice, plain or after a failed handshake, ends nothing.
    void forgedAbortIsIgnored() {
        const quint16 port = freePort();
        Rank r0, r1;
        r0.start(0, port, kShortRun + QStringList{"--timeout", "10"});
        QVERIFY(waitListening(port));
        const std::string abort = moeprobe::encode_control_frame(
            moeprobe::ControlType::Abort, moeprobe::encode_abort_payload(1, "\x1b]0;pwned\x07 forged stop"));
        const int plain = connectTo(port);
        QVERIFY(sendAll(plain, abort));
        const int keyed = connectTo(port);
        bool closed = false;
        handshake(keyed, randomKey(), closed);
        sendAll(keyed, abort);
        QTest::qWait(300);
        r1.start(1, port, kShortRun + QStringList{"--timeout", "10"});
        QVERIFY(r0.wait(30000) && r1.wait(30000));
        QVERIFY2(r0.code() == 0 && r1.code() == 0, (r0.err + r1.err).constData());
        QVERIFY(!r0.err.contains("pwned"));
        QVERIFY(!r0.err.contains("forged"));
        ::close(plain);
        ::close(keyed);
    }

    // A peer that holds the secret may abort the run, but what it says is printed with
    // its control characters escaped (no terminal escapes reach rank 0's stderr).
    void abortTextIsEscaped() {
        const quint16 port = freePort();
        Rank r0;
        r0.start(0, port, kShortRun + QStringList{"--timeout", "10"});
        QVERIFY(waitListening(port));
        const int fd = connectTo(port);
        bool closed = false;
        const QByteArray got = handshake(fd, ensureRunSecret().toStdString(), closed);
        QCOMPARE(got.size(), 48); // nonce + the acceptor's proof: we were taken
        QVERIFY(sendAll(fd, moeprobe::encode_control_frame(
                                moeprobe::ControlType::Abort,
                                moeprobe::encode_abort_payload(1, "bad\x1b[2Jthing\r\n\x9b" "31m"))));
        QVERIFY(r0.wait(20000));
        ::close(fd);
        QCOMPARE(r0.code(), 3);
        QVERIFY2(r0.err.contains("bad\\x1b[2Jthing\\x0d\\x0a\\x9b31m"), r0.err.constData());
        QVERIFY2(!r0.err.contains('\x1b') && !r0.err.contains('\r') && !r0.err.contains('\x9b'), r0.err.constData());
    }

    // Silent connections made before the real rank do not hold the rendezvous up: the
    // handshakes run side by side.
    void silentConnectionsDoNotDelay() {
        const quint16 port = freePort();
        Rank r0, r1;
        r0.start(0, port, kShortRun + QStringList{"--timeout", "10"});
        QVERIFY(waitListening(port));
        const int s1 = connectTo(port);
        const int s2 = connectTo(port);
        QVERIFY(s1 >= 0 && s2 >= 0);
        QTest::qWait(200);
        QElapsedTimer t;
        t.start();
        r1.start(1, port, kShortRun + QStringList{"--timeout", "10"});
        QVERIFY(r0.wait(30000) && r1.wait(30000));
        const qint64 ms = t.elapsed();
        qInfo("with two silent connections: the run took %lld ms after rank 1 started (--timeout 10)", ms);
        QVERIFY2(r0.code() == 0 && r1.code() == 0, (r0.err + r1.err).constData());
        QVERIFY2(ms < 5000, qPrintable(QStringLiteral("took %1 ms").arg(ms)));
        ::close(s1);
        ::close(s2);
    }

    // Clients dripping one byte at a time (a valid frame header, and a valid handshake
    // hello) cannot keep rank 0 waiting past --timeout: it gives up on the absent rank 1
    // within the timeout plus its short exit linger.
    void drippingClientsCannotHoldRank0() {
        const quint16 port = freePort();
        const double timeoutS = 2.0;
        Rank r0;
        QElapsedTimer t;
        t.start();
        r0.start(0, port, kShortRun + QStringList{"--timeout", "2"});
        QVERIFY(waitListening(port));
        moeprobe::AuthHello hello;
        hello.rank = 1;
        hello.nonce = moeprobe::random_nonce();
        const std::string drips[2] = {
            moeprobe::encode_control_frame(moeprobe::ControlType::Hello, std::string(4000, 'x')),
            moeprobe::encode_auth_hello(hello)};
        int fds[2] = {connectTo(port), connectTo(port)};
        std::size_t at[2] = {0, 0};
        while (r0.p->state() != QProcess::NotRunning && t.elapsed() < 30000) {
            for (int i = 0; i < 2; ++i)
                if (fds[i] >= 0 && at[i] < drips[i].size() &&
                    ::send(fds[i], drips[i].data() + at[i]++, 1, MSG_NOSIGNAL | MSG_DONTWAIT) != 1) {
                    ::close(fds[i]);
                    fds[i] = -1;
                }
            r0.p->waitForFinished(300);
        }
        const qint64 ms = t.elapsed();
        QVERIFY(r0.wait(1000));
        for (int fd : fds)
            if (fd >= 0)
                ::close(fd);
        qInfo("rank 0 with --timeout 2 and two byte-dripping clients ended after %lld ms", ms);
        QCOMPARE(r0.code(), 3);
        QVERIFY2(r0.err.contains("rank 1 never joined"), r0.err.constData());
        // The timeout, plus rank 0's exit linger (min(1 s, timeout/2)) and start-up slack.
        QVERIFY2(ms <= static_cast<qint64>((timeoutS + 2.0) * 1000), qPrintable(QStringLiteral("took %1 ms").arg(ms)));
    }

    // A peer that holds the secret and sends one byte now and then (each byte restarting
    // the silence timer) cannot hold a rank past its message's own deadline: here a fake
    // rank 0 drips its rank table to a real rank 1 (--timeout 2: rank 1 waits
    // 2 + min(2, 5) = 4 s of silence for rank 0, so the message's deadline is 8 s).
    void keyedPeerDrippingAMessageCannotHoldARank() {
        const std::string secret = ensureRunSecret().toStdString();
        const quint16 port = freePort();
        moeprobe::UniqueFd listener = moeprobe::listen_on(moeprobe::HostPort{"127.0.0.1", port});
        moeprobe::AuthenticatingListener acceptor(listener.get(), secret, moeprobe::AuthChannel::Rendezvous, 5.0);
        Rank r1;
        QElapsedTimer t;
        t.start();
        r1.start(1, port, kShortRun + QStringList{"--timeout", "2"});
        moeprobe::AuthenticatingListener::Peer peer = acceptor.next(moeprobe::Deadline(10.0));
        QVERIFY(peer.fd.valid());
        QCOMPARE(peer.rank, 1);
        const std::string table = moeprobe::encode_control_frame(moeprobe::ControlType::Table, std::string(4000, 'x'));
        std::size_t at = 0;
        while (r1.p->state() != QProcess::NotRunning && t.elapsed() < 40000 && at < table.size()) {
            if (::send(peer.fd.get(), table.data() + at, 1, MSG_NOSIGNAL | MSG_DONTWAIT) == 1)
                ++at;
            r1.p->waitForFinished(500);
        }
        const qint64 ms = t.elapsed();
        QVERIFY(r1.wait(1000));
        qInfo("rank 1 with --timeout 2 and a rank 0 dripping one byte every 0.5 s ended after %lld ms (%zu bytes sent)",
              ms, at);
        QCOMPARE(r1.code(), 3);
        QVERIFY2(r1.err.contains("rank 0") && r1.err.contains("did not finish within the timeout"), r1.err.constData());
        // The 8 s deadline, plus start-up, the handshake and the exit linger.
        QVERIFY2(ms < 14000, qPrintable(QStringLiteral("took %1 ms").arg(ms)));
    }

    // A keyed peer's facts reach rank 0's terminal escaped, and an unusable mesh address
    // names the peer instead of printing rank 0's usage help.
    void keyedPeerWithABadAddressIsNamed() {
        const quint16 port = freePort();
        Rank r0;
        r0.start(0, port, kShortRun + QStringList{"--timeout", "10"});
        QVERIFY(waitListening(port));
        const int fd = connectTo(port);
        bool closed = false;
        QCOMPARE(handshake(fd, ensureRunSecret().toStdString(), closed).size(), 48);
        moeprobe::RankFacts f;
        f.rank = 1;
        f.world = 2;
        f.gpus_per_process = 1;
        f.hostname = "evil\x1b[2J";
        f.backend = "tcp";
        f.pattern = "uniform";
        f.schedule = "mesh";
        f.ep_layout = "world";
        f.listen = "127.0.0.9:\x1b]0;pwned\x07";
        f.gpu_models = {"H100\x1b[31m"};
        QVERIFY(sendAll(fd, moeprobe::encode_control_frame(moeprobe::ControlType::Hello,
                                                           moeprobe::serialize_rank_facts(f))));
        QVERIFY(r0.wait(20000));
        ::close(fd);
        QCOMPARE(r0.code(), 3);
        QVERIFY2(r0.err.contains("rank 1 sent an unusable mesh address '127.0.0.9:\\x1b]0;pwned\\x07'"),
                 r0.err.constData());
        QVERIFY2(!r0.err.contains('\x1b') && !r0.err.contains('\x07'), r0.err.constData());
        QVERIFY2(!r0.err.toLower().contains("usage"), r0.err.constData());
    }

    // More idle connections than the old listen backlog (128) do not lock the real rank out.
    void manyIdleConnectionsDoNotLockOut() {
        const quint16 port = freePort();
        Rank r0, r1;
        r0.start(0, port, kShortRun + QStringList{"--timeout", "15"});
        QVERIFY(waitListening(port));
        std::vector<int> idle;
        for (int i = 0; i < 130; ++i) {
            const int fd = connectTo(port, false);
            QVERIFY(fd >= 0);
            idle.push_back(fd);
        }
        QTest::qWait(300);
        QElapsedTimer t;
        t.start();
        r1.start(1, port, kShortRun + QStringList{"--timeout", "15"});
        const bool ended = r0.wait(40000) && r1.wait(40000);
        const qint64 ms = t.elapsed();
        for (int fd : idle)
            ::close(fd);
        QVERIFY(ended);
        qInfo("with 130 idle connections: the run took %lld ms after rank 1 started (--timeout 15)", ms);
        QVERIFY2(r0.code() == 0 && r1.code() == 0, (r0.err + r1.err).constData());
        QVERIFY2(ms < 8000, qPrintable(QStringLiteral("took %1 ms").arg(ms)));
    }

    // Without the secret, or with one too short, a multi-rank run does not start.
    void missingOrWeakSecretIsRefused_data() {
        QTest::addColumn<QString>("secret"); // "-": unset
        QTest::addColumn<QByteArray>("mentions");
        QTest::newRow("unset") << "-" << QByteArray("needs the run's secret in MOEWB_PROBE_SECRET");
        QTest::newRow("empty") << "" << QByteArray("needs the run's secret in MOEWB_PROBE_SECRET");
        QTest::newRow("short") << "0123456789abcdef" << QByteArray("at least 32 hex digits");
        QTest::newRow("not hex") << "zz23456789abcdef0123456789abcdef" << QByteArray("not all hex digits");
    }
    void missingOrWeakSecretIsRefused() {
        QFETCH(QString, secret);
        QFETCH(QByteArray, mentions);
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove("MOEWB_PROBE_SECRET");
        if (secret != "-")
            env.insert("MOEWB_PROBE_SECRET", secret);
        QProcess p;
        p.setProcessEnvironment(env);
        p.start(probePath(), {"--rank", "0", "--world", "2", "--rendezvous",
                              QStringLiteral("127.0.0.1:%1").arg(freePort()), "--timeout", "1"});
        QVERIFY(p.waitForFinished(10000));
        const QByteArray err = p.readAllStandardError();
        QCOMPARE(p.exitCode(), 2);
        QVERIFY2(err.contains(mentions), err.constData());
        QVERIFY(secret.size() < 8 || !err.contains(secret.toLatin1())); // never echoed
    }

    // Ranks of two runs (two secrets) on one port do not meet: both fail, each saying why.
    void ranksWithDifferentSecretsDoNotMeet() {
        const quint16 port = freePort();
        Rank r0, r1;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("MOEWB_PROBE_SECRET", QString::fromStdString(randomKey()));
        r1.p->setProcessEnvironment(env);
        QElapsedTimer t;
        t.start();
        r0.start(0, port, kShortRun + QStringList{"--timeout", "3"});
        r1.start(1, port, kShortRun + QStringList{"--timeout", "3"});
        QVERIFY(r0.wait(20000) && r1.wait(20000));
        QVERIFY(t.elapsed() < 12000);
        QCOMPARE(r0.code(), 3);
        QCOMPARE(r1.code(), 3);
        QVERIFY2(r0.err.contains("rank 1 never joined") && r0.err.contains("did not prove the run's secret were dropped"),
                 r0.err.constData());
        QVERIFY2(r1.err.contains("did not take this rank's proof"), r1.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestProbeAuth)
#include "test_probe_auth.moc"
