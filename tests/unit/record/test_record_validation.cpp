// validate()/validateJson(): every missing field, every range rule and every
// cross-field rule, each reported on its exact JSON path.
#include "RecordFixtures.h"
#include "record/RecordFields.h"
#include "record/RecordValidation.h"

#include <QtTest>
#include <cmath>
#include <functional>
#include <limits>

using namespace moewb::record;
using namespace moewb::record::test;

using Mutation = std::function<void(ConfigRecord&)>;
Q_DECLARE_METATYPE(Mutation)

class TestRecordValidation : public QObject {
    Q_OBJECT
private slots:
    void fixturesAreValid() {
        QList<FieldIssue> issues = validate(moeRecord());
        QVERIFY2(issues.isEmpty(), qPrintable(describe(issues)));
        issues = validate(denseRecord());
        QVERIFY2(issues.isEmpty(), qPrintable(describe(issues)));
        issues = validateJson(fixtureJson(QStringLiteral("moe-64e-top8.json")));
        QVERIFY2(issues.isEmpty(), qPrintable(describe(issues)));
        issues = validateJson(fixtureJson(QStringLiteral("dense-1.3b.json")));
        QVERIFY2(issues.isEmpty(), qPrintable(describe(issues)));
    }

    // {} lists every required field (an MoE record is assumed while model.kind is
    // missing), in document order, each as "<path> is missing: <hint>".
    void emptyObjectListsEveryRequiredField() {
        const QStringList expected{"cluster.nodes",
                                   "cluster.accelerators_per_node",
                                   "cluster.accelerator_model",
                                   "cluster.network_type",
                                   "cluster.topology.description",
                                   "cluster.topology.intra_node_link",
                                   "cluster.topology.inter_node_fabric",
                                   "cluster.topology.rail_optimized",
                                   "moe.experts",
                                   "moe.top_k",
                                   "moe.capacity_factor",
                                   "moe.overflow_policy",
                                   "moe.load_balancing.method",
                                   "moe.router_score_function",
                                   "model.kind",
                                   "model.total_params",
                                   "model.activated_params",
                                   "model.layers",
                                   "model.moe_layers",
                                   "model.hidden_size",
                                   "model.ffn_hidden_size",
                                   "parallelism.dp",
                                   "parallelism.tp",
                                   "parallelism.pp",
                                   "parallelism.ep",
                                   "batch.global_batch_tokens",
                                   "batch.sequence_length",
                                   "throughput.data_loading_included",
                                   "throughput.warmup_steps_excluded",
                                   "recipe.optimizer",
                                   "recipe.lr_schedule",
                                   "recipe.tokens_trained",
                                   "recipe.validation_set"};
        const QList<FieldIssue> issues = validateJson(QJsonObject());
        QCOMPARE(fieldsOf(issues), expected);
        for (const FieldIssue& i : issues)
            QVERIFY2(i.message.startsWith(i.field + QStringLiteral(" is missing: ")), qPrintable(i.message));
        QCOMPARE(issues.at(expected.indexOf("moe.top_k")).message,
                 QStringLiteral("moe.top_k is missing: how many experts each token is routed to (e.g. 2)"));
        QCOMPARE(validate(ConfigRecord()), issues);
    }

    void denseEmptyListsDenseFields() {
        ConfigRecord r;
        r.model.kind = ModelKind::Dense;
        const QStringList fields = fieldsOf(validate(r));
        QVERIFY(!fields.contains("moe.top_k"));
        QVERIFY(!fields.contains("model.moe_layers"));
        QVERIFY(!fields.contains("parallelism.ep"));
        QVERIFY(fields.contains("model.total_params"));
        QCOMPARE(fields.size(), 33 - 6 /* moe.* */ - 1 /* kind */ - 2 /* moe_layers, ep */);
    }

