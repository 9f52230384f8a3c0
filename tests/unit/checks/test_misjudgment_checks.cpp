// The six misjudgments (seed 000 §5): each check firing and not firing.
#include "checks/MisjudgmentChecks.h"
#include "record/RecordJson.h"

#include <QFile>
#include <QtTest>
#include <limits>

using namespace moewb;
using namespace moewb::checks;

namespace {

record::ConfigRecord fixture(const char* name) {
    QFile f(QStringLiteral(MOEWB_SOURCE_DIR "/tests/fixtures/records/") + QLatin1String(name));
    if (!f.open(QIODevice::ReadOnly))
        qFatal("no fixture %s", name);
    return record::parseRecord(f.readAll()).record;
}
record::ConfigRecord moe() {
    return fixture("moe-64e-top8.json");
}
record::ConfigRecord dense() {
    return fixture("dense-1.3b.json");
}

QVector<store::StepMetric> series(const char* name, qint64 from, qint64 to, double value) {
    QVector<store::StepMetric> out;
    for (qint64 s = from; s <= to; ++s)
        out.append({s, QLatin1String(name), value});
    return out;
}

// A training run on the fixture cluster (4 nodes), steady throughput after 20 warm-up steps.
RunFacts training(const QString& name, const record::ConfigRecord& rec, double tps = 1000.0,
                  double loss = 2.0) {
    RunFacts r;
    r.name = name;
    r.record = rec;
    r.recordComplete = true;
    r.throughput =
        series("tokens_per_s_per_gpu", 1, 20, tps / 10) + series("tokens_per_s_per_gpu", 21, 100, tps);
    r.loss = series("lm_loss", 1, 100, loss);
    r.hasExpertLoad = !rec.isDense();
    return r;
}

RunFacts probe(const QString& name, int nodes, const QString& cluster = {}) {
    RunFacts r;
    r.name = name;
    r.clusterName = cluster;
    r.record = moe();
    r.recordComplete = true;
    r.hasCommSamples = true;
    r.commNodes = nodes;
    return r;
}

// A project where nothing is wrong: baseline at the target node count, one routing
// setting, per-expert load logged, warm-up excluded.
ProjectFacts clean() {
    return {{probe(QStringLiteral("probe-4n"), 4), training(QStringLiteral("moe"), moe())}};
}

} // namespace

class TestMisjudgmentChecks : public QObject {
    Q_OBJECT

private slots:
    void cleanProjectHasNoWarnings() { QVERIFY(runAllChecks(clean()).isEmpty()); }

    void one_foreignClusterThroughput() {
        // Throughput measured on another cluster (another accelerator) without a baseline there.
        ProjectFacts f = clean();
        record::ConfigRecord other = moe();
        other.cluster.acceleratorModel = QStringLiteral("A100 SXM4 80GB");
        f.runs << training(QStringLiteral("moe-a100"), other);
        const auto w = checkForeignClusterThroughput(f);
        QVERIFY(w);
        QCOMPARE(w->id, 1);
        QVERIFY2(w->message.contains(QStringLiteral("moe-a100")), qPrintable(w->message));
        QVERIFY(w->message.contains(QStringLiteral("A100")));
        QVERIFY(w->fix.contains(QStringLiteral("stage 1")));
        // With a baseline on that cluster too: quiet.
        RunFacts p = probe(QStringLiteral("probe-a100"), 4);
        p.record = other;
        f.runs << p;
        QVERIFY(!checkForeignClusterThroughput(f));
        // One cluster only: nothing to confuse it with.
        QVERIFY(!checkForeignClusterThroughput({{training(QStringLiteral("moe"), moe())}}));
        // Cluster names win over record fields.
        QCOMPARE(clusterIdentity(probe(QStringLiteral("x"), 4, QStringLiteral("prod-a"))),
                 QStringLiteral("prod-a"));
        // A probe run on named cluster prod-a and an imported log without a cluster name
        // but with the same hardware are one cluster; prod-b with the same hardware is another.
        ProjectFacts named{{probe(QStringLiteral("probe-a"), 4, QStringLiteral("prod-a")),
                            training(QStringLiteral("moe"), moe())}};
        QVERIFY(!checkForeignClusterThroughput(named));
        RunFacts onB = training(QStringLiteral("moe-b"), moe());
        onB.clusterName = QStringLiteral("prod-b");
        named.runs << onB;
        const auto wb = checkForeignClusterThroughput(named);
        QVERIFY(wb);
        QVERIFY2(wb->message.contains(QStringLiteral("moe-b")) &&
                     !wb->message.contains(QStringLiteral("run moe ")),
                 qPrintable(wb->message));
    }

