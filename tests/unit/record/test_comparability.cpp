// planComparison(): one table, split tables titled by top-k / capacity factor /
// overflow policy, or a refusal naming every missing field; differingFields().
#include "RecordFixtures.h"
#include "record/Comparability.h"

#include <QtTest>

using namespace moewb::record;
using namespace moewb::record::test;

namespace {

ComparisonRun run(const QString& name, const ConfigRecord& record) {
    return {name, record};
}

ConfigRecord withTopK(ConfigRecord r, qint64 k) {
    r.moe.topK = k;
    return r;
}

ConfigRecord withCapacity(ConfigRecord r, double factor) {
    r.moe.capacityFactor = CapacityFactor::of(factor);
    return r;
}

ConfigRecord dropless(ConfigRecord r) {
    r.moe.overflowPolicy = OverflowPolicy::Dropless;
    r.moe.capacityFactor = CapacityFactor::none();
    r.moe.dropOrder.reset();
    return r;
}

ConfigRecord reroute(ConfigRecord r) {
    r.moe.overflowPolicy = OverflowPolicy::Reroute;
    return r;
}

QStringList titles(const ComparisonPlan& plan) {
    QStringList t;
    for (const auto& g : plan.groups)
        t << g.title;
    return t;
}

} // namespace

class TestComparability : public QObject {
    Q_OBJECT
private slots:
    void singleTable() {
        ConfigRecord other = moeRecord();
        other.cluster.nodes = 8; // differs, but not in a splitting field
        other.parallelism.dp = 32;
        const ComparisonPlan plan = planComparison({run("a", moeRecord()), run("b", other)});
        QVERIFY(!plan.refused);
        QVERIFY(plan.singleTable());
        QCOMPARE(plan.groups.size(), 1);
        const ComparisonGroup& g = plan.groups.first();
        QCOMPARE(g.title, QStringLiteral("top-k 8 · capacity factor 1.25 · overflow drop"));
        QCOMPARE(g.topK, 8);
        QCOMPARE(g.capacityFactor, std::optional<double>(1.25));
        QCOMPARE(g.overflowPolicy, QStringLiteral("drop"));
        QCOMPARE(g.runNames, (QStringList{"a", "b"}));
        QVERIFY(plan.refusalText().isEmpty());
    }

    void splitByTopK() {
        const ConfigRecord base = moeRecord();
        const ComparisonPlan plan = planComparison({run("k8-a", base), run("k2", withTopK(base, 2)),
                                                    run("k8-b", base), run("k4", withTopK(base, 4))});
        QVERIFY(!plan.refused);
        QVERIFY(!plan.singleTable());
        QCOMPARE(titles(plan), (QStringList{"top-k 8 · capacity factor 1.25 · overflow drop",
                                            "top-k 2 · capacity factor 1.25 · overflow drop",
                                            "top-k 4 · capacity factor 1.25 · overflow drop"}));
        QCOMPARE(plan.groups[0].runNames, (QStringList{"k8-a", "k8-b"}));
        QCOMPARE(plan.groups[1].runNames, QStringList{"k2"});
        QCOMPARE(plan.groups[2].runNames, QStringList{"k4"});
        QCOMPARE(plan.groups[1].topK, 2);
    }

    void splitByCapacityFactor() {
        const ConfigRecord base = moeRecord();
        const ComparisonPlan plan =
            planComparison({run("cf1.0", withCapacity(base, 1.0)), run("cf1.25", base),
                            run("cf1.0-again", withCapacity(base, 1.0))});
        QCOMPARE(titles(plan), (QStringList{"top-k 8 · capacity factor 1 · overflow drop",
                                            "top-k 8 · capacity factor 1.25 · overflow drop"}));
        QCOMPARE(plan.groups[0].runNames, (QStringList{"cf1.0", "cf1.0-again"}));
        QCOMPARE(plan.groups[1].runNames, QStringList{"cf1.25"});
        QCOMPARE(plan.groups[0].capacityFactor, std::optional<double>(1.0));
    }

    void splitByOverflowPolicy() {
        const ConfigRecord base = moeRecord();
        const ComparisonPlan plan = planComparison(
            {run("drop", base), run("reroute", reroute(base)), run("dropless", dropless(base))});
        QCOMPARE(titles(plan), (QStringList{"top-k 8 · capacity factor 1.25 · overflow drop",
                                            "top-k 8 · capacity factor 1.25 · overflow reroute",
                                            "top-k 8 · capacity factor none · overflow dropless"}));
        QCOMPARE(plan.groups[0].runNames, QStringList{"drop"});
        QCOMPARE(plan.groups[1].runNames, QStringList{"reroute"});
        QCOMPARE(plan.groups[1].overflowPolicy, QStringLiteral("reroute"));
        QCOMPARE(plan.groups[2].capacityFactor, std::nullopt);
        QCOMPARE(plan.groups[2].runNames, QStringList{"dropless"});
    }