    // One rule per row: applied to the valid MoE fixture, the mutation yields exactly
    // one issue, on `field`, whose message contains `fragment`.
    void rules_data() {
        QTest::addColumn<Mutation>("mutate");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("fragment");
        auto row = [](const char* name, Mutation m, const char* field, const char* fragment) {
            QTest::newRow(name) << m << QString::fromUtf8(field) << QString::fromUtf8(fragment);
        };
        // Missing fields, one for each section.
        row(
            "missing nodes", [](ConfigRecord& r) { r.cluster.nodes.reset(); }, "cluster.nodes",
            "cluster.nodes is missing: how many nodes the run used");
        row(
            "missing rail optimized", [](ConfigRecord& r) { r.cluster.topology.railOptimized.reset(); },
            "cluster.topology.rail_optimized", "is missing");
        row(
            "missing capacity factor", [](ConfigRecord& r) { r.moe.capacityFactor.reset(); },
            "moe.capacity_factor", "is missing: the capacity factor (e.g. 1.25), or \"none\"");
        row(
            "missing router", [](ConfigRecord& r) { r.moe.routerScoreFunction.reset(); },
            "moe.router_score_function", "is missing");
        row(
            "missing ffn", [](ConfigRecord& r) { r.model.ffnHiddenSize.reset(); }, "model.ffn_hidden_size",
            "is missing");
        row(
            "missing ep", [](ConfigRecord& r) { r.parallelism.ep.reset(); }, "parallelism.ep", "is missing");
        row(
            "missing seq", [](ConfigRecord& r) { r.batch.sequenceLength.reset(); }, "batch.sequence_length",
            "is missing");
        row(
            "missing warmup", [](ConfigRecord& r) { r.throughput.warmupStepsExcluded.reset(); },
            "throughput.warmup_steps_excluded", "is missing");
        row(
            "missing validation set", [](ConfigRecord& r) { r.recipe.validationSet.reset(); },
            "recipe.validation_set", "is missing");

        // Absurd values.
        row(
            "top_k zero", [](ConfigRecord& r) { r.moe.topK = 0; }, "moe.top_k",
            "moe.top_k must be a positive integer, got 0");
        row(
            "top_k over 1024", [](ConfigRecord& r) { r.moe.topK = 2000; }, "moe.top_k",
            "moe.top_k must be at most 1024, got 2000");
        row(
            "negative nodes", [](ConfigRecord& r) { r.cluster.nodes = -1; }, "cluster.nodes",
            "cluster.nodes must be a positive integer, got -1");
        row(
            "accelerators over 1024", [](ConfigRecord& r) { r.cluster.acceleratorsPerNode = 4096; },
            "cluster.accelerators_per_node", "must be at most 1024, got 4096");
        row(
            "zero hidden", [](ConfigRecord& r) { r.model.hiddenSize = 0; }, "model.hidden_size",
            "must be a positive integer, got 0");
        row(
            "negative warmup", [](ConfigRecord& r) { r.throughput.warmupStepsExcluded = -5; },
            "throughput.warmup_steps_excluded", "must be an integer of 0 or more, got -5");
        row(
            "zero tokens trained", [](ConfigRecord& r) { r.recipe.tokensTrained = 0; },
            "recipe.tokens_trained", "must be a positive integer, got 0");
        row(
            "capacity zero", [](ConfigRecord& r) { r.moe.capacityFactor = CapacityFactor::of(0); },
            "moe.capacity_factor", "moe.capacity_factor must be a positive number or \"none\", got 0");
        row(
            "capacity negative", [](ConfigRecord& r) { r.moe.capacityFactor = CapacityFactor::of(-1.5); },
            "moe.capacity_factor", "got -1.5");
        row(
            "capacity nan",
            [](ConfigRecord& r) {
                r.moe.capacityFactor = CapacityFactor::of(std::numeric_limits<double>::quiet_NaN());
            },
            "moe.capacity_factor", "got nan");
        row(
            "capacity absurd", [](ConfigRecord& r) { r.moe.capacityFactor = CapacityFactor::of(5000); },
            "moe.capacity_factor", "must be at most 1024, got 5000");
        row(
            "coefficient infinite",
            [](ConfigRecord& r) {
                r.moe.loadBalancing.coefficient = std::numeric_limits<double>::infinity();
            },
            "moe.load_balancing.coefficient", "must be a positive number, got inf");
        row(
            "coefficient zero", [](ConfigRecord& r) { r.moe.loadBalancing.coefficient = 0.0; },
            "moe.load_balancing.coefficient", "must be a positive number, got 0");
        row(
            "blank text", [](ConfigRecord& r) { r.cluster.acceleratorModel = QStringLiteral("  "); },
            "cluster.accelerator_model", "cluster.accelerator_model is empty: the accelerator model");
        row(
            "one expert is dense",
            [](ConfigRecord& r) {
                r.moe.experts = 1;
                r.moe.topK = 1;
                r.parallelism.ep = 1;
            },
            "moe.experts", "must be at least 2 for an MoE model, got 1");
        row(
            "moe without moe layers", [](ConfigRecord& r) { r.model.moeLayers = 0; }, "model.moe_layers",
            "must be at least 1 for an MoE model, got 0");

        // Cross-field rules.
        row(
            "top_k over experts",
            [](ConfigRecord& r) {
                r.moe.experts = 8;
                r.moe.topK = 9;
            },
            "moe.top_k", "moe.top_k (9) must not exceed moe.experts (8)");
        row(
            "moe layers over layers", [](ConfigRecord& r) { r.model.moeLayers = 17; }, "model.moe_layers",
            "model.moe_layers (17) must not exceed model.layers (16)");
        row(
            "activated over total", [](ConfigRecord& r) { r.model.activatedParams = 7000000000; },
            "model.activated_params",
            "model.activated_params (7000000000) must not exceed model.total_params (6900000000)");
        row(
            "drop needs drop order", [](ConfigRecord& r) { r.moe.dropOrder.reset(); }, "moe.drop_order",
            "moe.drop_order is missing: which tokens overflow first: lowest_probability or position "
            "(required when "
            "moe.overflow_policy is drop)");
        row(
            "residual needs drop order",
            [](ConfigRecord& r) {
                r.moe.overflowPolicy = OverflowPolicy::Residual;
                r.moe.dropOrder.reset();
            },
            "moe.drop_order", "(required when moe.overflow_policy is residual)");
        row(
            "dropless has no drop order",
            [](ConfigRecord& r) {
                r.moe.overflowPolicy = OverflowPolicy::Dropless;
                r.moe.capacityFactor = CapacityFactor::none();
            },
            "moe.drop_order", "moe.drop_order does not apply when moe.overflow_policy is dropless");
        row(
            "dropless has no capacity",
            [](ConfigRecord& r) {
                r.moe.overflowPolicy = OverflowPolicy::Dropless;
                r.moe.dropOrder.reset();
            },
            "moe.capacity_factor",
            "moe.capacity_factor must be \"none\" when moe.overflow_policy is dropless");
        row(
            "drop needs a capacity", [](ConfigRecord& r) { r.moe.capacityFactor = CapacityFactor::none(); },
            "moe.capacity_factor", "must be a positive number when moe.overflow_policy is drop");
        row(
            "reroute needs a capacity",
            [](ConfigRecord& r) {
                r.moe.overflowPolicy = OverflowPolicy::Reroute;
                r.moe.capacityFactor = CapacityFactor::none();
            },
            "moe.capacity_factor", "when moe.overflow_policy is reroute");
        row(
            "expert choice is not dropless",
            [](ConfigRecord& r) {
                r.moe.overflowPolicy = OverflowPolicy::Dropless;
                r.moe.dropOrder.reset();
                r.moe.capacityFactor = CapacityFactor::none();
                r.moe.loadBalancing.method = LoadBalancingMethod::ExpertChoice;
                r.moe.loadBalancing.coefficient.reset();
            },
            "moe.overflow_policy", "cannot be dropless with load-balancing method expert_choice");
        row(
            "aux loss needs coefficient", [](ConfigRecord& r) { r.moe.loadBalancing.coefficient.reset(); },
            "moe.load_balancing.coefficient",
            "moe.load_balancing.coefficient is missing: the auxiliary-loss coefficient (e.g. 0.01) (required "
            "when "
            "moe.load_balancing.method is aux_loss)");
        row(
            "seq aux loss needs coefficient",
            [](ConfigRecord& r) {
                r.moe.loadBalancing.method = LoadBalancingMethod::SeqAuxLoss;
                r.moe.loadBalancing.coefficient.reset();
            },
            "moe.load_balancing.coefficient", "(required when moe.load_balancing.method is seq_aux_loss)");
        row(
            "bias needs update rate",
            [](ConfigRecord& r) {
                r.moe.loadBalancing.method = LoadBalancingMethod::AuxLossFreeBias;
                r.moe.loadBalancing.coefficient.reset();
            },
            "moe.load_balancing.update_rate",
            "(required when moe.load_balancing.method is aux_loss_free_bias)");
        row(
            "sinkhorn has no coefficient",
            [](ConfigRecord& r) { r.moe.loadBalancing.method = LoadBalancingMethod::Sinkhorn; },
            "moe.load_balancing.coefficient",
            "moe.load_balancing.coefficient does not apply to load-balancing method sinkhorn");
        row(
            "aux loss has no update rate", [](ConfigRecord& r) { r.moe.loadBalancing.updateRate = 0.001; },
            "moe.load_balancing.update_rate",
            "moe.load_balancing.update_rate does not apply to load-balancing method aux_loss");
        row(
            "update rate over 1",
            [](ConfigRecord& r) {
                r.moe.loadBalancing.method = LoadBalancingMethod::AuxLossFreeBias;
                r.moe.loadBalancing.coefficient.reset();
                r.moe.loadBalancing.updateRate = 2.0;
            },
            "moe.load_balancing.update_rate", "must be at most 1, got 2");
        row(
            "world size", [](ConfigRecord& r) { r.parallelism.dp = 8; }, "parallelism.dp",
            "parallelism.dp × parallelism.tp × parallelism.pp × parallelism.cp = 8 × 2 × 1 × 1 = 16 must "
            "equal the "
            "world size cluster.nodes × cluster.accelerators_per_node = 4 × 8 = 32");
        row(
            "world size counts cp", [](ConfigRecord& r) { r.parallelism.cp = 2; }, "parallelism.dp",
            "= 16 × 2 × 1 × 2 = 64 must equal the world size");
        row(
            "ep divides experts", [](ConfigRecord& r) { r.parallelism.ep = 3; }, "parallelism.ep",
            "parallelism.ep (3) must divide moe.experts (64)");
        row(
            "ep divides dp x cp", [](ConfigRecord& r) { r.parallelism.ep = 32; }, "parallelism.ep",
            "parallelism.ep (32) must divide dp × cp (16 × 1 = 16)");
        row(
            "etp x ep x pp divides the world", [](ConfigRecord& r) { r.parallelism.etp = 3; }, "parallelism.etp",
            "= 3 × 8 × 1 must divide the world size dp × tp × pp × cp = 32");
        row(
            "order with an unknown name", [](ConfigRecord& r) { r.parallelism.order = QStringLiteral("tp-xp-dp"); },
            "parallelism.order", "must be names out of tp, cp, ep, dp, pp joined by '-'");
        row(
            "order naming one twice", [](ConfigRecord& r) { r.parallelism.order = QStringLiteral("tp-dp-tp"); },
            "parallelism.order", "names tp twice");
        row(
            "pp over layers",
            [](ConfigRecord& r) {
                r.parallelism.dp = 1;
                r.parallelism.tp = 1;
                r.parallelism.pp = 32;
                r.parallelism.ep = 1;
            },
            "parallelism.pp", "parallelism.pp (32) must not exceed model.layers (16)");
        row(
            "batch in whole sequences", [](ConfigRecord& r) { r.batch.globalBatchTokens = 4194304 + 100; },
            "batch.global_batch_tokens",
            "batch.global_batch_tokens (4194404) must be a multiple of batch.sequence_length (4096)");
        row(
            "batch splits over dp", [](ConfigRecord& r) { r.batch.globalBatchTokens = qint64(4096) * 1000; },
            "batch.global_batch_tokens",
            "batch.global_batch_tokens (4096000 tokens = 1000 sequences) must split evenly over "
            "parallelism.dp (16)");

        // Dense control records.
        row(
            "dense with moe section",
            [](ConfigRecord& r) {
                r.model.kind = ModelKind::Dense;
                r.model.moeLayers.reset();
                r.parallelism.ep.reset();
            },
            "moe", "moe does not apply to a dense model");
        row(
            "dense with moe layers",
            [](ConfigRecord& r) {
                r = denseRecord();
                r.model.moeLayers = 2;
            },
            "model.moe_layers", "model.moe_layers must be 0 for a dense model, got 2");
        row(
            "dense with ep",
            [](ConfigRecord& r) {
                r = denseRecord();
                r.parallelism.ep = 2;
            },
            "parallelism.ep", "parallelism.ep must be 1 for a dense model (it has no experts), got 2");
    }
    void rules() {
        QFETCH(Mutation, mutate);
        QFETCH(QString, field);
        QFETCH(QString, fragment);
        ConfigRecord r = moeRecord();
        mutate(r);
        const QList<FieldIssue> issues = validate(r);
        QVERIFY2(issues.size() == 1, qPrintable(describe(issues)));
        QCOMPARE(issues.first().field, field);
        QVERIFY2(issues.first().message.contains(fragment), qPrintable(issues.first().message));
    }

