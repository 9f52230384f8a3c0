// The node's cache (~/.cache/moe-workbench/{probe,results}) against a real sshd on
// 127.0.0.x: planted directories, links, files and swaps are refused, and nothing
// planted ever runs (each planted program would create a marker file).
#include "SshdFixture.h"
#include "launch/ClusterCheck.h"
#include "ssh/RemoteCommand.h"
#include "ssh/SftpUpload.h"
#include "ssh/SshSession.h"

#include <QCryptographicHash>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QProcess>
#include <QTest>

#include <sys/stat.h>
#include <unistd.h>

using namespace moewb::remote;

namespace {

constexpr uid_t kOtherUid = 65534;  // nobody: "another user" on a shared home

#define NEEDS_ROOT()                                                                      \
    do {                                                                                  \
        if (::geteuid() != 0)                                                             \
            QSKIP("planting another uid's files needs root (the remote tests run as root)"); \
    } while (0)

int modeOf(const QString& path) {
    struct stat st {};
    if (::lstat(path.toLocal8Bit().constData(), &st) != 0)
        return -1;
    return int(st.st_mode & 07777);
}

bool writeFile(const QString& path, const QByteArray& data, int mode) {
    QFile::remove(path);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(data) != data.size())
        return false;
    f.close();
    return ::chmod(path.toLocal8Bit().constData(), mode_t(mode)) == 0;
}

bool chownTree(const QString& path, uid_t uid) {
    if (::lchown(path.toLocal8Bit().constData(), uid, uid) != 0)
        return false;
    if (QFileInfo(path).isDir() && !QFileInfo(path).isSymLink())
        for (const QFileInfo& e : QDir(path).entryInfoList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System))
            if (!chownTree(e.absoluteFilePath(), uid))
                return false;
    return true;
}

QString sha256Hex(const QByteArray& data) {
    return QString::fromLatin1(QCryptographicHash::hash(data, QCryptographicHash::Sha256).toHex());
}

struct Ran {
    int status = -1;
    QByteArray out;
    QByteArray err;
    QString error;  // the call itself failed
};

Ran runOn(SshSession& s, const QStringList& argv) {
    Ran r;
    auto c = RemoteCommand::capture(s, argv, 30000);
    if (!c) {
        r.error = c.error().message;
        return r;
    }
    r.status = c->exitStatus;
    r.out = c->out;
    r.err = c->err;
    return r;
}

} // namespace

class TestRemoteCache : public QObject {
    Q_OBJECT

    // Per test: the node, a genuine "probe" (a script) and a planted program of the
    // very same size that would create m_marker.
    std::unique_ptr<SshdFixture> m_fx;
    std::unique_ptr<SshSession> m_s;
    QString m_local;     // the genuine program here
    QByteArray m_genuine;
    QByteArray m_planted;
    QString m_marker;
    QString m_cache;     // remote home's .cache/moe-workbench

    QString cacheDir() const { return m_fx->remoteHome() + QStringLiteral("/.cache/moe-workbench/probe/") + sha256Hex(m_genuine); }
    QString target() const { return cacheDir() + QStringLiteral("/moe-probe"); }

    bool setUp() {
        m_fx = std::make_unique<SshdFixture>();
        const QString why = m_fx->start();
        if (!why.isEmpty()) {
            qWarning("%s", qPrintable(why));
            return false;
        }
        m_fx->writeKnownHosts(QStringLiteral("hostkey_a"));
        auto s = SshSession::connect(m_fx->options());
        if (!s) {
            qWarning("%s", qPrintable(s.error().message));
            return false;
        }
        m_s = std::move(*s);
        m_marker = m_fx->dir() + QStringLiteral("/PLANTED-RAN");
        m_cache = m_fx->remoteHome() + QStringLiteral("/.cache/moe-workbench");
        m_genuine = "#!/bin/sh\necho genuine \"$@\"\n# padding";
        m_planted = "#!/bin/sh\ntouch '" + m_marker.toUtf8() + "'\necho planted\n#";
        // The same size: a planted file that passes a size check.
        const qsizetype size = qMax(m_genuine.size(), m_planted.size()) + 16;
        m_genuine += QByteArray(size - 1 - m_genuine.size(), 'g') + '\n';
        m_planted += QByteArray(size - 1 - m_planted.size(), 'p') + '\n';
        m_local = m_fx->dir() + QStringLiteral("/moe-probe");
        return writeFile(m_local, m_genuine, 0755) && m_genuine.size() == m_planted.size();
    }

