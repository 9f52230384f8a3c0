// The three routers and the metrics on cases small enough to work out by hand.
#include "routing/ExpertChoiceRouter.h"
#include "routing/RouterScores.h"
#include "routing/RoutingMetrics.h"
#include "routing/SigmoidBiasRouter.h"
#include "routing/TopKRouter.h"

#include <QtTest>
#include <cmath>

using namespace moewb::routing;

namespace {
// 4 tokens × 4 experts. Top-2 per token: t0 → 0,1; t1 → 1,0; t2 → 2,0; t3 → 1,3.
const std::vector<float> kScores = {
    0.9f, 0.8f, 0.1f, 0.0f, //
    0.7f, 0.9f, 0.2f, 0.1f, //
    0.8f, 0.1f, 0.9f, 0.0f, //
    0.1f, 0.9f, 0.0f, 0.8f, //
};
using Loads = std::vector<std::int64_t>;
} // namespace

class TestRouters : public QObject {
    Q_OBJECT
private slots:
    void metrics() {
        QCOMPARE(maxViolation({}), 0.0);
        QCOMPARE(maxViolation({2, 2, 2, 2}), 0.0);
        QCOMPARE(maxViolation({0, 0}), 0.0);
        QCOMPARE(maxViolation({2, 2, 1, 1}), 1.0 / 3.0);
        QCOMPARE(loadEntropyBits({4, 0, 0, 0}), 0.0);
        QCOMPARE(loadEntropyBits({1, 1, 1, 1}), 2.0);
        const double h = 2.0 * (1.0 / 3.0) * std::log2(3.0) + 2.0 * (1.0 / 6.0) * std::log2(6.0);
        QVERIFY(std::abs(loadEntropyBits({2, 2, 1, 1}) - h) < 1e-12);
        QCOMPARE(expertCapacity(262144, 2, 8, 1.12), std::int64_t(73400));
        QCOMPARE(expertCapacity(4, 2, 4, 1.0), std::int64_t(2));
        QCOMPARE(expertCapacity(4, 2, 4, 0.5), std::int64_t(1));
    }

    void topKDropsInTokenOrder() {
        std::vector<int> a;
        // Capacity 2: t2's second choice (expert 0) and t3's first (expert 1) find them full.
        RouterResult r = routeTopK(kScores.data(), 4, 4, 2, 2, &a);
        QCOMPARE(a, (std::vector<int>{0, 1, 1, 0, 2, -1, -1, 3}));
        QCOMPARE(r.loads, (Loads{2, 2, 1, 1}));
        QCOMPARE(r.demandLoads, (Loads{3, 3, 1, 1}));
        QCOMPARE(r.droppedAssignments, std::int64_t(2));
        QCOMPARE(r.tokensWithoutExpert, std::int64_t(0));
        QCOMPARE(r.maxVio, 1.0 / 3.0);
        // Capacity 1: t1 finds both its experts full and gets none.
        r = routeTopK(kScores.data(), 4, 4, 2, 1, &a);
        QCOMPARE(a, (std::vector<int>{0, 1, -1, -1, 2, -1, -1, 3}));
        QCOMPARE(r.loads, (Loads{1, 1, 1, 1}));
        QCOMPARE(r.droppedAssignments, std::int64_t(4));
        QCOMPARE(r.tokensWithoutExpert, std::int64_t(1));
        // No capacity: the demand.
        r = routeTopK(kScores.data(), 4, 4, 2, 0);
        QCOMPARE(r.loads, (Loads{3, 3, 1, 1}));
        QCOMPARE(r.droppedAssignments, std::int64_t(0));
        // K = 1 and K = 3 take the general path.
        r = routeTopK(kScores.data(), 4, 4, 1, 0);
        QCOMPARE(r.loads, (Loads{1, 2, 1, 0}));
        r = routeTopK(kScores.data(), 4, 4, 3, 0);
        QCOMPARE(r.loads, (Loads{4, 4, 3, 1})); // t2's third is expert 1 (0.1 > 0.0)
    }

    void topKTiesGoToTheLowerExpert() {
        const std::vector<float> s = {0.5f, 0.5f, 0.5f, 0.5f};
        std::vector<int> a;
        routeTopK(s.data(), 1, 4, 2, 0, &a);
        QCOMPARE(a, (std::vector<int>{0, 1}));
        const RouterResult fast = routeTopK(s.data(), 1, 4, 2, 0);
        QCOMPARE(fast.loads, (Loads{1, 1, 0, 0}));
    }

    void topKFastPathMatchesTheGeneralPath_data() {
        QTest::addColumn<int>("experts");
        QTest::addColumn<int>("tokens");
        QTest::addColumn<double>("factor");
        QTest::addColumn<QString>("scores");
        QTest::newRow("E8 loose") << 8 << 4099 << 1.12 << "uniform";
        QTest::newRow("E8 tight") << 8 << 4099 << 0.8 << "zipf:1.2";
        QTest::newRow("E4 tight") << 4 << 1000 << 0.9 << "preferential";
        QTest::newRow("E6 no template") << 6 << 1003 << 0.7 << "zipf:2";
        QTest::newRow("E32") << 32 << 2048 << 1.0 << "zipf:1";
        QTest::newRow("E256") << 256 << 1040 << 1.0 << "zipf:1.1";
        QTest::newRow("E2") << 2 << 35 << 0.6 << "uniform";
    }
    void topKFastPathMatchesTheGeneralPath() {
        QFETCH(int, experts);
        QFETCH(int, tokens);
        QFETCH(double, factor);
        QFETCH(QString, scores);
        const auto s = generateScores(tokens, experts, *parseScoreSpec(scores), 7);
        const std::int64_t cap = expertCapacity(tokens, 2, experts, factor);
        std::vector<int> a;
        const RouterResult general = routeTopK(s.data(), tokens, experts, 2, cap, &a);
        const RouterResult fast = routeTopK(s.data(), tokens, experts, 2, cap);
        QCOMPARE(fast.loads, general.loads);
        QCOMPARE(fast.demandLoads, general.demandLoads);
        QCOMPARE(fast.droppedAssignments, general.droppedAssignments);
        QCOMPARE(fast.tokensWithoutExpert, general.tokensWithoutExpert);
        std::int64_t accepted = 0;
        for (auto l : fast.loads) {
            QVERIFY(l <= cap);
            accepted += l;
        }
        QCOMPARE(accepted + fast.droppedAssignments, std::int64_t(2) * tokens);
    }

