// Expert placements: contiguous layout, loads per rank with replicas, and placement files.
#include "placement/ExpertPlacement.h"

#include <QTest>

using namespace moewb::placement;

class TestExpertPlacement : public QObject {
    Q_OBJECT
private slots:
    void contiguousRanks();
    void replicasShareTheirLoad();
    void placementFile();
    void placementFileErrorsNameTheField();
};

void TestExpertPlacement::contiguousRanks() {
    const auto p = ExpertPlacement::contiguous(8, 4);
    QVERIFY(p);
    QCOMPARE(p->slotsPerRank(), 2);
    QCOMPARE(p->rankOfSlot(5), 2);
    QVERIFY(!ExpertPlacement::contiguous(6, 4));
    const std::vector<double> load = {1, 1, 1, 1, 6, 0, 0, 0};
    QCOMPARE(busiestRankShare(load, *p), 0.6); // rank 2 holds 6 of 10
}

void TestExpertPlacement::replicasShareTheirLoad() {
    // Slots [0 1 | 0 2]: expert 0 on both ranks, half its load each.
    const auto p = ExpertPlacement::fromSlots({0, 1, 0, 2}, 3, 2);
    QVERIFY(p);
    const std::vector<double> load = {8, 2, 6};
    QCOMPARE(rankLoads(load, *p), (std::vector<double>{6, 10}));
    QCOMPARE(busiestRankShare(load, *p), 10.0 / 16.0);
    QVERIFY(!ExpertPlacement::fromSlots({0, 1, 0, 0}, 3, 2)); // expert 2 has no slot
    QVERIFY(!ExpertPlacement::fromSlots({0, 1, 2}, 3, 2));    // 3 slots over 2 ranks
}

void TestExpertPlacement::placementFile() {
    const QByteArray json = R"({"num_gpus": 2, "layers": [3, 5], "phy2log": [[0, 1, 2, 3], [3, 2, 1, 0]]})";
    const auto f = parsePlacementFile(json, QStringLiteral("p.json"), 4);
    QVERIFY2(f, qPrintable(f ? QString() : f.error()));
    QCOMPARE(f->gpus, 2);
    QVERIFY(f->forLayer(5));
    QCOMPARE(f->forLayer(5)->slotExpert, (std::vector<int>{3, 2, 1, 0}));
    QVERIFY(!f->forLayer(4));
}

void TestExpertPlacement::placementFileErrorsNameTheField() {
    auto f = parsePlacementFile(R"({"num_gpus": 0, "phy2log": [[0]]})", QStringLiteral("p.json"), 1);
    QVERIFY(!f);
    QVERIFY2(f.error().startsWith(QLatin1String("p.json: field \"num_gpus\"")), qPrintable(f.error()));
    f = parsePlacementFile(R"({"num_gpus": 2, "phy2log": [[0, 1, 2, 7]]})", QStringLiteral("p.json"), 4);
    QVERIFY(!f);
    QVERIFY2(f.error().contains(QLatin1String("phy2log[0]")) && f.error().contains(QLatin1String("7")),
             qPrintable(f.error()));
    f = parsePlacementFile("not json", QStringLiteral("p.json"), 4);
    QVERIFY(!f);
    QVERIFY(f.error().startsWith(QLatin1String("p.json:")));
}

QTEST_GUILESS_MAIN(TestExpertPlacement)
#include "test_expert_placement.moc"
