// Dispatch traffic of 2 EP ranks and 4 experts (experts 0 1 on rank 0, 2 3 on rank 1),
// top-2, 8 tokens per rank, hidden 16, bf16: 32 bytes a token, 256 bytes for all 8.
// Every expected figure is worked by hand in the comments.
#include "traffic/DispatchTraffic.h"

#include <QTest>

using namespace moewb::traffic;
using moewb::placement::ExpertPlacement;

class TestDispatchTraffic : public QObject {
    Q_OBJECT
private slots:
    void exactTokensSentOncePerRank();
    void countsUnderIndependentExperts();
    void uniformRouting();
    void replicatedExpertSplitsItsTokens();
    void matrixFileForTheProbe();
    void refusesBadInput();

private:
    static DispatchShape shape() { return {8, 2, 16, 2}; }
};

void TestDispatchTraffic::exactTokensSentOncePerRank() {
    const auto placement = ExpertPlacement::contiguous(4, 2);
    QVERIFY(placement);
    // Tokens {0,1} {0,2} {2,3} {1,0}: rank 0 is reached by tokens 1, 2 and 4 (3 of 4),
    // though it holds 5 of the 8 assignments; rank 1 by tokens 2 and 3 (2 of 4).
    const std::vector<int> topk = {0, 1, 0, 2, 2, 3, 1, 0};
    const auto m = dispatchFromTokens(topk, *placement, shape());
    QVERIFY2(m, qPrintable(m ? QString() : m.error()));
    QCOMPARE(m->model, DedupModel::Exact);
    QCOMPARE(m->bytes, (std::vector<double>{192, 128, 192, 128})); // 256 · 3/4, 256 · 2/4
    QCOMPARE(m->assignmentsPerToken, (std::vector<double>{1.25, 0.75}));
    QCOMPARE(m->received(0), 384.0);
    QCOMPARE(m->sent(0), 320.0);
    QCOMPARE(m->busiestRank(), 0);
    QCOMPARE(m->busiestRankBytes(), 384.0);
    // Combine: the transpose; rank 0 now sends 384.
    const TrafficMatrix c = m->transposed();
    QCOMPARE(c.bytes, (std::vector<double>{192, 192, 128, 128}));
    QCOMPARE(c.sent(0), 384.0);
}

void TestDispatchTraffic::countsUnderIndependentExperts() {
    const auto placement = ExpertPlacement::contiguous(4, 2);
    // Counts 4 2 3 1 = 10 assignments = 5 tokens of top-2: q = .8 .4 .6 .2.
    // Rank 0 reached with 1 − .2·.6 = .88, rank 1 with 1 − .4·.8 = .68.
    const std::vector<double> counts = {4, 2, 3, 1};
    const auto m = dispatchFromCounts(counts, *placement, shape());
    QVERIFY(m);
    QCOMPARE(m->model, DedupModel::IndependentExperts);
    QCOMPARE(m->ranks, 2);
    QVERIFY(qFuzzyCompare(m->at(0, 0), 256 * 0.88));
    QVERIFY(qFuzzyCompare(m->at(1, 0), 256 * 0.88));
    QVERIFY(qFuzzyCompare(m->at(0, 1), 256 * 0.68));
    QVERIFY(qFuzzyCompare(m->reachPerToken[0], 0.88));
    // Without the de-duplication rank 0 would get 1.2 tokens per token.
    QVERIFY(qFuzzyCompare(m->assignmentsPerToken[0], 1.2));
    QVERIFY(qFuzzyCompare(m->busiestRankBytes(), 2 * 256 * 0.88));
    // Only proportions matter: ten times the counts, the same matrix.
    const std::vector<double> more = {40, 20, 30, 10};
    QVERIFY(qFuzzyCompare(dispatchFromCounts(more, *placement, shape())->at(0, 0), 256 * 0.88));
}

void TestDispatchTraffic::uniformRouting() {
    // q = 2/4 for every expert: each rank reached with 1 − .5·.5 = .75 → 192 bytes.
    const auto placement = ExpertPlacement::contiguous(4, 2);
    const auto u = uniformDispatch(*placement, shape());
    QVERIFY(u);
    QCOMPARE(u->bytes, (std::vector<double>{192, 192, 192, 192}));
}

void TestDispatchTraffic::replicatedExpertSplitsItsTokens() {
    // Slots [0 1 | 0 2 3 ...]: 4 experts over 2 ranks of 3 slots: [0 1 3 | 0 2 3]?
    // Use [0 1 | 0 2] with 3 experts, top-1, counts 4 2 2 (8 tokens): expert 0's
    // q = .5 split .25 per replica. Rank 0: 1 − .75·.75 = .4375; rank 1: 1 − .75·.75.
    const auto placement = ExpertPlacement::fromSlots({0, 1, 0, 2}, 3, 2);
    QVERIFY(placement);
    const std::vector<double> counts = {4, 2, 2};
    const auto m = dispatchFromCounts(counts, *placement, {8, 1, 16, 2});
    QVERIFY(m);
    QVERIFY(qFuzzyCompare(m->reachPerToken[0], 0.4375));
    QVERIFY(qFuzzyCompare(m->reachPerToken[1], 0.4375));
    // Exact, top-1: token t of expert 0 uses replica t mod 2 (slot 0 for even t, slot 2 for odd).
    const std::vector<int> topk = {0, 0, 1, 2}; // token 0 → rank 0, token 1 → rank 1
    const auto e = dispatchFromTokens(topk, *placement, {8, 1, 16, 2});
    QVERIFY(e);
    QCOMPARE(e->reachPerToken, (std::vector<double>{0.5, 0.5}));
}

void TestDispatchTraffic::matrixFileForTheProbe() {
    const auto placement = ExpertPlacement::contiguous(4, 2);
    const std::vector<int> topk = {0, 1, 0, 2, 2, 3, 1, 0};
    const auto m = dispatchFromTokens(topk, *placement, shape());
    QCOMPARE(matrixFileText(*m, {QStringLiteral("dispatch")}), QByteArray("# dispatch\n192 128\n192 128\n"));
}

void TestDispatchTraffic::refusesBadInput() {
    const auto placement = ExpertPlacement::contiguous(4, 2);
    const std::vector<double> zeros = {0, 0, 0, 0};
    QVERIFY(!dispatchFromCounts(zeros, *placement, shape()));
    const std::vector<double> three = {1, 2, 3};
    QVERIFY(!dispatchFromCounts(three, *placement, shape()));
    const std::vector<int> bad = {0, 9};
    const auto m = dispatchFromTokens(bad, *placement, shape());
    QVERIFY(!m);
    QVERIFY2(m.error().contains(QLatin1String("expert 9")), qPrintable(m.error()));
    QVERIFY(!dispatchFromCounts(std::vector<double>{1, 1, 1, 1}, *placement, {8, 5, 16, 2})); // top-5 of 4
    // 10 assignments = 5 tokens of top-2, yet expert 0 counts 7: capped at 1 and counted.
    const auto capped = dispatchFromCounts(std::vector<double>{7, 1, 1, 1}, *placement, shape());
    QVERIFY(capped);
    QCOMPARE(capped->expertsAboveTokens, 1);
    QCOMPARE(capped->reachPerToken[0], 1.0);
}

QTEST_GUILESS_MAIN(TestDispatchTraffic)
#include "test_dispatch_traffic.moc"
