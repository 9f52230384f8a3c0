// Scores, setup validation, the seed's setting and the expert-count sweep.
#include "routing/RoutingLab.h"

#include <QtTest>

using namespace moewb::routing;

class TestRoutingLab : public QObject {
    Q_OBJECT
private slots:
    void scoreSpecs() {
        QCOMPARE(parseScoreSpec(QStringLiteral("uniform"))->mode, ScoreMode::Uniform);
        QCOMPARE(parseScoreSpec(QStringLiteral("preferential"))->mode, ScoreMode::Preferential);
        const auto z = parseScoreSpec(QStringLiteral("zipf:1.5"));
        QVERIFY(z);
        QCOMPARE(z->zipfExponent, 1.5);
        QCOMPARE(z->text(), QStringLiteral("zipf:1.5"));
        QVERIFY(!parseScoreSpec(QStringLiteral("zipf:0")));
        QVERIFY(!parseScoreSpec(QStringLiteral("zipf:x")));
        QVERIFY(!parseScoreSpec(QStringLiteral("normal")));
    }

    void scoresAreDeterministic() {
        const ScoreSpec spec{ScoreMode::Preferential, 1.0};
        const auto a = generateScores(100, 8, spec, 42);
        QCOMPARE(a, generateScores(100, 8, spec, 42));
        QVERIFY(a != generateScores(100, 8, spec, 43));
        // Exactly two boosted experts per token.
        for (int t = 0; t < 100; ++t) {
            int boosted = 0;
            for (int e = 0; e < 8; ++e)
                boosted += a[std::size_t(t * 8 + e)] >= kPreferenceBoost;
            QCOMPARE(boosted, 2);
        }
        // Zipf boosts expert 0 far more often than expert 7.
        const auto z = generateScores(2000, 8, ScoreSpec{ScoreMode::Zipf, 1.2}, 1);
        int first = 0, last = 0;
        for (int t = 0; t < 2000; ++t) {
            first += z[std::size_t(t * 8)] >= kPreferenceBoost;
            last += z[std::size_t(t * 8 + 7)] >= kPreferenceBoost;
        }
        QVERIFY(first > 3 * last);
    }

    void validation() {
        RoutingSetup s;
        QVERIFY(validateSetup(s).isEmpty());
        s.topK = 9;
        QCOMPARE(validateSetup(s).size(), 1);
        s = {};
        s.tokens = 0;
        QCOMPARE(validateSetup(s).size(), 1);
        s = {};
        s.capacityFactor = 0;
        QCOMPARE(validateSetup(s).size(), 1);
        s.capacityFactor = -1;
        QCOMPARE(validateSetup(s).size(), 1);
        s = {};
        s.routers.clear();
        QCOMPARE(validateSetup(s).size(), 1);
    }

    void seedSetting() {
        RoutingSetup s; // E=8, T=262144, K=2, factor 1.12, uniform
        const RoutingRun run = runRouting(s);
        QCOMPARE(run.capacity, std::int64_t(73400));
        QCOMPARE(run.results.size(), 3);
        const RouterResult& topk = run.results[0];
        QCOMPARE(topk.router, RouterKind::TopK);
        QCOMPARE(topk.droppedAssignments, std::int64_t(0)); // 12 % headroom is plenty for uniform scores
        QVERIFY(topk.maxVio > 0.0 && topk.maxVio < 0.02);
        const RouterResult& ec = run.results[1];
        QCOMPARE(ec.loads, std::vector<std::int64_t>(8, 73400));
        QVERIFY(ec.tokensWithoutExpert > 0); // 8 × 73400 slots, yet some tokens are nobody's pick
        const RouterResult& sb = run.results[2];
        QCOMPARE(sb.maxVioPerIteration.size(), std::size_t(s.bias.iterations));
        std::int64_t sum = 0;
        for (auto l : sb.loads)
            sum += l;
        QCOMPARE(sum, 2 * s.tokens);
        QCOMPARE(runRouting(s).results[0].loads, topk.loads); // deterministic
    }

    void sweep() {
        RoutingSetup s;
        s.tokens = 2048;
        s.scores = ScoreSpec{ScoreMode::Zipf, 1.0};
        const QList<RoutingRun> runs = sweepExperts(s);
        QCOMPARE(runs.size(), 7);
        QCOMPARE(runs.first().experts, 4);
        QCOMPARE(runs.last().experts, 256);
        QCOMPARE(runs.last().capacity, std::int64_t(17)); // floor(1.12 × 2 × 2048 / 256)
        s.topK = 8;
        QCOMPARE(sweepExperts(s).first().experts, 8);
    }
};

QTEST_GUILESS_MAIN(TestRoutingLab)
#include "test_routing_lab.moc"
