// Stage 1 on this computer (launcher local, docs/remote.md "Local clusters"), through
// the real moewb CLI and the real probe: a local cluster of 4 ranks measured at 2 and 4
// ranks; a cancel that leaves no probe behind; and (root only) the same 4 ranks in
// network namespaces behind links shaped with tc tbf, slower than loopback as the rate
// says, with nothing left behind.
#include "store/ProjectStore.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <csignal>

#include <unistd.h>

using namespace moewb;

namespace {

const QString kRecord = QStringLiteral("moe-64e-top8");

struct Cli {
    int exitCode = -1;
    QString out, err;
};

QString bundle() { return QStringLiteral(MOEWB_PROBE_BUNDLE_DIR); }

// A process of this machine: pid, parent, argv (NUL-separated words), environment.
struct Proc {
    qint64 pid = 0, ppid = 0;
    QStringList argv;
    QByteArray environ;
};

QList<Proc> processes() {
    QList<Proc> out;
    for (const QString& e : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        bool ok = false;
        const qint64 pid = e.toLongLong(&ok);
        if (!ok)
            continue;
        QFile cmd(QStringLiteral("/proc/%1/cmdline").arg(pid));
        QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
        if (!cmd.open(QIODevice::ReadOnly) || !stat.open(QIODevice::ReadOnly))
            continue;
        Proc p;
        p.pid = pid;
        for (const QByteArray& w : cmd.readAll().split('\0'))
            if (!w.isEmpty())
                p.argv << QString::fromUtf8(w);
        // "pid (comm) state ppid ...": the fields after the last ')'.
        const QByteArray s = stat.readAll();
        p.ppid = s.mid(s.lastIndexOf(')') + 2).split(' ').value(1).toLongLong();
        QFile env(QStringLiteral("/proc/%1/environ").arg(pid));
        if (env.open(QIODevice::ReadOnly))
            p.environ = env.readAll();
        out << p;
    }
    return out;
}

QStringList netnsList() {
    QProcess p;
    p.start(QStringLiteral("ip"), {QStringLiteral("netns"), QStringLiteral("list")});
    p.waitForFinished(10000);
    QStringList out;
    for (const QByteArray& l : p.readAllStandardOutput().split('\n'))
        if (!l.trimmed().isEmpty())
            out << QString::fromUtf8(l).section(QLatin1Char(' '), 0, 0);
    return out;
}

QString ipLinks() {
    QProcess p;
    p.start(QStringLiteral("ip"), {QStringLiteral("-o"), QStringLiteral("link")});
    p.waitForFinished(10000);
    return QString::fromUtf8(p.readAllStandardOutput());
}

// The median time of each size's samples (µs), from the stored run.
QMap<quint64, double> medianTimes(store::ProjectStore& p, const QString& run) {
    QMap<quint64, QList<double>> bySize;
    const auto r = p.run(run);
    if (!r)
        return {};
    for (const auto& s : p.commSamples(r->id))
        bySize[s.bytesPerRank] << s.timeUs;
    QMap<quint64, double> out;
    for (auto it = bySize.begin(); it != bySize.end(); ++it) {
        QList<double> v = it.value();
        std::sort(v.begin(), v.end());
        out[it.key()] = v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
    }
    return out;
}

} // namespace

class TestLocalCluster : public QObject {
    Q_OBJECT

    QTemporaryDir m_tmp;
    QString m_project;

    QProcessEnvironment env() const {
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        e.insert(QStringLiteral("HOME"), m_tmp.path());
        e.insert(QStringLiteral("XDG_DATA_HOME"), m_tmp.filePath(QStringLiteral("data")));
        return e;
    }
    Cli moewb(const QStringList& args, int timeoutMs = 60000) {
        QProcess p;
        p.setProcessEnvironment(env());
        p.start(QStringLiteral(MOEWB_CLI), QStringList{QStringLiteral("--project"), m_project} + args);
        if (!p.waitForFinished(timeoutMs)) {
            p.kill();
            p.waitForFinished();
            return {};
        }
        return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, QString::fromUtf8(p.readAllStandardOutput()),
                QString::fromUtf8(p.readAllStandardError())};
    }
    QStringList stage1(const QString& cluster, const QString& nodes, const QString& sizes, const QString& name) const {
        return {QStringLiteral("run"), QStringLiteral("stage1"), QStringLiteral("--cluster"), cluster,
                QStringLiteral("--record"), kRecord, QStringLiteral("--nodes"), nodes, QStringLiteral("--sizes"), sizes,
                QStringLiteral("-R"), QStringLiteral("2"), QStringLiteral("-n"), QStringLiteral("3"), QStringLiteral("-w"),
                QStringLiteral("1"), QStringLiteral("--name"), name, QStringLiteral("--probe-timeout"), QStringLiteral("10"),
                QStringLiteral("--probe-bundle"), bundle()};
    }