    // Settings the rules must accept.
    void accepted_data() {
        QTest::addColumn<Mutation>("mutate");
        QTest::newRow("reroute without drop order") << Mutation([](ConfigRecord& r) {
            r.moe.overflowPolicy = OverflowPolicy::Reroute;
            r.moe.dropOrder.reset();
        });
        QTest::newRow("reroute with drop order")
            << Mutation([](ConfigRecord& r) { r.moe.overflowPolicy = OverflowPolicy::Reroute; });
        QTest::newRow("dropless") << Mutation([](ConfigRecord& r) {
            r.moe.overflowPolicy = OverflowPolicy::Dropless;
            r.moe.dropOrder.reset();
            r.moe.capacityFactor = CapacityFactor::none();
        });
        QTest::newRow("position order")
            << Mutation([](ConfigRecord& r) { r.moe.dropOrder = DropOrder::Position; });
        QTest::newRow("expert choice with capacity") << Mutation([](ConfigRecord& r) {
            r.moe.loadBalancing.method = LoadBalancingMethod::ExpertChoice;
            r.moe.loadBalancing.coefficient.reset();
        });
        QTest::newRow("bias with sigmoid") << Mutation([](ConfigRecord& r) {
            r.moe.loadBalancing.method = LoadBalancingMethod::AuxLossFreeBias;
            r.moe.loadBalancing.coefficient.reset();
            r.moe.loadBalancing.updateRate = 0.001;
            r.moe.routerScoreFunction = RouterScoreFunction::Sigmoid;
        });
        QTest::newRow("no balancing") << Mutation([](ConfigRecord& r) {
            r.moe.loadBalancing.method = LoadBalancingMethod::None;
            r.moe.loadBalancing.coefficient.reset();
        });
        QTest::newRow("cp absent") << Mutation([](ConfigRecord& r) { r.parallelism.cp.reset(); });
        QTest::newRow("cp 2 with dp 8") << Mutation([](ConfigRecord& r) {
            r.parallelism.cp = 2;
            r.parallelism.dp = 8; // ep 8 divides dp × cp = 16
        });
        QTest::newRow("top_k equals experts") << Mutation([](ConfigRecord& r) {
            r.moe.experts = 8;
            r.moe.topK = 8;
        });
        QTest::newRow("capacity below 1")
            << Mutation([](ConfigRecord& r) { r.moe.capacityFactor = CapacityFactor::of(0.5); });
        QTest::newRow("single node") << Mutation([](ConfigRecord& r) {
            r.cluster.nodes = 1;
            r.parallelism.dp = 4;
            r.parallelism.ep = 4;
            r.cluster.topology.interNodeFabric = QStringLiteral("none");
        });
        QTest::newRow("no warm-up excluded")
            << Mutation([](ConfigRecord& r) { r.throughput.warmupStepsExcluded = 0; });
        QTest::newRow("dense explicit zero moe layers and ep 1") << Mutation([](ConfigRecord& r) {
            r = denseRecord();
            r.model.moeLayers = 0;
            r.parallelism.ep = 1;
        });
        QTest::newRow("dense with empty moe section") << Mutation([](ConfigRecord& r) { r = denseRecord(); });
    }
    void accepted() {
        QFETCH(Mutation, mutate);
        ConfigRecord r = moeRecord();
        mutate(r);
        const QList<FieldIssue> issues = validate(r);
        QVERIFY2(issues.isEmpty(), qPrintable(describe(issues)));
    }

