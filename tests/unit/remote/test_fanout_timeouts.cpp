// The fan-out's bounds (remote/launch/FanoutTimeouts.h) against the rule written out by
// hand: connect and helper bounds + 250 ms per node beyond the first; uploads at
// 10 MB/s through the client's link for all nodes at once; the probe run = its
// --timeout + 10 s + 1 s per rank + each rank's bytes at 10 MB/s. Every expected figure
// below is worked out here from that rule, in literal milliseconds.
#include "launch/FanoutTimeouts.h"

#include <QTest>

#include <climits>

using moewb::remote::FanoutTimeouts;

class TestFanoutTimeouts : public QObject {
    Q_OBJECT

private slots:
    void oneNodeKeepsTheRequestsBounds() {
        const auto t = FanoutTimeouts::scaled(10000, 60000, 1);
        QCOMPARE(t.nodes, 1);
        QCOMPARE(t.connectMs, 10000);
        QCOMPARE(t.helperMs, 60000);
        // A 3 MB probe to one node: 3,000,000 B / 10 MB/s = 300 ms on top of the helper bound.
        QCOMPARE(t.uploadMs(3000000), 60300);
    }

    void growsLinearlyWithTheNodes() {
        // 32 nodes: 31 more handshakes and helpers at 250 ms each = 7750 ms.
        const auto t = FanoutTimeouts::scaled(10000, 60000, 32);
        QCOMPARE(t.connectMs, 17750);
        QCOMPARE(t.helperMs, 67750);
        // 32 uploads of 3 MB share the link: 96 MB / 10 MB/s = 9600 ms.
        QCOMPARE(t.uploadMs(3000000), 77350);
        // One report of 1 MB read back from the head node: 100 ms.
        QCOMPARE(t.collectMs(1000000), 67850);
        // Each node adds exactly 250 ms to connect and helper, from 1 to 64 nodes.
        for (int n = 1; n < 64; ++n) {
            const auto a = FanoutTimeouts::scaled(5000, 20000, n);
            const auto b = FanoutTimeouts::scaled(5000, 20000, n + 1);
            QCOMPARE(b.connectMs - a.connectMs, 250);
            QCOMPARE(b.helperMs - a.helperMs, 250);
            QCOMPARE(a.connectMs, 5000 + 250 * (n - 1));
        }
        // The bench's points: 4, 8, 16, 32 nodes with the request's defaults.
        const int connect[] = {10750, 11750, 13750, 17750};
        const int nodes[] = {4, 8, 16, 32};
        for (int i = 0; i < 4; ++i)
            QCOMPARE(FanoutTimeouts::scaled(10000, 60000, nodes[i]).connectMs, connect[i]);
    }

    void uploadsRoundUpToTheMillisecond() {
        const auto t = FanoutTimeouts::scaled(1000, 1000, 1);
        QCOMPARE(t.uploadMs(0), 1000);
        QCOMPARE(t.uploadMs(1), 1001);          // 0.0001 ms, rounded up
        QCOMPARE(t.uploadMs(10000), 1001);      // exactly 1 ms
        QCOMPARE(t.uploadMs(10001), 1002);
        QCOMPARE(t.uploadMs(25000000), 3500);   // 2.5 s
    }

    void probeRunScalesWithRanksSizesAndPasses() {
        // The bench's request: 64 KiB, warm-up 1, 2 iterations, 1 repeat, --timeout 60, 32
        // ranks: passes 1 + 1 × 2 + 1 = 4, 262,144 B -> 26.2144 ms -> 27 ms;
        // 60,000 + 10,000 + 32 × 1,000 + 27.
        QCOMPARE(FanoutTimeouts::probeRunMs(32, {65536}, 1, 2, 1, 60), 102027);
        QCOMPARE(FanoutTimeouts::probeRunMs(4, {65536}, 1, 2, 1, 60), 74027);
        // The window's default: 1, 16, 64 MiB in one invocation, warm-up 5, 20
        // iterations, 5 repeats, 4 ranks: 84,934,656 B × 106 passes = 9,003,073,536 B ->
        // 900,307.3536 ms -> 900,308; + 60,000 + 10,000 + 4,000.
        QCOMPARE(FanoutTimeouts::probeRunMs(4, {1u << 20, 16u << 20, 64u << 20}, 5, 20, 5, 60), 974308);
        // Twice the iterations: 5 + 200 + 1 = 206 passes -> 17,496,539,136 B -> 1,749,654 ms.
        QCOMPARE(FanoutTimeouts::probeRunMs(4, {1u << 20, 16u << 20, 64u << 20}, 5, 40, 5, 60), 1823654);
        // Nothing to send still leaves the probe's own timeout to fire first.
        QVERIFY(FanoutTimeouts::probeRunMs(2, {1}, 0, 1, 1, 5) > 5000);
    }

    void saturatesInsteadOfOverflowing() {
        QCOMPARE(FanoutTimeouts::probeRunMs(4, {1ull << 62}, 5, 20, 5, 60), INT_MAX);
        QCOMPARE(FanoutTimeouts::probeRunMs(INT_MAX, {1}, 0, 1, 1, 60), INT_MAX);
        const auto t = FanoutTimeouts::scaled(INT_MAX, INT_MAX, INT_MAX);
        QCOMPARE(t.connectMs, INT_MAX);
        QCOMPARE(t.helperMs, INT_MAX);
        QCOMPARE(FanoutTimeouts::scaled(10000, 60000, 1000).uploadMs(LLONG_MAX), INT_MAX);
    }

    void nonsenseCountsCountAsOne() {
        const auto t = FanoutTimeouts::scaled(10000, 60000, 0);
        QCOMPARE(t.nodes, 1);
        QCOMPARE(t.connectMs, 10000);
        QCOMPARE(FanoutTimeouts::scaled(10000, 60000, -5).helperMs, 60000);
        // 0 ranks, 0 repeats, 0 iterations: 1 rank, 1 × 1 + warm-up 0 + 1 = 2 passes.
        QCOMPARE(FanoutTimeouts::probeRunMs(0, {10000000}, 0, 0, 0, 0), 10000 + 1000 + 2000);
    }

    void reportBound() {
        // 3 sizes × 5 repeats × 20 iterations = 300 samples, for the world and 4 EP groups:
        // 1500 samples × 32 B + 64 KiB.
        QCOMPARE(FanoutTimeouts::reportBytes(3, 20, 5, 4), qint64(65536 + 48000));
        QCOMPARE(FanoutTimeouts::reportBytes(1, 2, 1, 1), qint64(65536 + 2 * 2 * 32));
    }
};

QTEST_APPLESS_MAIN(TestFanoutTimeouts)
#include "test_fanout_timeouts.moc"