private slots:
    void initTestCase() {
        QVERIFY(m_tmp.isValid());
        m_project = m_tmp.filePath(QStringLiteral("local.moewb"));
        auto opened = store::ProjectStore::open(m_project);
        QVERIFY(opened);
        QFile f(QStringLiteral(MOEWB_SOURCE_DIR "/tests/fixtures/records/moe-64e-top8.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(opened.value()->addConfigRecord(kRecord, QJsonDocument::fromJson(f.readAll()).object(), true));
    }

    // (a) cluster add --local / list / check, then run stage1 --nodes 2,4: two runs whose
    // rows are exactly every (size, repeat, iteration) asked for.
    void localClusterTwoPoints() {
        Cli r = moewb({QStringLiteral("cluster"), QStringLiteral("add"), QStringLiteral("A"), QStringLiteral("--local"),
                       QStringLiteral("--ranks"), QStringLiteral("4")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        // Refused: too few ranks, --local with --node, a rate that is not one.
        for (const QStringList& bad : {QStringList{QStringLiteral("--ranks"), QStringLiteral("1")},
                                       QStringList{QStringLiteral("--ranks"), QStringLiteral("2"), QStringLiteral("--node"),
                                                   QStringLiteral("h1")},
                                       QStringList{QStringLiteral("--ranks"), QStringLiteral("2"), QStringLiteral("--netns-rate"),
                                                   QStringLiteral("fast")}}) {
            r = moewb(QStringList{QStringLiteral("cluster"), QStringLiteral("add"), QStringLiteral("X"), QStringLiteral("--local")} + bad);
            QVERIFY2(r.exitCode == 2, qPrintable(bad.join(QLatin1Char(' ')) + QStringLiteral(": ") + r.err));
        }
        r = moewb({QStringLiteral("cluster"), QStringLiteral("list")});
        QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("this computer (4 ranks, loopback)")), qPrintable(r.out + r.err));
        r = moewb({QStringLiteral("--json"), QStringLiteral("cluster"), QStringLiteral("check"), QStringLiteral("A"),
                   QStringLiteral("--probe-bundle"), bundle()});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        const QJsonObject check = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(check.value(QStringLiteral("nodes")).toArray().size(), 4);
        QCOMPARE(check.value(QStringLiteral("nodes")).toArray().at(3).toObject().value(QStringLiteral("node")).toString(),
                 QStringLiteral("local:3"));
        char host[256] = {};
        ::gethostname(host, sizeof host - 1);
        QCOMPARE(check.value(QStringLiteral("nodes")).toArray().at(0).toObject().value(QStringLiteral("inventory")).toObject()
                     .value(QStringLiteral("hostname")).toString(),
                 QString::fromLocal8Bit(host));

        QElapsedTimer t;
        t.start();
        r = moewb(stage1(QStringLiteral("A"), QStringLiteral("2,4"), QStringLiteral("64K,1M"), QStringLiteral("loc")), 120000);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        qInfo("local 2,4 ranks x 64K,1M: %lld ms", t.elapsed());
        QVERIFY(r.out.contains(QStringLiteral("saved run loc-n2")));
        QVERIFY(r.out.contains(QStringLiteral("saved run loc-n4")));
        QVERIFY2(!r.err.contains(QStringLiteral("ssh")), qPrintable(r.err));

        auto opened = store::ProjectStore::open(m_project, store::OpenMode::MustExist);
        QVERIFY(opened);
        auto& p = *opened.value();
        for (int n : {2, 4}) {
            const auto run = p.run(QStringLiteral("loc-n%1").arg(n));
            QVERIFY(run);
            QCOMPARE(run->kind, store::RunKind::Probe);
            QCOMPARE(run->clusterName, QStringLiteral("A"));
            QCOMPARE(run->environment.value(QStringLiteral("launcher")).toString(), QStringLiteral("local"));
            // One computer is one node; the ranks are its world.
            QCOMPARE(run->environment.value(QStringLiteral("nodes")).toInt(), 1);
            QCOMPARE(run->environment.value(QStringLiteral("world")).toInt(), n);
            QJsonArray names;
            for (int k = 0; k < n; ++k)
                names.append(QStringLiteral("local:%1").arg(k));
            QCOMPARE(run->environment.value(QStringLiteral("node_addresses")).toArray(), names);
            // Brute force: every (size, repeat, iteration) of 2 sizes x 2 repeats x 3
            // iterations exactly once, each with a time > 0.
            QSet<QString> want, got;
            for (quint64 size : {quint64(64) << 10, quint64(1) << 20})
                for (int rep = 0; rep < 2; ++rep)
                    for (int it = 0; it < 3; ++it)
                        want.insert(QStringLiteral("%1/%2/%3").arg(size).arg(rep).arg(it));
            const auto samples = p.commSamples(run->id);
            QCOMPARE(qsizetype(samples.size()), qsizetype(want.size()));
            for (const auto& s : samples) {
                QVERIFY(s.timeUs > 0);
                got.insert(QStringLiteral("%1/%2/%3").arg(s.bytesPerRank).arg(s.repeat).arg(s.iteration));
            }
            QCOMPARE(got, want);
        }
        // The rank table the probe reported: as many ranks as the point, all on this host.
        const auto run4 = p.run(QStringLiteral("loc-n4"));
        QCOMPARE(run4->environment.value(QStringLiteral("world")).toInt(), 4);
    }

    // (b) Ctrl-C in the middle of a point: moewb exits 130, no run saved, and no process
    // of the run is left (by parent, and by the run's own rendezvous address).
    void cancelLeavesNoProbe() {
        QProcess p;
        p.setProcessEnvironment(env());
        p.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        p.start(QStringLiteral(MOEWB_CLI),
                QStringList{QStringLiteral("--project"), m_project} +
                    QStringList{QStringLiteral("run"), QStringLiteral("stage1"), QStringLiteral("--cluster"), QStringLiteral("A"),
                                QStringLiteral("--record"), kRecord, QStringLiteral("--nodes"), QStringLiteral("4"),
                                QStringLiteral("--sizes"), QStringLiteral("16M"), QStringLiteral("-R"), QStringLiteral("50"),
                                QStringLiteral("-n"), QStringLiteral("50"), QStringLiteral("--name"), QStringLiteral("cancelme"),
                                QStringLiteral("--probe-bundle"), bundle()});
        QVERIFY(p.waitForStarted());
        const qint64 cli = p.processId();
        QList<Proc> ranks;
        QElapsedTimer t;
        t.start();
        while (t.elapsed() < 20000) {
            ranks.clear();
            for (const Proc& q : processes())
                if (q.ppid == cli && q.argv.value(0) == QLatin1String("moe-probe"))
                    ranks << q;
            if (ranks.size() == 4)
                break;
            QTest::qWait(20);
        }
        QCOMPARE(ranks.size(), 4);
        // Their tag: the run's rendezvous address, on every rank's command line.
        const qsizetype at = ranks[0].argv.indexOf(QStringLiteral("--rendezvous"));
        QVERIFY(at > 0);
        const QString rendezvous = ranks[0].argv.value(at + 1);
        QVERIFY(rendezvous.startsWith(QStringLiteral("127.0.0.1:")));
        // The secret: in each rank's environment, never on its command line.
        static const QRegularExpression secretRe(QStringLiteral("(?:^|\\x00)MOEWB_PROBE_SECRET=([0-9a-f]{64})(?:\\x00|$)"));
        for (const Proc& q : ranks) {
            QCOMPARE(q.argv.value(q.argv.indexOf(QStringLiteral("--rendezvous")) + 1), rendezvous);
            const auto m = secretRe.match(QString::fromLatin1(q.environ));
            QVERIFY2(m.hasMatch(), "no secret in the rank's environment");
            QVERIFY(!q.argv.join(QLatin1Char(' ')).contains(m.captured(1)));
        }
        QTest::qWait(300);
        ::kill(pid_t(cli), SIGINT);
        QVERIFY(p.waitForFinished(5000));
        QCOMPARE(p.exitCode(), 130);
        qInfo("cancel: moewb ended %lld ms after the ranks started", t.elapsed());
        for (const Proc& q : processes()) {
            QVERIFY2(q.ppid != cli, qPrintable(q.argv.join(QLatin1Char(' '))));
            QVERIFY2(!q.argv.contains(rendezvous), qPrintable(q.argv.join(QLatin1Char(' '))));
        }
        auto opened = store::ProjectStore::open(m_project, store::OpenMode::MustExist);
        QVERIFY(!opened.value()->run(QStringLiteral("cancelme-n4")));
    }

    // (c) Root: the 4 ranks in network namespaces at 100mbit measure 1 MiB slower than on
    // loopback, no faster than the rate allows, and leave no namespace or link behind; a
    // namespace left by a dead run is removed first.
    void shapedClusterIsSlowerAndLeavesNothing() {
        if (::geteuid() != 0)
            QSKIP("network namespaces and tc need root (CI runs this as root)");
        // A namespace of a run that is gone: a PID that no longer exists.
        QProcess gone;
        gone.start(QStringLiteral("sleep"), {QStringLiteral("30")});
        QVERIFY(gone.waitForStarted());
        const qint64 deadPid = gone.processId();
        gone.kill();
        QVERIFY(gone.waitForFinished());
        QVERIFY(deadPid > 0 && ::kill(pid_t(deadPid), 0) != 0);
        const QString stale = QStringLiteral("moewb-%1-0-hub").arg(deadPid);
        QProcess add;
        add.start(QStringLiteral("ip"), {QStringLiteral("netns"), QStringLiteral("add"), stale});
        QVERIFY(add.waitForFinished() && add.exitCode() == 0);

        Cli r = moewb({QStringLiteral("cluster"), QStringLiteral("add"), QStringLiteral("B"), QStringLiteral("--local"),
                       QStringLiteral("--ranks"), QStringLiteral("4"), QStringLiteral("--netns-rate"), QStringLiteral("100mbit")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QElapsedTimer t;
        t.start();
        // The loopback run of the same shape, in this test.
        r = moewb(stage1(QStringLiteral("A"), QStringLiteral("4"), QStringLiteral("1M"), QStringLiteral("lo")), 120000);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QProcess shaped;
        shaped.setProcessEnvironment(env());
        shaped.start(QStringLiteral(MOEWB_CLI),
                     QStringList{QStringLiteral("--project"), m_project} +
                         stage1(QStringLiteral("B"), QStringLiteral("4"), QStringLiteral("1M"), QStringLiteral("tbf")));
        QVERIFY(shaped.waitForStarted());
        const qint64 cli = shaped.processId();
        QVERIFY(shaped.waitForFinished(120000));
        const QString err = QString::fromUtf8(shaped.readAllStandardError());
        QVERIFY2(shaped.exitCode() == 0, qPrintable(err));
        qInfo("loopback + shaped, 4 ranks x 1M: %lld ms", t.elapsed());
        QVERIFY2(err.contains(QStringLiteral("removed network namespaces left by an earlier run: ") + stale), qPrintable(err));
        QVERIFY2(err.contains(QStringLiteral("tc tbf")), qPrintable(err));

        auto opened = store::ProjectStore::open(m_project, store::OpenMode::MustExist);
        QVERIFY(opened);
        auto& p = *opened.value();
        const auto tbfRun = p.run(QStringLiteral("tbf-n4"));
        QVERIFY(tbfRun);
        QCOMPARE(tbfRun->environment.value(QStringLiteral("netns_rate")).toString(), QStringLiteral("100mbit"));
        const double lo = medianTimes(p, QStringLiteral("lo-n4")).value(1u << 20);
        const double tbf = medianTimes(p, QStringLiteral("tbf-n4")).value(1u << 20);
        QVERIFY(lo > 0 && tbf > 0);
        // Bus bandwidth of an all-to-all: (n-1)/n x S / t; the same S and n, so lower means
        // slower. And the rate bounds it: each rank's link carries (n-1)/n x 1 MiB at 100
        // Mbit/s, less what tbf's burst lets through at once (10 ms of the rate).
        const double busLo = 0.75 * (1 << 20) / lo, busTbf = 0.75 * (1 << 20) / tbf;
        qInfo("1 MiB per rank: loopback %.0f us (%.1f MB/s bus), 100mbit %.0f us (%.1f MB/s bus)", lo, busLo, tbf, busTbf);
        QVERIFY2(busTbf < busLo, qPrintable(QStringLiteral("%1 >= %2").arg(busTbf).arg(busLo)));
        const double floorUs = (0.75 * (1 << 20) - 125000.0) / (100e6 / 8) * 1e6;
        QVERIFY2(tbf >= 0.8 * floorUs, qPrintable(QStringLiteral("%1 us < 0.8 x %2 us").arg(tbf).arg(floorUs)));
        // Nothing left: no namespace of that run (nor the stale one), no link naming one.
        const QStringList left = netnsList();
        const QString prefix = QStringLiteral("moewb-%1-").arg(cli);
        for (const QString& ns : left) {
            QVERIFY2(!ns.startsWith(prefix), qPrintable(ns));
            QVERIFY2(ns != stale, qPrintable(ns));
        }
        QVERIFY2(!ipLinks().contains(prefix), qPrintable(ipLinks()));
    }
};

QTEST_GUILESS_MAIN(TestLocalCluster)
#include "test_local_cluster.moc"