    // Every problem is reported, not only the first, in a stable order.
    void reportsEveryIssue() {
        ConfigRecord r = moeRecord();
        r.moe.topK = 0;
        r.recipe.optimizer.reset();
        r.parallelism.dp = 8;   // world size
        r.model.moeLayers = 20; // > layers
        const QList<FieldIssue> issues = validate(r);
        QCOMPARE(fieldsOf(issues),
                 (QStringList{"moe.top_k", "recipe.optimizer", "model.moe_layers", "parallelism.dp"}));
        QCOMPARE(validate(r), issues);
    }

    void typeErrorsAreNotReportedTwice() {
        QJsonObject json = fixtureJson(QStringLiteral("moe-64e-top8.json"));
        QJsonObject moe = json.value("moe").toObject();
        moe.insert("top_k", QStringLiteral("two"));
        json.insert("moe", moe);
        const QList<FieldIssue> issues = validateJson(json);
        QCOMPARE(issues.size(), 1);
        QCOMPARE(issues.first().field, QStringLiteral("moe.top_k"));
        QCOMPARE(issues.first().message, QStringLiteral("moe.top_k must be a positive integer, got \"two\""));
    }

    void brokenSectionHidesItsMissingFields() {
        QJsonObject json = fixtureJson(QStringLiteral("moe-64e-top8.json"));
        QJsonObject moe = json.value("moe").toObject();
        moe.insert("load_balancing", QStringLiteral("aux_loss"));
        json.insert("moe", moe);
        const QList<FieldIssue> issues = validateJson(json);
        QCOMPARE(fieldsOf(issues), QStringList{"moe.load_balancing"});
    }