    void expertChoiceTakesTopTokensPerExpert() {
        std::vector<int> n;
        // C = 2: e0 → t0, t2; e1 → t1, t3 (0.9 each); e2 → t2, t1; e3 → t3, t1.
        RouterResult r = routeExpertChoice(kScores.data(), 4, 4, 2, &n);
        QCOMPARE(n, (std::vector<int>{1, 3, 2, 2}));
        QCOMPARE(r.loads, (Loads{2, 2, 2, 2}));
        QCOMPARE(r.tokensWithoutExpert, std::int64_t(0));
        QCOMPARE(r.maxExpertsPerToken, 3);
        QCOMPARE(r.maxVio, 0.0);
        // C = 1: the tie of t1 and t3 for e1 goes to t1; t3 is still taken by e3.
        r = routeExpertChoice(kScores.data(), 4, 4, 1, &n);
        QCOMPARE(n, (std::vector<int>{1, 1, 1, 1}));
        // Every expert wants t0 most: three tokens are left with no expert.
        const std::vector<float> s = {0.9f, 0.9f, 0.9f, 0.9f, 0.1f, 0.2f, 0.3f, 0.4f,
                                      0.2f, 0.1f, 0.4f, 0.3f, 0.3f, 0.4f, 0.1f, 0.2f};
        r = routeExpertChoice(s.data(), 4, 4, 1, &n);
        QCOMPARE(n, (std::vector<int>{4, 0, 0, 0}));
        QCOMPARE(r.tokensWithoutExpert, std::int64_t(3));
        QCOMPARE(r.maxExpertsPerToken, 4);
        QCOMPARE(r.loads, (Loads{1, 1, 1, 1}));
        QCOMPARE(r.droppedAssignments, std::int64_t(0));
        // A capacity above T is clamped to T.
        r = routeExpertChoice(s.data(), 4, 4, 9);
        QCOMPARE(r.loads, (Loads{4, 4, 4, 4}));
    }

    void sigmoidBiasUpdateDirectionAndDiscreteLoads() {
        // Every token prefers expert 0.
        const std::vector<float> s = {2, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0};
        SigmoidBiasOptions o;
        o.updateRate = 0.1;
        o.batches = 1;
        o.iterations = 1;
        LearnedBias learned = learnSigmoidBias(s.data(), 4, 4, 1, o);
        QCOMPARE(learned.maxVioPerIteration, (std::vector<double>{3.0}));
        QCOMPARE(learned.bias, (std::vector<double>{-0.1, 0.1, 0.1, 0.1}));
        // Zero bias: all four go to expert 0, as whole assignments.
        RouterResult r = routeSigmoidBias(s.data(), 4, 4, 1, {0, 0, 0, 0});
        QCOMPARE(r.loads, (Loads{4, 0, 0, 0}));
        // sigmoid(2) − 1 < sigmoid(0): the bias moves all of them (ties → lower index).
        std::vector<int> a;
        r = routeSigmoidBias(s.data(), 4, 4, 1, {-1, 0, 0, 0}, &a);
        QCOMPARE(r.loads, (Loads{0, 4, 0, 0}));
        QCOMPARE(a, (std::vector<int>{1, 1, 1, 1}));
        QCOMPARE(r.droppedAssignments, std::int64_t(0));
        // An expert exactly at the mean keeps its bias.
        const std::vector<float> even = {1, 0, 0, 1};
        learned = learnSigmoidBias(even.data(), 2, 2, 1, o);
        QCOMPARE(learned.bias, (std::vector<double>{0.0, 0.0}));
    }

    void sigmoidBiasBalancesSkewedScores() {
        const std::int64_t T = 8192;
        const auto s = generateScores(T, 8, *parseScoreSpec(QStringLiteral("zipf:1")), 3);
        SigmoidBiasOptions o;
        o.updateRate = 0.01;
        o.batches = 8;
        o.iterations = 200;
        const LearnedBias learned = learnSigmoidBias(s.data(), T, 8, 2, o);
        QCOMPARE(learned.maxVioPerIteration.size(), std::size_t(200));
        const RouterResult unbiased = routeSigmoidBias(s.data(), T, 8, 2, std::vector<double>(8, 0.0));
        const RouterResult biased = routeSigmoidBias(s.data(), T, 8, 2, learned.bias);
        QVERIFY2(biased.maxVio < unbiased.maxVio / 3,
                 qPrintable(QStringLiteral("%1 vs %2").arg(biased.maxVio).arg(unbiased.maxVio)));
        QVERIFY(learned.bias[0] < learned.bias[7]); // the popular expert is pushed down
        std::int64_t sum = 0;
        for (auto l : biased.loads)
            sum += l;
        QCOMPARE(sum, 2 * T);
    }
};

QTEST_GUILESS_MAIN(TestRouters)
#include "test_routers.moc"
