// Faults: a rank killed or hung mid-run ends every other rank with exit 3 within
// --timeout, naming the missing rank; a rank that never joins is named too; bad options
// give the usage and exit 2; nothing is left running and no port stays taken.
#include "probe_launcher.h"

#include <QElapsedTimer>
#include <QMap>
#include <QRegularExpression>

#include <csignal>
#include <sys/types.h>

using namespace probetest;

namespace {

// A run long enough to be interrupted: 1 MiB per rank, many iterations.
const QStringList kLongRun{"-b", "256K", "-e", "256K", "-n", "1000000", "-w", "1"};

// Waits until rank 0 printed the table header, i.e. the mesh is up and timing started.
bool waitUntilMeasuring(ProbeRanks& ranks, QByteArray& out0, int timeoutMs) {
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < timeoutMs) {
        ranks.process(0).waitForReadyRead(100);
        out0 += ranks.process(0).readAllStandardOutput();
        if (out0.contains("(B)"))
            return true;
    }
    return false;
}

} // namespace

class TestProbeFaults : public QObject {
    Q_OBJECT
private:
    void expectOthersFail(ProbeRanks& ranks, int world, int missing, qint64 withinMs, QElapsedTimer& since) {
        QVERIFY2(ranks.waitAll(static_cast<int>(withinMs), missing), qPrintable(ranks.describe()));
        const qint64 elapsed = since.elapsed();
        QVERIFY2(elapsed <= withinMs, qPrintable(QStringLiteral("took %1 ms").arg(elapsed)));
        for (int r = 0; r < world; ++r) {
            if (r == missing)
                continue;
            QVERIFY2(ranks.run(r).exitCode == 3 && !ranks.run(r).crashed, qPrintable(ranks.describe()));
            QVERIFY2(ranks.run(r).err.contains(QStringLiteral("rank %1").arg(missing).toUtf8()),
                     qPrintable(ranks.describe()));
        }
    }

private slots:
    void initTestCase() { ensureRunSecret(); } // every rank started here shares it

    void killedRankEndsTheOthers() {
        ProbeRanks ranks(4, kLongRun + QStringList{"--timeout", "10"});
        QByteArray out0;
        QVERIFY2(waitUntilMeasuring(ranks, out0, 20000), qPrintable(ranks.describe()));
        QTest::qWait(300);
        QElapsedTimer since;
        since.start();
        ::kill(static_cast<pid_t>(ranks.process(2).processId()), SIGKILL);
        expectOthersFail(ranks, 4, 2, 10000, since);
    }

    void killedRankEndsTheOthersUnderPairwise() {
        // Larger chunks than the mesh case so that the kill lands inside a step.
        ProbeRanks ranks(4, QStringList{"--schedule", "pairwise", "-b", "4M", "-e", "4M", "-n", "1000000", "-w",
                                        "1", "--timeout", "10"});
        QByteArray out0;
        QVERIFY2(waitUntilMeasuring(ranks, out0, 20000), qPrintable(ranks.describe()));
        QVERIFY2(out0.contains("schedule pairwise"), out0.constData());
        QTest::qWait(300);
        QElapsedTimer since;
        since.start();
        ::kill(static_cast<pid_t>(ranks.process(1).processId()), SIGKILL);
        expectOthersFail(ranks, 4, 1, 10000, since);
    }

    void hungRankEndsTheOthersUnderPairwise() {
        ProbeRanks ranks(4, QStringList{"--schedule", "pairwise", "--timeout", "3"} + kLongRun);
        QByteArray out0;
        QVERIFY2(waitUntilMeasuring(ranks, out0, 20000), qPrintable(ranks.describe()));
        QElapsedTimer since;
        since.start();
        const auto pid = static_cast<pid_t>(ranks.process(2).processId());
        ::kill(pid, SIGSTOP);
        // Every other rank ends within the timeout. Under pairwise a rank waits on one
        // partner per step, so a rank stuck behind rank 2 may be the one it sees fail (by
        // its silence, or by its connection closing as it leaves). Rank 0 follows the
        // other ranks' notices to rank 2 and names it; a rank that left before rank 0's
        // verdict came may name the partner it waited on, but following the names from
        // any rank always leads to rank 2, and no rank names itself.
        QVERIFY2(ranks.waitAll(9000, 2), qPrintable(ranks.describe()));
        QVERIFY2(since.elapsed() <= 9000, qPrintable(QStringLiteral("took %1 ms").arg(since.elapsed())));
        QVERIFY(since.elapsed() >= 2500);
        const QRegularExpression namedRe(QStringLiteral("rank (\\d+) is missing: "));
        QMap<int, int> named;
        for (int r : {0, 1, 3}) {
            QVERIFY2(ranks.run(r).exitCode == 3 && !ranks.run(r).crashed, qPrintable(ranks.describe()));
            const QRegularExpressionMatch m = namedRe.match(QString::fromUtf8(ranks.run(r).err));
            QVERIFY2(m.hasMatch(), qPrintable(ranks.describe()));
            named[r] = m.captured(1).toInt();
            QVERIFY2(named[r] != r, qPrintable(ranks.describe()));
        }
        qInfo("names: 0->%d 1->%d 3->%d", named[0], named[1], named[3]);
        QVERIFY2(named[0] == 2, qPrintable(ranks.describe()));
        for (int r : {0, 1, 3}) {
            int at = r;
            for (int hop = 0; hop < 4 && at != 2; ++hop)
                at = named.value(at, -1);
            QVERIFY2(at == 2, qPrintable(ranks.describe()));
        }
        ::kill(pid, SIGKILL);
        ::kill(pid, SIGCONT);
    }