    // checkCluster (connect, upload, --inventory through the verified exec) with a
    // bundle whose moe-probe prints an inventory.
    QList<NodeCheck> checkNode() {
        const QString bundle = m_fx->dir() + QStringLiteral("/bundle");
        QDir().mkpath(bundle);
        writeFile(bundle + QStringLiteral("/moe-probe"), "#!/bin/sh\necho '{\"inventory\": \"genuine\"}'\n", 0755);
        ClusterCheckRequest req;
        req.nodes << m_fx->options().node;
        req.probeBundleDir = bundle;
        req.ssh.sshDir = m_fx->sshDir();
        req.ssh.configFile = m_fx->sshDir() + QStringLiteral("/config");
        req.ssh.knownHostsFile = m_fx->sshDir() + QStringLiteral("/known_hosts");
        req.ssh.useAgent = false;
        req.ssh.connectTimeoutMs = 5000;
        req.commandTimeoutMs = 30000;
        return checkCluster(req);
    }

private slots:
    void init() { QVERIFY(setUp()); }
    void cleanup() {
        m_s.reset();
        m_fx.reset();
    }

    // A fresh cache: every directory private, the file 0500, and the verified exec runs it
    // with the arguments untouched and stdin passed on.
    void freshCacheIsPrivateAndRuns() {
        auto up = SftpUpload::upload(*m_s, m_local);
        QVERIFY2(up, up ? "" : qPrintable(up.error().message));
        QCOMPARE(up->remotePath, target());
        for (const QString& d : {m_cache, m_cache + QStringLiteral("/probe"), cacheDir()})
            QCOMPARE(modeOf(d), 0700);
        QCOMPARE(modeOf(m_fx->remoteHome() + QStringLiteral("/.cache")) & 022, 0);
        QCOMPARE(modeOf(target()), 0500);

        const Ran r = runOn(*m_s, SftpUpload::verifiedExec(up->sha256, up->remotePath) +
                                      QStringList{QStringLiteral("a b"), QStringLiteral("$(touch x)'\"")});
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QCOMPARE(r.status, 0);
        QCOMPARE(r.out, QByteArray("genuine a b $(touch x)'\"\n"));

        // The same helper here (a real sh): what is written to its stdin reaches the program.
        const QString reader = m_fx->dir() + QStringLiteral("/reader");
        const QByteArray readerText = "#!/bin/sh\nread line; echo \"got $line\"\n";
        QVERIFY(writeFile(reader, readerText, 0500));
        const QStringList argv = SftpUpload::verifiedExec(sha256Hex(readerText), reader);
        QProcess p;
        p.start(argv.first(), argv.mid(1));
        QVERIFY(p.waitForStarted());
        p.write("secret-from-stdin\n");
        p.closeWriteChannel();
        QVERIFY(p.waitForFinished(10000));
        QCOMPARE(p.exitCode(), 0);
        QCOMPARE(p.readAllStandardOutput(), QByteArray("got secret-from-stdin\n"));
        QVERIFY(!QFile::exists(m_marker));
    }

    // timeoutMs bounds the whole upload: 16 MiB cannot cross in 200 ms (SFTP writes
    // here move about 1 MB/s), so the upload stops TimedOut soon after and leaves no
    // partial file; with room it goes through.
    void uploadIsBoundedAsAWhole() {
        QByteArray big(16 << 20, '\0');
        for (qsizetype i = 0; i < big.size(); i += 4096)
            big[i] = char(i / 4096);
        const QString local = m_fx->dir() + QStringLiteral("/big.bin");
        QVERIFY(writeFile(local, big, 0644));
        const QString dir = m_cache + QStringLiteral("/probe/") + sha256Hex(big);
        QElapsedTimer t;
        t.start();
        auto up = SftpUpload::upload(*m_s, local, 200);
        const qint64 ms = t.elapsed();
        QVERIFY(!up);
        QCOMPARE(up.error().kind, RemoteError::Kind::TimedOut);
        QVERIFY2(ms < 200 + 10000, qPrintable(QString::number(ms)));
        const QStringList left = QDir(dir).entryList(QDir::Files | QDir::Hidden);
        QVERIFY2(left.isEmpty(), qPrintable(left.join(QLatin1Char(' '))));
        auto ok = SftpUpload::upload(*m_s, local, 120000);
        QVERIFY2(ok, ok ? "" : qPrintable(ok.error().message));
        QCOMPARE(QFileInfo(ok->remotePath).size(), big.size());
    }