    void unknownKeyAndMissingFieldBothReported() {
        QJsonObject json = fixtureJson(QStringLiteral("moe-64e-top8.json"));
        QJsonObject moe = json.value("moe").toObject();
        moe.insert("topk", moe.take("top_k"));
        json.insert("moe", moe);
        const QList<FieldIssue> issues = validateJson(json);
        QCOMPARE(fieldsOf(issues), (QStringList{"moe.topk", "moe.top_k"}));
        QCOMPARE(issues.first().message,
                 QStringLiteral("moe.topk is not a known field (did you mean moe.top_k?)"));
    }

    void rangeErrorsFromJson() {
        QJsonObject json = fixtureJson(QStringLiteral("moe-64e-top8.json"));
        QJsonObject moe = json.value("moe").toObject();
        moe.insert("top_k", -2);
        json.insert("moe", moe);
        const QList<FieldIssue> issues = validateJson(json);
        QCOMPARE(issues.size(), 1);
        QCOMPARE(issues.first().message, QStringLiteral("moe.top_k must be a positive integer, got -2"));
    }

    void syntaxErrorIsReportedAlone() {
        const ParsedRecord parsed = parseRecord("{\"cluster\": }");
        const QList<FieldIssue> issues = validateParsed(parsed);
        QCOMPARE(issues.size(), 1);
        QCOMPARE(issues.first().field, QString());
        QVERIFY(issues.first().message.startsWith(QStringLiteral("line 1, column 13: ")));
        QVERIFY(validateParsed(parseRecord(fixtureBytes(QStringLiteral("moe-64e-top8.json")))).isEmpty());
    }