    void mixedSchedulesAreRefused() {
        // Every rank must run the same schedule; rank 0 names the one that differs.
        const quint16 port = freePort();
        std::vector<std::unique_ptr<QProcess>> ranks;
        for (int r = 0; r < 3; ++r) {
            ranks.push_back(std::make_unique<QProcess>());
            QStringList args{"--rank",    QString::number(r), "--world", "3", "--rendezvous",
                             QStringLiteral("127.0.0.1:%1").arg(port), "--listen",
                             QStringLiteral("127.0.0.%1").arg(r + 1), "--timeout", "5", "-b", "4K", "-e", "4K"};
            if (r == 2)
                args += QStringList{"--schedule", "pairwise"};
            ranks.back()->start(probePath(), args);
        }
        for (auto& p : ranks)
            QVERIFY(p->waitForFinished(20000));
        QCOMPARE(ranks[0]->exitCode(), 3);
        const QByteArray err0 = ranks[0]->readAllStandardError();
        QVERIFY2(err0.contains("rank 2 runs --schedule pairwise, rank 0 runs --schedule mesh"), err0.constData());
        QCOMPARE(ranks[1]->exitCode(), 3);
        QCOMPARE(ranks[2]->exitCode(), 3);
    }

    void hungRankEndsTheOthersAfterTimeout() {
        ProbeRanks ranks(4, kLongRun + QStringList{"--timeout", "3"});
        QByteArray out0;
        QVERIFY2(waitUntilMeasuring(ranks, out0, 20000), qPrintable(ranks.describe()));
        QElapsedTimer since;
        since.start();
        const auto pid = static_cast<pid_t>(ranks.process(3).processId());
        ::kill(pid, SIGSTOP);
        // Silence is tolerated for --timeout (3 s); the abort notice spreads right after.
        expectOthersFail(ranks, 4, 3, 9000, since);
        QVERIFY(since.elapsed() >= 2500);
        ::kill(pid, SIGKILL);
        ::kill(pid, SIGCONT);
    }

    void rankThatNeverJoinsIsNamed() {
        const quint16 port = freePort();
        QProcess r0, r1;
        const QStringList common{"--world",   "3", "--rendezvous", QStringLiteral("127.0.0.1:%1").arg(port),
                                 "--timeout", "2", "-b",           "1K",
                                 "-e",        "1K"};
        QElapsedTimer t;
        t.start();
        r0.start(probePath(), QStringList{"--rank", "0", "--listen", "127.0.0.1"} + common);
        r1.start(probePath(), QStringList{"--rank", "1", "--listen", "127.0.0.2"} + common);
        QVERIFY(r0.waitForFinished(15000));
        QVERIFY(r1.waitForFinished(15000));
        QVERIFY(t.elapsed() < 10000);
        QCOMPARE(r0.exitCode(), 3);
        QCOMPARE(r1.exitCode(), 3);
        const QByteArray err0 = r0.readAllStandardError();
        QVERIFY2(err0.contains("rank 2 never joined"), err0.constData());
        const QByteArray err1 = r1.readAllStandardError();
        QVERIFY2(err1.contains("rank 2"), err1.constData());
    }

    void rendezvousThatNeverAnswersTimesOut() {
        const quint16 port = freePort();
        QProcess r1;
        QElapsedTimer t;
        t.start();
        r1.start(probePath(), {"--rank", "1", "--world", "2", "--rendezvous",
                               QStringLiteral("127.0.0.1:%1").arg(port), "--timeout", "1.5"});
        QVERIFY(r1.waitForFinished(10000));
        QCOMPARE(r1.exitCode(), 3);
        QVERIFY(t.elapsed() < 6000);
        QVERIFY(r1.readAllStandardError().contains("rank 0"));
    }

