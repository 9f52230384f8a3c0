// EPLB (deepseek-ai/EPLB eplb.py) reimplemented: the README's worked example reproduced
// exactly, the global-policy fallback and the tie-breaking, all worked by hand.
#include "placement/EplbRebalance.h"

#include <QTest>

using namespace moewb::placement;

class TestEplbRebalance : public QObject {
    Q_OBJECT
private slots:
    void readmeExample();
    void globalPolicyWhenNodesDoNotDivideGroups();
    void packingTiesGoToTheFirstPack();
    void replicationTiesGoToTheFirstExpert();
    void refusesBadShapes();
};

void TestEplbRebalance::readmeExample() {
    // deepseek-ai/EPLB README, "Interface and Example": 2 layers × 12 experts, 16 replicas,
    // 4 groups, 2 nodes, 8 GPUs. The expected phy2log is the README's printed output.
    EplbInput in;
    in.layers = 2;
    in.experts = 12;
    in.weight = {90, 132, 40,  61, 104, 165, 39,  4,   73,  56, 183, 86,
                 20, 107, 104, 64, 19,  197, 187, 157, 172, 86, 16,  27};
    in.replicas = 16;
    in.groups = 4;
    in.nodes = 2;
    in.gpus = 8;
    const auto r = rebalanceExperts(in);
    QVERIFY2(r, qPrintable(r ? QString() : r.error()));
    const std::vector<int> readme = {5, 6,  5, 7, 8, 4,  3, 4, 10, 9, 10, 2, 0, 1, 11, 1,
                                     7, 10, 6, 8, 6, 11, 8, 9, 2,  4, 5,  1, 5, 0, 3,  1};
    QCOMPARE(r->phy2log, readme);
    QVERIFY(r->hierarchical);
    // logcnt and log2phy, counted here from the README's phy2log.
    int maxCount = 0;
    for (int l = 0; l < 2; ++l)
        for (int e = 0; e < 12; ++e) {
            std::vector<int> slotList;
            for (int p = 0; p < 16; ++p)
                if (readme[std::size_t(l * 16 + p)] == e)
                    slotList.push_back(p);
            QCOMPARE(r->logCount[std::size_t(l * 12 + e)], int(slotList.size()));
            maxCount = std::max(maxCount, int(slotList.size()));
        }
    QCOMPARE(r->maxLogCount, maxCount);
    QCOMPARE(maxCount, 2); // layer 0: experts 5, 4, 10, 1 twice; layer 1: 6, 8, 5, 1
    for (int l = 0; l < 2; ++l)
        for (int e = 0; e < 12; ++e) {
            std::vector<int> listed;
            for (int k = 0; k < maxCount; ++k) {
                const int p = r->log2phy[std::size_t((l * 12 + e) * maxCount + k)];
                if (k >= r->logCount[std::size_t(l * 12 + e)]) {
                    QCOMPARE(p, -1); // padding
                } else {
                    QCOMPARE(readme[std::size_t(l * 16 + p)], e);
                    listed.push_back(p);
                }
            }
            std::sort(listed.begin(), listed.end());
            QCOMPARE(std::adjacent_find(listed.begin(), listed.end()), listed.end());
        }
}

void TestEplbRebalance::globalPolicyWhenNodesDoNotDivideGroups() {
    // 1 group over 2 nodes: eplb.py falls back to rebalance_experts_hierarchical(w, 4, 1, 1, 2).
    // Loads 4 3 2 1 packed two per GPU, heaviest first to the lighter GPU:
    // e0 → GPU0 (4), e1 → GPU1 (3), e2 → GPU1 (5), e3 → GPU0. GPU0 = {e0, e3}, GPU1 = {e1, e2}.
    EplbInput in;
    in.layers = 1;
    in.experts = 4;
    in.weight = {4, 3, 2, 1};
    in.replicas = 4;
    in.groups = 1;
    in.nodes = 2;
    in.gpus = 2;
    const auto r = rebalanceExperts(in);
    QVERIFY(r);
    QVERIFY(!r->hierarchical);
    QCOMPARE(r->phy2log, (std::vector<int>{0, 3, 1, 2}));
    QCOMPARE(r->logCount, (std::vector<int>{1, 1, 1, 1}));
    QCOMPARE(r->log2phy, (std::vector<int>{0, 2, 3, 1}));
}

void TestEplbRebalance::packingTiesGoToTheFirstPack() {
    // Equal weights keep index order (stable descending sort); equal packs: the first.
    const std::vector<float> w = {1, 1, 1, 1};
    const Packing p = balancedPacking(w, 1, 4, 2);
    QCOMPARE(p.packIndex, (std::vector<int>{0, 1, 0, 1}));
    QCOMPARE(p.rankInPack, (std::vector<int>{0, 0, 1, 1}));
    // 5 1 1 3: order e0, e3, e1, e2 → e0 P0 (5), e3 P1 (3), e1 P1 (4), e2 P0 (P1 is full).
    const std::vector<float> v = {5, 1, 1, 3};
    const Packing q = balancedPacking(v, 1, 4, 2);
    QCOMPARE(q.packIndex, (std::vector<int>{0, 1, 0, 1}));
    QCOMPARE(q.rankInPack, (std::vector<int>{0, 1, 1, 0}));
}

void TestEplbRebalance::replicationTiesGoToTheFirstExpert() {
    // 2 2: the first redundant slot copies expert 0 (torch.max: first maximum); then
    // loads are 1 and 2, so the second copies expert 1.
    const std::vector<float> w = {2, 2};
    const Replication r = replicateExperts(w, 1, 2, 4);
    QCOMPARE(r.phy2log, (std::vector<int>{0, 1, 0, 1}));
    QCOMPARE(r.rank, (std::vector<int>{0, 0, 1, 1}));
    QCOMPARE(r.logCount, (std::vector<int>{2, 2}));
}

void TestEplbRebalance::refusesBadShapes() {
    EplbInput in;
    in.layers = 1;
    in.experts = 4;
    in.weight = {1, 2, 3, 4};
    in.replicas = 6;
    in.gpus = 4;
    auto r = rebalanceExperts(in);
    QVERIFY(!r);
    QVERIFY2(r.error().contains(QLatin1String("6 replicas are not a multiple of 4 GPUs")),
             qPrintable(r.error()));
    in.replicas = 4;
    in.groups = 3;
    r = rebalanceExperts(in);
    QVERIFY(!r);
    QVERIFY2(r.error().contains(QLatin1String("3 groups")), qPrintable(r.error()));
    in.groups = 1;
    in.weight = {1, -2, 3, 4};
    QVERIFY(!rebalanceExperts(in));
}

QTEST_GUILESS_MAIN(TestEplbRebalance)
#include "test_eplb_rebalance.moc"