    // The real moe-probe, an ELF, runs from the descriptor it was hashed on: its
    // inventory comes back as JSON.
    void realProbeRunsFromItsDescriptor() {
        const QString probe = QStringLiteral(MOEWB_PROBE_BUNDLE_DIR "/moe-probe");
        QVERIFY2(QFileInfo(probe).isFile(), qPrintable(probe + QStringLiteral(" missing: build moe-probe-bundle")));
        auto up = SftpUpload::upload(*m_s, probe);
        QVERIFY2(up, up ? "" : qPrintable(up.error().message));
        const Ran r = runOn(*m_s, SftpUpload::verifiedExec(up->sha256, up->remotePath) + QStringList{QStringLiteral("--inventory")});
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QVERIFY2(r.status == 0, r.err.constData());
        QJsonParseError pe{};
        const QJsonDocument doc = QJsonDocument::fromJson(r.out, &pe);
        QVERIFY2(doc.isObject(), qPrintable(pe.errorString()));
        QVERIFY(!doc.object().isEmpty());

        // An ELF keeps its cache path as argv[0] (what ps shows), here a copy of the
        // node's sh printing its own command line.
        const QString shell = m_fx->dir() + QStringLiteral("/bin/moe-probe");
        QVERIFY(QDir().mkpath(QFileInfo(shell).path()));
        QVERIFY(QFile::copy(QFileInfo(QStringLiteral("/bin/sh")).canonicalFilePath(), shell));
        auto sh = SftpUpload::upload(*m_s, shell);
        QVERIFY2(sh, sh ? "" : qPrintable(sh.error().message));
        const Ran argv0 = runOn(*m_s, SftpUpload::verifiedExec(sh->sha256, sh->remotePath) +
                                          QStringList{QStringLiteral("-c"), QStringLiteral("tr '\\0' '\\n' < /proc/$$/cmdline")});
        QCOMPARE(argv0.status, 0);
        QCOMPARE(argv0.out.split('\n').value(0), sh->remotePath.toUtf8());
    }

    // ~/.cache/moe-workbench/probe is a link to a directory of another user's holding a
    // planted program at the place of the probe: refused before anything is written or run.
    void symlinkToAnotherUsersDirRefused() {
        NEEDS_ROOT();
        const QString evil = m_fx->dir() + QStringLiteral("/evil");
        const QString evilDir = evil + QLatin1Char('/') + sha256Hex(m_genuine);
        QVERIFY(QDir().mkpath(evilDir));
        QVERIFY(writeFile(evilDir + QStringLiteral("/moe-probe"), m_planted, 0777));
        QVERIFY(::chmod(evil.toLocal8Bit().constData(), 0777) == 0);
        QVERIFY(chownTree(evil, kOtherUid));
        QVERIFY(QDir().mkpath(m_cache));
        QVERIFY(QFile::link(evil, m_cache + QStringLiteral("/probe")));

        auto up = SftpUpload::upload(*m_s, m_local);
        QVERIFY(!up);
        QCOMPARE(up.error().kind, RemoteError::Kind::Verification);
        QVERIFY2(up.error().message.contains(m_cache + QStringLiteral("/probe is a symbolic link")), qPrintable(up.error().message));
        // The whole check: refused on the node, no inventory, nothing run.
        const QList<NodeCheck> checks = checkNode();
        QCOMPARE(checks.size(), 1);
        QVERIFY(!checks[0].ok);
        QVERIFY2(checks[0].failure.message.contains(QStringLiteral("/.cache/moe-workbench/probe is a symbolic link")),
                 qPrintable(checks[0].failure.message));
        QVERIFY(checks[0].inventory.isEmpty());
        // The planted program can only be run by path: the verified exec refuses it too.
        const Ran r = runOn(*m_s, SftpUpload::verifiedExec(sha256Hex(m_genuine), target()));
        QCOMPARE(r.status, 126);
        QVERIFY2(r.err.contains("is owned by uid 65534, not by you"), r.err.constData());
        QCOMPARE(QDir(evilDir).entryList(QDir::Files | QDir::Hidden), QStringList{QStringLiteral("moe-probe")});
        QVERIFY(!QFile::exists(m_marker));
    }

