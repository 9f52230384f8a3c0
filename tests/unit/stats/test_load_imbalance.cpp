// Load ratio, capacity overflow and the busiest EP rank of one block of counts.
#include "stats/LoadImbalance.h"

#include <QtTest>
#include <cmath>
#include <vector>

using namespace moewb::stats;

class TestLoadImbalance : public QObject {
    Q_OBJECT

private slots:
    void loadRatioIsMaxOverMean() {
        const std::vector<std::uint32_t> c{10, 10, 10, 30};
        const LoadBlockSummary s = summarizeLoad(c);
        QCOMPARE(s.total, std::uint64_t(60));
        QCOMPARE(s.maxCount, 30u);
        QCOMPARE(s.loadRatio, 2.0);
        QCOMPARE(summarizeLoad(std::vector<std::uint32_t>{5, 5, 5, 5}).loadRatio, 1.0);
        QVERIFY(std::isnan(summarizeLoad(std::vector<std::uint32_t>{0, 0}).loadRatio));
    }

    void capacityCountsAssignments() {
        // 16 tokens, top-2 -> 32 assignments over 4 experts; factor 1.25 -> ceil(10) = 10.
        QCOMPARE(expertCapacity(1.25, 32, 4), std::uint64_t(10));
        QCOMPARE(expertCapacity(1.25, 60, 4), std::uint64_t(19)); // ceil(18.75)
        QCOMPARE(expertCapacity(1.0, 64, 8), std::uint64_t(8));
        QCOMPARE(expertCapacity(1.1, 100, 10), std::uint64_t(11)); // 1.1 × 10 is 11.000000000000002 in binary
        const std::vector<std::uint32_t> c{10, 10, 10, 30};
        QCOMPARE(overflowAssignments(c, 19), std::uint64_t(11));
        QCOMPARE(overflowAssignments(c, 30), std::uint64_t(0));
    }

    void busiestRankUnderContiguousPlacement() {
        const std::vector<std::uint32_t> c{10, 10, 10, 30};
        QCOMPARE(busiestRankLoad(c, 2), std::uint64_t(40)); // ranks {10,10}, {10,30}
        QCOMPARE(busiestRankLoad(c, 4), std::uint64_t(30));
        QCOMPARE(busiestRankLoad(c, 1), std::uint64_t(60));
        QCOMPARE(busiestRankLoad(c, 3), std::uint64_t(40)); // ceil(4/3)=2 experts per rank
    }
};

QTEST_APPLESS_MAIN(TestLoadImbalance)
#include "test_load_imbalance.moc"