    void denseControlJoinsEveryGroup() {
        const ConfigRecord base = moeRecord();
        const ComparisonPlan plan = planComparison(
            {run("moe-k8", base), run("dense", denseRecord()), run("moe-k2", withTopK(base, 2))});
        QCOMPARE(plan.groups.size(), 2);
        QCOMPARE(plan.groups[0].runNames, (QStringList{"moe-k8", "dense"}));
        QCOMPARE(plan.groups[1].runNames, (QStringList{"dense", "moe-k2"}));

        const ComparisonPlan stage2 = planComparison({run("moe", base), run("dense", denseRecord())});
        QVERIFY(stage2.singleTable());
        QCOMPARE(stage2.groups.first().runNames, (QStringList{"moe", "dense"}));
    }

    void denseOnly() {
        const ComparisonPlan plan = planComparison({run("d1", denseRecord()), run("d2", denseRecord())});
        QVERIFY(plan.singleTable());
        QVERIFY(plan.groups.first().denseOnly);
        QCOMPARE(plan.groups.first().title, QStringLiteral("dense"));
        QCOMPARE(plan.groups.first().runNames, (QStringList{"d1", "d2"}));
    }

    void refusedListsFieldsPerRun() {
        ConfigRecord missing = moeRecord();
        missing.moe.topK.reset();
        missing.throughput.dataLoadingIncluded.reset();
        ConfigRecord invalid = moeRecord();
        invalid.parallelism.ep = 3;
        const ComparisonPlan plan =
            planComparison({run("ok", moeRecord()), run("no-topk", missing), run("bad-ep", invalid)});
        QVERIFY(plan.refused);
        QVERIFY(!plan.singleTable());
        QVERIFY(plan.groups.isEmpty());
        QCOMPARE(plan.blocking.size(), 2);
        QCOMPARE(plan.blocking[0].runName, QStringLiteral("no-topk"));
        QCOMPARE(fieldsOf(plan.blocking[0].issues),
                 (QStringList{"moe.top_k", "throughput.data_loading_included"}));
        QCOMPARE(plan.blocking[1].runName, QStringLiteral("bad-ep"));
        QCOMPARE(fieldsOf(plan.blocking[1].issues), QStringList{"parallelism.ep"});

        const QString text = plan.refusalText();
        QVERIFY2(text.startsWith(QStringLiteral("Comparison refused: 2 run(s) have missing or invalid")),
                 qPrintable(text));
        QVERIFY(
            text.contains(QStringLiteral("Run \"no-topk\":\n  - moe.top_k is missing: how many experts")));
        QVERIFY(text.contains(
            QStringLiteral("Run \"bad-ep\":\n  - parallelism.ep (3) must divide moe.experts (64)")));
        QVERIFY(!text.contains(QStringLiteral("\"ok\"")));
    }

    void emptyInput() {
        const ComparisonPlan plan = planComparison({});
        QVERIFY(!plan.refused);
        QVERIFY(plan.groups.isEmpty());
        QVERIFY(!plan.singleTable());
    }

    void groupTitle() {
        QCOMPARE(comparisonGroupTitle(2, 1.25, QStringLiteral("drop")),
                 QStringLiteral("top-k 2 · capacity factor 1.25 · overflow drop"));
        QCOMPARE(comparisonGroupTitle(1, std::nullopt, QStringLiteral("dropless")),
                 QStringLiteral("top-k 1 · capacity factor none · overflow dropless"));
    }

    void differingFieldsListsPaths() {
        const ConfigRecord a = moeRecord();
        QVERIFY(differingFields({a, a, a}).isEmpty());
        QVERIFY(differingFields({a}).isEmpty());
        QVERIFY(differingFields({}).isEmpty());

        ConfigRecord b = a;
        b.name = QStringLiteral("other"); // not config
        b.notes = QStringLiteral("other");
        b.recipe.lrSchedule = QStringLiteral("constant 1e-4");
        b.cluster.nodes = 8;
        b.moe.capacityFactor = CapacityFactor::none();
        QCOMPARE(differingFields({a, a, b}),
                 (QStringList{"cluster.nodes", "moe.capacity_factor", "recipe.lr_schedule"}));
    }

    void differingFieldsUsesDefaults() {
        ConfigRecord a = moeRecord();
        ConfigRecord b = a;
        b.parallelism.cp.reset();    // default 1, as a has
        b.moe.sharedExperts.reset(); // default 0, as a has
        QVERIFY(differingFields({a, b}).isEmpty());
        b.moe.dropOrder.reset(); // set vs missing differs
        QCOMPARE(differingFields({a, b}), QStringList{"moe.drop_order"});
    }

    void differingFieldsDenseVsMoe() {
        const QStringList fields = differingFields({moeRecord(), denseRecord()});
        QVERIFY(fields.contains("model.kind"));
        QVERIFY(fields.contains("moe.top_k"));
        QVERIFY(fields.contains("parallelism.ep"));
        QVERIFY(!fields.contains("batch.sequence_length"));
        QVERIFY(!fields.contains("recipe.optimizer"));
        QVERIFY(!fields.contains("cluster.nodes"));
    }
};

QTEST_GUILESS_MAIN(TestComparability)
#include "test_comparability.moc"