    // A real directory of another user's in the chain.
    void anotherUsersDirRefused() {
        NEEDS_ROOT();
        QVERIFY(QDir().mkpath(m_cache));
        QVERIFY(::chown(m_cache.toLocal8Bit().constData(), kOtherUid, kOtherUid) == 0);
        QVERIFY(::chmod(m_cache.toLocal8Bit().constData(), 0755) == 0);
        auto up = SftpUpload::upload(*m_s, m_local);
        QVERIFY(!up);
        QCOMPARE(up.error().kind, RemoteError::Kind::Verification);
        QVERIFY2(up.error().message.contains(
                     QStringLiteral("%1 is owned by uid 65534, not by you (uid %2)").arg(m_cache).arg(::geteuid())),
                 qPrintable(up.error().message));
        QVERIFY(!QFileInfo::exists(m_cache + QStringLiteral("/probe")));
    }

    // A world-writable cache directory (another user could have put anything in it).
    void worldWritableCacheRefused() {
        const QString probeDir = m_cache + QStringLiteral("/probe");
        QVERIFY(QDir().mkpath(cacheDir()));
        QVERIFY(writeFile(target(), m_genuine, 0500));  // even the right file is not trusted there
        QVERIFY(::chmod(probeDir.toLocal8Bit().constData(), 0777) == 0);
        auto up = SftpUpload::upload(*m_s, m_local);
        QVERIFY(!up);
        QCOMPARE(up.error().kind, RemoteError::Kind::Verification);
        QVERIFY2(up.error().message.contains(QStringLiteral("%1 is writable by group or others (mode 0777)").arg(probeDir)),
                 qPrintable(up.error().message));
        const QList<NodeCheck> checks = checkNode();
        QVERIFY(!checks.value(0).ok);
        QVERIFY2(checks.value(0).failure.message.contains(QStringLiteral("is writable by group or others (mode 0777)")),
                 qPrintable(checks.value(0).failure.message));
        QCOMPARE(modeOf(probeDir), 0777);  // left as found: the user decides

        // A group-writable home is refused as sshd's StrictModes refuses it.
        QVERIFY(::chmod(probeDir.toLocal8Bit().constData(), 0700) == 0);
        QVERIFY(::chmod(m_fx->remoteHome().toLocal8Bit().constData(), 0775) == 0);
        auto home = SftpUpload::upload(*m_s, m_local);
        QVERIFY(!home);
        QVERIFY2(home.error().message.contains(QStringLiteral("the home directory %1 is writable by group or others (mode 0775)")
                                                   .arg(m_fx->remoteHome())),
                 qPrintable(home.error().message));
        QVERIFY(::chmod(m_fx->remoteHome().toLocal8Bit().constData(), 0755) == 0);
        QVERIFY(!QFile::exists(m_marker));
    }