    // Megatron-Core's MoE parallel folding: with expert-TP 1 an EP of 32 need not
    // divide dp × cp (16); etp × ep × pp = 32 divides the world, so the record is valid.
    void expertTensorParallelFolding() {
        ConfigRecord r = moeRecord();
        r.parallelism.ep = 32;
        r.parallelism.etp = 1;
        QCOMPARE(fieldsOf(validate(r)), QStringList());
        r.parallelism.etp.reset();
        QCOMPARE(fieldsOf(validate(r)), QStringList{"parallelism.ep"});
    }

    void catalogueCoversEveryJsonField() {
        // Every leaf the MoE fixture writes has a catalogue entry with a hint.
        const QJsonObject json = moeRecord().toJson();
        int leaves = 0;
        for (auto section = json.begin(); section != json.end(); ++section) {
            if (!section->isObject())
                continue;
            const QJsonObject obj = section->toObject();
            for (auto it = obj.begin(); it != obj.end(); ++it) {
                const QString path = section.key() + '.' + it.key();
                if (it->isObject()) {
                    for (const QString& sub : it->toObject().keys()) {
                        QVERIFY2(!fieldHint(path + '.' + sub).isEmpty(), qPrintable(path + '.' + sub));
                        ++leaves;
                    }
                } else {
                    QVERIFY2(!fieldHint(path).isEmpty(), qPrintable(path));
                    ++leaves;
                }
            }
        }
        QCOMPARE(leaves, 37); // every catalogue field except moe.load_balancing.update_rate
        QCOMPARE(recordFields().size(), 40); // + parallelism.etp and parallelism.order (optional)
    }
};

QTEST_GUILESS_MAIN(TestRecordValidation)
#include "test_record_validation.moc"