    void two_routingSettingsMixed() {
        ProjectFacts f = clean();
        QVERIFY(!checkRoutingSettingsMixed(f));
        record::ConfigRecord other = moe();
        other.moe.overflowPolicy = record::OverflowPolicy::Dropless;
        other.moe.capacityFactor = record::CapacityFactor::none();
        f.runs << training(QStringLiteral("moe-dropless"), other);
        auto w = checkRoutingSettingsMixed(f);
        QVERIFY(w);
        QCOMPARE(w->id, 2);
        QVERIFY2(w->message.contains(QStringLiteral("capacity factor none")), qPrintable(w->message));
        // Dense runs have no routing: they never trigger it.
        QVERIFY(!checkRoutingSettingsMixed(
            {{training(QStringLiteral("moe"), moe()), training(QStringLiteral("d"), dense())}}));
        // A run that does not record its routing.
        record::ConfigRecord unrecorded = moe();
        unrecorded.moe.capacityFactor.reset();
        w = checkRoutingSettingsMixed({{training(QStringLiteral("moe-x"), unrecorded)}});
        QVERIFY(w);
        QVERIFY(w->message.contains(QStringLiteral("moe-x")));
    }

    void three_meanLoadOnly() {
        ProjectFacts f = clean();
        QVERIFY(!checkMeanLoadOnly(f));
        f.runs[1].hasExpertLoad = false;
        f.runs[1].hasLoadBalancingLoss = true;
        auto w = checkMeanLoadOnly(f);
        QVERIFY(w);
        QCOMPARE(w->id, 3);
        QVERIFY2(w->message.contains(QStringLiteral("load-balancing loss")), qPrintable(w->message));
        QVERIFY(w->fix.contains(QStringLiteral("max/mean")));
        // Expert load but no EP size: the busiest device cannot be estimated...
        f = clean();
        f.runs[1].record.parallelism.ep.reset();
        QVERIFY(checkMeanLoadOnly(f));
        // ...unless it was measured.
        f.runs[1].hasBusiestDeviceShare = true;
        QVERIFY(!checkMeanLoadOnly(f));
        // Megatron-Core's per-layer overload factor without tokens per expert: still a
        // warning, saying what stage 3 says (the EP ranks' ratio, a lower bound).
        f = clean();
        f.runs[1].hasExpertLoad = false;
        f.runs[1].hasOverloadFactorLoad = true;
        w = checkMeanLoadOnly(f);
        QVERIFY(w);
        QVERIFY2(w->message.contains(QStringLiteral("lower bound of the per-expert max/mean")) &&
                     !w->message.contains(QStringLiteral("cannot be computed")),
                 qPrintable(w->message));
        // Dense runs have no experts.
        QVERIFY(!checkMeanLoadOnly({{training(QStringLiteral("d"), dense())}}));
    }