    void badOptionsGiveUsageAndExit2_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QByteArray>("mentions"); // in the error line, when not empty
        QTest::newRow("unknown flag") << QStringList{"--bogus"} << QByteArray();
        QTest::newRow("bad size") << QStringList{"-b", "1X"} << QByteArray();
        QTest::newRow("rank beyond world")
            << QStringList{"--rank", "4", "--world", "4", "--rendezvous", "127.0.0.1:1"} << QByteArray();
        QTest::newRow("no rendezvous") << QStringList{"--rank", "0", "--world", "2"} << QByteArray();
        QTest::newRow("bad check") << QStringList{"-c", "2"} << QByteArray();
        QTest::newRow("bad backend") << QStringList{"--backend", "gloo"} << QByteArray();
        QTest::newRow("bad pattern") << QStringList{"--pattern", "hot:0:2"} << QByteArray();
        QTest::newRow("missing matrix") << QStringList{"--pattern", "matrix:/nonexistent/matrix.txt"} << QByteArray();
        QTest::newRow("missing value") << QStringList{"-n"} << QByteArray();
        QTest::newRow("bad rendezvous")
            << QStringList{"--rank", "0", "--world", "2", "--rendezvous", "nohostport"} << QByteArray();
        QTest::newRow("bad schedule") << QStringList{"--schedule", "bogus"}
                                      << QByteArray("--schedule must be mesh or pairwise, not 'bogus'");
        QTest::newRow("ep size not dividing the world")
            << QStringList{"--rank", "0", "--world", "4", "--rendezvous", "127.0.0.1:1", "--ep-size", "3"}
            << QByteArray("--ep-size 3 x --tp 1 x --pp 1 = 3 does not divide the 4 ranks");
        QTest::newRow("ep size with tp not dividing the world")
            << QStringList{"--rank", "0", "--world", "4", "--rendezvous", "127.0.0.1:1", "--ep-size", "4", "--tp", "2"}
            << QByteArray("--ep-size 4 x --tp 2 x --pp 1 = 8 does not divide the 4 ranks");
        QTest::newRow("negative ep size") << QStringList{"--ep-size", "-1"} << QByteArray("--ep-size");
        QTest::newRow("tp without ep size") << QStringList{"--tp", "2"}
                                            << QByteArray("--tp describes the EP layout and needs --ep-size");
        QTest::newRow("bad ep order")
            << QStringList{"--ep-size", "1", "--ep-order", "tp-ep-xx"}
            << QByteArray("--ep-order must be names out of tp, cp, ep, dp, pp");
        QTest::newRow("ep order leaving out tp")
            << QStringList{"--rank", "0", "--world", "4", "--rendezvous", "127.0.0.1:1", "--ep-size", "2", "--tp",
                           "2", "--ep-order", "ep-dp"}
            << QByteArray("--ep-order 'ep-dp' leaves out tp, whose size is 2");
        QTest::newRow("pairwise with nccl")
            << QStringList{"--backend", "nccl", "--schedule", "pairwise"}
            << QByteArray("--schedule pairwise applies to the tcp backend only");
    }

    void badOptionsGiveUsageAndExit2() {
        QFETCH(QStringList, args);
        QFETCH(QByteArray, mentions);
        QProcess p;
        p.start(probePath(), args);
        QVERIFY(p.waitForFinished(10000));
        QCOMPARE(p.exitCode(), 2);
        const QByteArray err = p.readAllStandardError();
        QVERIFY2(err.contains("usage: moe-probe"), err.constData());
        QVERIFY2(mentions.isEmpty() || err.startsWith("moe-probe: error: " + mentions), err.constData());
    }

    void helpAndVersionExit0() {
        QProcess p;
        p.start(probePath(), {"--help"});
        QVERIFY(p.waitForFinished(10000));
        QCOMPARE(p.exitCode(), 0);
        const QByteArray help = p.readAllStandardOutput();
        QVERIFY(help.contains("--rendezvous"));
        QVERIFY(help.contains("--schedule mesh|pairwise"));
        QVERIFY(help.contains("--ep-size N"));
        p.start(probePath(), {"--version"});
        QVERIFY(p.waitForFinished(10000));
        QCOMPARE(p.exitCode(), 0);
        QVERIFY(p.readAllStandardOutput().contains("moe-probe/2"));
    }

    void finishedRunLeavesNoPortOrProcess() {
        ProbeRanks ranks(4, {"-b", "8K", "-e", "8K", "-n", "2", "-w", "0", "--timeout", "10"});
        QVERIFY2(ranks.waitAll(30000), qPrintable(ranks.describe()));
        for (int r = 0; r < 4; ++r) {
            QCOMPARE(ranks.run(r).exitCode, 0);
            QCOMPARE(ranks.process(r).state(), QProcess::NotRunning);
        }
        // The rendezvous port is free again at once (no lingering listener).
        int fd = -1;
        QCOMPARE(bindPort("127.0.0.1", ranks.port(), &fd), ranks.port());
        ::close(fd);
        // And the mesh listeners are gone: nothing accepts on the ports the ranks used.
        const QByteArray table = ranks.run(0).out;
        for (int r = 0; r < 4; ++r) {
            const QByteArray key = QStringLiteral("listen 127.0.0.%1:").arg(r + 1).toLatin1();
            const int at = table.indexOf(key);
            QVERIFY2(at >= 0, table.constData());
            const quint16 port = table.mid(at + key.size(), 5).trimmed().toUShort();
            QVERIFY(port > 0);
            int keep = -1;
            QCOMPARE(bindPort(QStringLiteral("127.0.0.%1").arg(r + 1).toLatin1().constData(), port, &keep),
                     port);
            ::close(keep);
        }
    }
};

QTEST_GUILESS_MAIN(TestProbeFaults)
#include "test_probe_faults.moc"