    // Planted at the probe's place with the right size: replaced by the upload; planted
    // after the upload: the verified exec refuses it. It never runs.
    void plantedBinaryNeverRuns() {
        QVERIFY(QDir().mkpath(cacheDir()));
        QVERIFY(writeFile(target(), m_planted, 0755));
        QCOMPARE(QFileInfo(target()).size(), qint64(m_genuine.size()));
        auto up = SftpUpload::upload(*m_s, m_local);
        QVERIFY2(up, up ? "" : qPrintable(up.error().message));
        QVERIFY(!up->skipped);
        QFile f(target());
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), m_genuine);
        f.close();
        const Ran ok = runOn(*m_s, SftpUpload::verifiedExec(up->sha256, up->remotePath));
        QCOMPARE(ok.status, 0);
        QCOMPARE(ok.out, QByteArray("genuine\n"));

        // Planted after the upload, the user's own and private (the check by owner and
        // mode passes): the hash does not.
        QVERIFY(writeFile(target(), m_planted, 0500));
        const Ran r = runOn(*m_s, SftpUpload::verifiedExec(up->sha256, up->remotePath));
        QCOMPARE(r.status, 126);
        const QByteArray expected = "moe-workbench: " + target().toUtf8() + " is not the probe uploaded (sha256 " +
                                    sha256Hex(m_planted).toLatin1() + ", expected " + up->sha256.toLatin1() +
                                    "); refusing to run it\n";
        QCOMPARE(r.err, expected);
        QVERIFY(r.out.isEmpty());

        // A link at the probe's place to the genuine content elsewhere: not followed.
        const QString elsewhere = m_fx->dir() + QStringLiteral("/elsewhere");
        QVERIFY(writeFile(elsewhere, m_genuine, 0500));
        QVERIFY(QFile::remove(target()));
        QVERIFY(QFile::link(elsewhere, target()));
        const Ran link = runOn(*m_s, SftpUpload::verifiedExec(up->sha256, up->remotePath));
        QCOMPARE(link.status, 126);
        QVERIFY2(link.err.contains("is a symbolic link; refusing to run it"), link.err.constData());
        // ... and the upload replaces the link with the file.
        auto again = SftpUpload::upload(*m_s, m_local);
        QVERIFY2(again && !again->skipped, again ? "skipped" : qPrintable(again.error().message));
        QVERIFY(!QFileInfo(target()).isSymLink());
        QCOMPARE(runOn(*m_s, SftpUpload::verifiedExec(up->sha256, up->remotePath)).status, 0);

        // Writable by group or others (another user could rewrite it after the hash).
        QVERIFY(::chmod(target().toLocal8Bit().constData(), 0757) == 0);
        const Ran writable = runOn(*m_s, SftpUpload::verifiedExec(up->sha256, up->remotePath));
        QCOMPARE(writable.status, 126);
        QVERIFY2(writable.err.contains("is writable by group or others (-rwxr-xrwx); refusing to run it"),
                 writable.err.constData());
        QVERIFY(!QFile::exists(m_marker));
    }

    // A loop on the node swaps the planted program and the genuine one at the probe's
    // place as fast as it can. Run by path, the planted one runs (the race is real);
    // through the verified exec, each run is either the genuine program or a refusal.
    void swapBetweenCheckAndRunNeverRunsPlanted() {
        auto up = SftpUpload::upload(*m_s, m_local);
        QVERIFY2(up, up ? "" : qPrintable(up.error().message));
        const QString genuineCopy = m_fx->dir() + QStringLiteral("/genuine-copy");
        const QString plantedCopy = m_fx->dir() + QStringLiteral("/planted-copy");
        QVERIFY(writeFile(genuineCopy, m_genuine, 0500));
        QVERIFY(writeFile(plantedCopy, m_planted, 0500));
        QProcess swapper;
        swapper.start(QStringLiteral("sh"),
                      {QStringLiteral("-c"),
                       QStringLiteral("while :; do cp \"$1\" \"$3.a\"; mv -f \"$3.a\" \"$3\"; cp \"$2\" \"$3.b\"; mv -f \"$3.b\" \"$3\"; done"),
                       QStringLiteral("swapper"), plantedCopy, genuineCopy, target()});
        QVERIFY(swapper.waitForStarted());
        auto stopSwapper = qScopeGuard([&] {
            swapper.kill();  // our own child, by its PID
            swapper.waitForFinished(5000);
        });

        int genuineRuns = 0, refusals = 0;
        QElapsedTimer t;
        t.start();
        while ((genuineRuns < 3 || refusals < 3) && t.elapsed() < 60000) {
            const Ran r = runOn(*m_s, SftpUpload::verifiedExec(up->sha256, up->remotePath));
            QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
            QVERIFY2(!QFile::exists(m_marker), "the planted program ran through the verified exec");
            if (r.status == 0) {
                QCOMPARE(r.out, QByteArray("genuine\n"));
                ++genuineRuns;
            } else {
                QCOMPARE(r.status, 126);
                // Mid-swap the name may briefly be missing; otherwise the hash differs.
                QVERIFY2(r.err.contains("is not the probe uploaded") || r.err.contains("is not a regular file") ||
                             r.err.contains("cannot open"),
                         r.err.constData());
                QVERIFY(r.out.isEmpty());
                ++refusals;
            }
        }
        QVERIFY2(genuineRuns >= 3 && refusals >= 3,
                 qPrintable(QStringLiteral("%1 genuine runs, %2 refusals").arg(genuineRuns).arg(refusals)));
        QVERIFY(!QFile::exists(m_marker));

        // The control: run by path, as before the fix, the planted program gets to run.
        t.restart();
        while (!QFile::exists(m_marker) && t.elapsed() < 60000)
            runOn(*m_s, {up->remotePath});
        QVERIFY2(QFile::exists(m_marker), "the swap loop never put the planted program in place");
    }

    // Rank 0's report: read only from a checked results folder, never through a link.
    void resultsReadOnlyFromCheckedDir() {
        auto dir = SftpUpload::secureDirectory(*m_s, SftpUpload::resultsDir());
        QVERIFY2(dir, dir ? "" : qPrintable(dir.error().message));
        const QString results = m_cache + QStringLiteral("/results");
        QCOMPARE(*dir, results);
        QCOMPARE(modeOf(results), 0700);
        QVERIFY(writeFile(results + QStringLiteral("/r.json"), "{\"ok\": 1}\n", 0644));
        auto read = SftpUpload::readSecureFile(*m_s, SftpUpload::resultsDir(), QStringLiteral("r.json"), 1 << 20);
        QVERIFY2(read, read ? "" : qPrintable(read.error().message));
        QCOMPARE(*read, QByteArray("{\"ok\": 1}\n"));
        auto missing = SftpUpload::readSecureFile(*m_s, SftpUpload::resultsDir(), QStringLiteral("none.json"), 1 << 20);
        QVERIFY(missing && missing->isEmpty());
        auto big = SftpUpload::readSecureFile(*m_s, SftpUpload::resultsDir(), QStringLiteral("r.json"), 4);
        QVERIFY(!big);
        QVERIFY2(big.error().message.contains(QStringLiteral("r.json is 10 bytes, more than the 4 bytes allowed")),
                 qPrintable(big.error().message));
        auto name = SftpUpload::readSecureFile(*m_s, SftpUpload::resultsDir(), QStringLiteral("../x"), 1 << 20);
        QVERIFY(!name);
        QCOMPARE(name.error().kind, RemoteError::Kind::InvalidArgument);

        // The report itself a link (to a file of the user's elsewhere): refused.
        const QString secret = m_fx->dir() + QStringLiteral("/elsewhere.json");
        QVERIFY(writeFile(secret, "{\"planted\": 1}\n", 0600));
        QVERIFY(QFile::link(secret, results + QStringLiteral("/l.json")));
        auto link = SftpUpload::readSecureFile(*m_s, SftpUpload::resultsDir(), QStringLiteral("l.json"), 1 << 20);
        QVERIFY(!link);
        QCOMPARE(link.error().kind, RemoteError::Kind::Verification);
        QVERIFY2(link.error().message.contains(results + QStringLiteral("/l.json is a symbolic link")),
                 qPrintable(link.error().message));

        if (::geteuid() != 0)
            return;
        // Another user's file in it.
        QVERIFY(::chown((results + QStringLiteral("/r.json")).toLocal8Bit().constData(), kOtherUid, kOtherUid) == 0);
        auto foreign = SftpUpload::readSecureFile(*m_s, SftpUpload::resultsDir(), QStringLiteral("r.json"), 1 << 20);
        QVERIFY(!foreign);
        QVERIFY2(foreign.error().message.contains(QStringLiteral("r.json is owned by uid 65534")), qPrintable(foreign.error().message));

        // The folder a link to another user's folder holding a planted report.
        const QString evil = m_fx->dir() + QStringLiteral("/evil-results");
        QVERIFY(QDir().mkpath(evil));
        QVERIFY(writeFile(evil + QStringLiteral("/r.json"), "{\"planted\": 1}\n", 0644));
        QVERIFY(chownTree(evil, kOtherUid));
        QVERIFY(QDir(results).removeRecursively());
        QVERIFY(QFile::link(evil, results));
        auto planted = SftpUpload::readSecureFile(*m_s, SftpUpload::resultsDir(), QStringLiteral("r.json"), 1 << 20);
        QVERIFY(!planted);
        QCOMPARE(planted.error().kind, RemoteError::Kind::Verification);
        QVERIFY2(planted.error().message.contains(results + QStringLiteral(" is a symbolic link")), qPrintable(planted.error().message));
        auto again = SftpUpload::secureDirectory(*m_s, SftpUpload::resultsDir());
        QVERIFY(!again);
        QVERIFY(again.error().message.contains(QStringLiteral("refusing to use it")));
    }
};

QTEST_GUILESS_MAIN(TestRemoteCache)
#include "test_remote_cache.moc"