    void four_throughputOverLoss() {
        // Faster with a worse loss at equal tokens.
        RunFacts fast = training(QStringLiteral("moe-fast"), moe(), 1200.0, 2.3);
        fast.dropRate = series("drop_rate", 1, 100, 0.05);
        const RunFacts slow = training(QStringLiteral("moe-slow"), moe(), 1000.0, 2.1);
        auto w = checkThroughputOverLoss({{fast, slow}});
        QVERIFY(w);
        QCOMPARE(w->id, 4);
        QVERIFY2(w->message.contains(QStringLiteral("moe-fast is faster than moe-slow")),
                 qPrintable(w->message));
        QVERIFY(w->message.contains(QStringLiteral("2.300 vs 2.100")));
        QVERIFY(w->message.contains(QStringLiteral("drop rate 5 %")));
        QVERIFY(w->message.contains(QStringLiteral("drop rate not logged")));
        // One finding: it is the summary; the warning names both runs.
        QCOMPARE(w->summary, w->message);
        QCOMPARE(w->runs, (QStringList{QStringLiteral("moe-fast"), QStringLiteral("moe-slow")}));
        // A dropless run drops nothing by construction: "not applicable", as stage 3 says.
        RunFacts dropless = slow;
        dropless.name = QStringLiteral("moe-dropless");
        dropless.record.moe.overflowPolicy = record::OverflowPolicy::Dropless;
        w = checkThroughputOverLoss({{fast, dropless}});
        QVERIFY(w);
        QVERIFY2(w->message.contains(QStringLiteral("moe-dropless: drop rate not applicable")), qPrintable(w->message));
        // Several findings are grouped: one summary naming the pairs, the findings as details.
        RunFacts slower = training(QStringLiteral("moe-slower"), moe(), 900.0, 2.0);
        w = checkThroughputOverLoss({{fast, slow, slower}});
        QVERIFY(w);
        QCOMPARE(w->details.size(), 3); // fast over slow, fast over slower, slow over slower
        QVERIFY2(w->summary.contains(QStringLiteral("moe-fast over moe-slow, moe-fast over moe-slower, moe-slow over "
                                                    "moe-slower")),
                 qPrintable(w->summary));
        QVERIFY(w->summary.startsWith(QStringLiteral("3 run pair")));
        // The reason a stage gets for exactly these runs, and none for others.
        QCOMPARE(checkReasonsForRuns({{fast, slow, slower}}, {QStringLiteral("moe-slow")}).size(), 1);
        QVERIFY(checkReasonsForRuns({{fast, slow, slower}}, {QStringLiteral("other")}).isEmpty());
        // Faster and better: no warning. Equal loss: no warning.
        QVERIFY(!checkThroughputOverLoss({{training(QStringLiteral("a"), moe(), 1200.0, 2.0),
                                           training(QStringLiteral("b"), moe(), 1000.0, 2.1)}}));
        QVERIFY(!checkThroughputOverLoss({{training(QStringLiteral("a"), moe(), 1200.0, 2.1),
                                           training(QStringLiteral("b"), moe(), 1000.0, 2.1)}}));
        // Impossible values decide nothing: an inf throughput made "a" the faster run
        // ("inf vs 1,000 tokens/s/GPU") before; the stages call it not ready instead.
        RunFacts broken = training(QStringLiteral("a"), moe(), 1200.0, 2.3);
        broken.throughput[50].value = std::numeric_limits<double>::infinity();
        QVERIFY(!checkThroughputOverLoss({{broken, training(QStringLiteral("b"), moe(), 1000.0, 2.1)}}));
        RunFacts nanLoss = training(QStringLiteral("a"), moe(), 1200.0, 2.3);
        nanLoss.loss[10].value = std::numeric_limits<double>::quiet_NaN();
        QVERIFY(!checkThroughputOverLoss({{nanLoss, training(QStringLiteral("b"), moe(), 1000.0, 2.1)}}));
    }

    void five_singleNodeExtrapolation() {
        ProjectFacts f{{probe(QStringLiteral("probe-1n"), 1), training(QStringLiteral("moe"), moe())}};
        auto w = checkSingleNodeExtrapolation(f);
        QVERIFY(w);
        QCOMPARE(w->id, 5);
        QVERIFY2(w->message.contains(QStringLiteral("4 nodes")), qPrintable(w->message));
        QVERIFY(w->message.contains(QStringLiteral("only at 1 node")));
        // No stage 1 at all.
        w = checkSingleNodeExtrapolation({{training(QStringLiteral("moe"), moe())}});
        QVERIFY(w);
        QVERIFY(w->message.contains(QStringLiteral("never ran")));
        // Baseline at the target node count: quiet.
        QVERIFY(!checkSingleNodeExtrapolation(clean()));
        // Single-node training needs no multi-node baseline.
        record::ConfigRecord oneNode = moe();
        oneNode.cluster.nodes = 1;
        QVERIFY(!checkSingleNodeExtrapolation({{training(QStringLiteral("moe"), oneNode)}}));
    }

    void six_warmupInThroughput() {
        QVERIFY(!checkWarmupInThroughput(clean()));
        ProjectFacts f = clean();
        f.runs[1].record.throughput.warmupStepsExcluded = 0;
        auto w = checkWarmupInThroughput(f);
        QVERIFY(w);
        QCOMPARE(w->id, 6);
        QVERIFY2(w->message.contains(QStringLiteral("excludes no warm-up steps")), qPrintable(w->message));
        f.runs[1].record.throughput.warmupStepsExcluded.reset();
        QVERIFY(checkWarmupInThroughput(f));
        // N = 10 excluded, but steps 11–20 are still slow: the warm-up is longer.
        f = clean();
        f.runs[1].record.throughput.warmupStepsExcluded = 10;
        w = checkWarmupInThroughput(f);
        QVERIFY(w);
        QVERIFY2(w->message.contains(QStringLiteral("the warm-up is longer")), qPrintable(w->message));
    }

    void allInOrder() {
        ProjectFacts f{{probe(QStringLiteral("probe-1n"), 1), training(QStringLiteral("moe"), moe())}};
        f.runs[1].record.throughput.warmupStepsExcluded = 0;
        const auto all = runAllChecks(f);
        QCOMPARE(all.size(), 2);
        QCOMPARE(all[0].id, 5);
        QCOMPARE(all[1].id, 6);
    }
};

QTEST_APPLESS_MAIN(TestMisjudgmentChecks)
#include "test_misjudgment_checks.moc"
