// ConfigRecord: typed fields, JSON read/write, structural issues (types, unknown
// keys), and parseRecord's located syntax errors.
#include "RecordFixtures.h"
#include "record/ConfigRecord.h"
#include "record/RecordJson.h"

#include <QJsonArray>
#include <QtTest>
#include <cmath>
#include <limits>

using namespace moewb::record;
using namespace moewb::record::test;

namespace {

// Sets a value at a dotted path, creating sections on the way.
void setPath(QJsonObject& obj, const QStringList& parts, const QJsonValue& value) {
    if (parts.size() == 1) {
        obj.insert(parts.first(), value);
        return;
    }
    QJsonObject child = obj.value(parts.first()).toObject();
    setPath(child, parts.mid(1), value);
    obj.insert(parts.first(), child);
}

bool hasPath(const QJsonObject& root, const QString& path) {
    const QStringList parts = path.split(QLatin1Char('.'));
    QJsonObject obj = root;
    for (qsizetype i = 0; i + 1 < parts.size(); ++i)
        obj = obj.value(parts[i]).toObject();
    return obj.contains(parts.last());
}

QJsonObject withValue(QJsonObject obj, const QString& path, const QJsonValue& value) {
    setPath(obj, path.split(QLatin1Char('.')), value);
    return obj;
}

} // namespace

class TestConfigRecord : public QObject {
    Q_OBJECT
private slots:
    void tokensRoundTrip() {
        for (auto v : {OverflowPolicy::Drop, OverflowPolicy::Reroute, OverflowPolicy::Residual,
                       OverflowPolicy::Dropless})
            QCOMPARE(overflowPolicyFromToken(token(v)), v);
        for (auto v : {LoadBalancingMethod::AuxLoss, LoadBalancingMethod::SeqAuxLoss,
                       LoadBalancingMethod::AuxLossFreeBias, LoadBalancingMethod::Sinkhorn,
                       LoadBalancingMethod::ExpertChoice, LoadBalancingMethod::None})
            QCOMPARE(loadBalancingMethodFromToken(token(v)), v);
        QCOMPARE(token(DropOrder::LowestProbability), QStringLiteral("lowest_probability"));
        QCOMPARE(token(LoadBalancingMethod::AuxLossFreeBias), QStringLiteral("aux_loss_free_bias"));
        QCOMPARE(token(RouterScoreFunction::Sigmoid), QStringLiteral("sigmoid"));
        QCOMPARE(modelKindFromToken(QStringLiteral("dense")), ModelKind::Dense);
        QVERIFY(!overflowPolicyFromToken(QStringLiteral("Drop")));
    }

    void fixturesReadWithoutIssues_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("dense");
        QTest::newRow("moe") << QStringLiteral("moe-64e-top8.json") << QStringLiteral("moe-64e-top8")
                             << false;
        QTest::newRow("dense") << QStringLiteral("dense-1.3b.json") << QStringLiteral("dense-1.3b") << true;
    }
    void fixturesReadWithoutIssues() {
        QFETCH(QString, file);
        QFETCH(QString, name);
        QFETCH(bool, dense);
        const ParsedRecord parsed = parseRecord(fixtureBytes(file));
        QVERIFY2(parsed.issues.isEmpty(), qPrintable(describe(parsed.issues)));
        QCOMPARE(parsed.record.name, name);
        QCOMPARE(parsed.record.isDense(), dense);
        QCOMPARE(parsed.record.worldSize(), std::optional<qint64>(32));
    }

    void typedFieldsFromFixture() {
        const ConfigRecord r = moeRecord();
        QCOMPARE(r.cluster.nodes, std::optional<qint64>(4));
        QCOMPARE(r.cluster.topology.railOptimized, std::optional<bool>(true));
        QCOMPARE(r.moe.experts, std::optional<qint64>(64));
        QCOMPARE(r.moe.topK, std::optional<qint64>(8));
        QCOMPARE(r.moe.capacityFactor, std::optional<CapacityFactor>(CapacityFactor::of(1.25)));
        QCOMPARE(r.moe.overflowPolicy, std::optional<OverflowPolicy>(OverflowPolicy::Drop));
        QCOMPARE(r.moe.dropOrder, std::optional<DropOrder>(DropOrder::LowestProbability));
        QCOMPARE(r.moe.loadBalancing.method,
                 std::optional<LoadBalancingMethod>(LoadBalancingMethod::AuxLoss));
        QCOMPARE(r.moe.loadBalancing.coefficient, std::optional<double>(0.01));
        QCOMPARE(r.model.totalParams, std::optional<qint64>(6900000000));
        QCOMPARE(r.parallelism.cpOrDefault(), 1);
        QCOMPARE(r.recipe.tokensTrained, std::optional<qint64>(100000000000));
        QVERIFY(denseRecord().moe.isEmpty());
        QCOMPARE(denseRecord().parallelism.epOrDefault(), 1);
    }

    // toJson(fromJson(x)) == x for the documented (canonical) form.
    void fixturesRoundTrip_data() {
        QTest::addColumn<QString>("file");
        QTest::newRow("moe") << QStringLiteral("moe-64e-top8.json");
        QTest::newRow("dense") << QStringLiteral("dense-1.3b.json");
    }
    void fixturesRoundTrip() {
        QFETCH(QString, file);
        const QJsonObject json = fixtureJson(file);
        QList<FieldIssue> issues;
        const ConfigRecord r = ConfigRecord::fromJson(json, &issues);
        QVERIFY(issues.isEmpty());
        QCOMPARE(r.toJson(), json);
        QCOMPARE(parseRecord(recordToBytes(r)).record, r);
    }

    void recordRoundTrip() {
        ConfigRecord r;
        r.name = QStringLiteral("partial");
        r.notes = QStringLiteral("only some fields");
        r.moe.topK = 2;
        r.moe.capacityFactor = CapacityFactor::none();
        r.moe.overflowPolicy = OverflowPolicy::Dropless;
        r.moe.loadBalancing.method = LoadBalancingMethod::AuxLossFreeBias;
        r.moe.loadBalancing.updateRate = 0.001;
        r.moe.routerScoreFunction = RouterScoreFunction::Sigmoid;
        r.cluster.topology.railOptimized = false;
        r.parallelism.cp = 2;
        r.throughput.warmupStepsExcluded = 0;
        QList<FieldIssue> issues;
        const QJsonObject json = r.toJson();
        QCOMPARE(
            json.value(QStringLiteral("moe")).toObject().value(QStringLiteral("capacity_factor")).toString(),
            QStringLiteral("none"));
        QVERIFY(!json.contains(QStringLiteral("batch"))); // empty sections are not written
        QCOMPARE(ConfigRecord::fromJson(json, &issues), r);
        QVERIFY(issues.isEmpty());
        QCOMPARE(ConfigRecord::fromJson(json, nullptr).toJson(), json);
    }

    void capacityFactorNoneSpellings() {
        for (const QJsonValue& v : {QJsonValue(QStringLiteral("none")), QJsonValue(QJsonValue::Null)}) {
            QList<FieldIssue> issues;
            const ConfigRecord r = ConfigRecord::fromJson(
                withValue(QJsonObject(), QStringLiteral("moe.capacity_factor"), v), &issues);
            QVERIFY(issues.isEmpty());
            QVERIFY(r.moe.capacityFactor.has_value());
            QVERIFY(r.moe.capacityFactor->isNone());
        }
        // Missing is not "none".
        QVERIFY(!ConfigRecord::fromJson(QJsonObject(), nullptr).moe.capacityFactor.has_value());
    }

    void wrongTypes_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QJsonValue>("value");
        QTest::addColumn<QString>("message");
        QTest::newRow("string for integer") << "moe.top_k" << QJsonValue(QStringLiteral("two"))
                                            << "moe.top_k must be a positive integer, got \"two\"";
        QTest::newRow("fraction for integer")
            << "cluster.nodes" << QJsonValue(2.5) << "cluster.nodes must be a positive integer, got 2.5";
        QTest::newRow("bool for integer")
            << "throughput.warmup_steps_excluded" << QJsonValue(true)
            << "throughput.warmup_steps_excluded must be an integer of 0 or more, got true";
        QTest::newRow("huge integer") << "recipe.tokens_trained" << QJsonValue(1e20)
                                      << "recipe.tokens_trained must be at most 1000000000000000, got 1e+20";
        QTest::newRow("string yes for bool")
            << "throughput.data_loading_included" << QJsonValue(QStringLiteral("yes"))
            << "throughput.data_loading_included must be true or false, got \"yes\"";
        QTest::newRow("number for text") << "cluster.accelerator_model" << QJsonValue(100)
                                         << "cluster.accelerator_model must be a non-empty string, got 100";
        QTest::newRow("unknown token")
            << "moe.overflow_policy" << QJsonValue(QStringLiteral("dropp"))
            << "moe.overflow_policy must be one of drop, reroute, residual, dropless, got \"dropp\"";
        QTest::newRow("capacity word")
            << "moe.capacity_factor" << QJsonValue(QStringLiteral("unlimited"))
            << "moe.capacity_factor must be a positive number or \"none\", got \"unlimited\"";
        QTest::newRow("array for number")
            << "moe.load_balancing.coefficient" << QJsonValue(QJsonArray{1})
            << "moe.load_balancing.coefficient must be a positive number, got an array";
        QTest::newRow("non-finite number")
            << "moe.load_balancing.update_rate" << QJsonValue(std::numeric_limits<double>::infinity())
            << "moe.load_balancing.update_rate must be a positive number, got inf";
        QTest::newRow("null integer") << "parallelism.tp" << QJsonValue(QJsonValue::Null)
                                      << "parallelism.tp must be a positive integer, got null";
        QTest::newRow("section not object")
            << "parallelism" << QJsonValue(QJsonArray{1, 2}) << "parallelism must be an object, got an array";
        QTest::newRow("name not string") << "name" << QJsonValue(7) << "name must be a string, got 7";
        QTest::newRow("format version")
            << "format_version" << QJsonValue(2)
            << "format_version must be 1, got 2: this version of MoE Workbench reads "
               "config records of format 1";
    }
    void wrongTypes() {
        QFETCH(QString, path);
        QFETCH(QJsonValue, value);
        QFETCH(QString, message);
        QList<FieldIssue> issues;
        const ConfigRecord r = ConfigRecord::fromJson(
            withValue(fixtureJson(QStringLiteral("moe-64e-top8.json")), path, value), &issues);
        QCOMPARE(issues.size(), 1);
        QCOMPARE(issues.first().field, path);
        QCOMPARE(issues.first().message, message);
        // The bad value is not kept.
        if (path != QLatin1String("format_version"))
            QVERIFY(!hasPath(r.toJson(), path));
    }

    void badValueIsDropped() {
        QList<FieldIssue> issues;
        const ConfigRecord r =
            ConfigRecord::fromJson(withValue(fixtureJson(QStringLiteral("moe-64e-top8.json")),
                                             QStringLiteral("moe.top_k"), QStringLiteral("two")),
                                   &issues);
        QVERIFY(!r.moe.topK.has_value());
        QCOMPARE(r.moe.experts, std::optional<qint64>(64)); // the rest is still read
    }

    void unknownKeys_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("message");
        QTest::newRow("typo in section")
            << "cluster.nodez"
            << "cluster.nodez is not a known field (did you mean cluster.nodes?)";
        QTest::newRow("typo nested") << "moe.load_balancing.coeficient"
                                     << "moe.load_balancing.coeficient is not a known field (did you mean "
                                        "moe.load_balancing.coefficient?)";
        QTest::newRow("case typo") << "moe.Top_K"
                                   << "moe.Top_K is not a known field (did you mean moe.top_k?)";
        QTest::newRow("top level") << "gpus"
                                   << "gpus is not a known field";
        QTest::newRow("top level typo") << "recpie"
                                        << "recpie is not a known field (did you mean recipe?)";
    }
    void unknownKeys() {
        QFETCH(QString, path);
        QFETCH(QString, message);
        QList<FieldIssue> issues;
        ConfigRecord::fromJson(withValue(fixtureJson(QStringLiteral("moe-64e-top8.json")), path, 1), &issues);
        QCOMPARE(issues.size(), 1);
        QCOMPARE(issues.first().field, path);
        QCOMPARE(issues.first().message, message);
    }

    void collectsEveryStructuralIssue() {
        QJsonObject json = fixtureJson(QStringLiteral("moe-64e-top8.json"));
        json = withValue(json, QStringLiteral("moe.top_k"), QStringLiteral("two"));
        json = withValue(json, QStringLiteral("cluster.nodez"), 4);
        json = withValue(json, QStringLiteral("batch.sequence_length"), 4096.5);
        QList<FieldIssue> issues;
        ConfigRecord::fromJson(json, &issues);
        QCOMPARE(fieldsOf(issues), (QStringList{QStringLiteral("cluster.nodez"), QStringLiteral("moe.top_k"),
                                                QStringLiteral("batch.sequence_length")}));
    }

    void syntaxErrorsAreLocated_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("message");
        // Qt words the reason; the location is ours. Only the prefix is compared where
        // the wording is Qt's.
        QTest::newRow("stray comma") << QByteArray("{\n  \"name\": \"x\",\n  \"moe\": ,\n}\n")
                                     << "line 3, column 10: ";
        QTest::newRow("missing colon") << QByteArray("{\n  \"name\" \"x\"\n}") << "line 2, column 10: ";
        QTest::newRow("unterminated") << QByteArray("{\"name\": \"x\"") << "line 1, column 12: ";
        QTest::newRow("garbage after") << QByteArray("{}\nxyz") << "line 2, column 1: ";
        QTest::newRow("utf-8 columns are characters")
            << QByteArray("{\"notes\": \"\xC3\xA9\xC3\xA9\", x}") << "line 1, column 17: ";
        QTest::newRow("empty") << QByteArray(" \n")
                               << "line 1, column 1: the file is empty; a config record is a JSON object";
        QTest::newRow("array") << QByteArray("[1, 2]")
                               << "a config record must be a JSON object, got an array";
    }
    void syntaxErrorsAreLocated() {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, message);
        const ParsedRecord parsed = parseRecord(bytes);
        QCOMPARE(parsed.issues.size(), 1);
        QCOMPARE(parsed.issues.first().field, QString());
        QVERIFY2(parsed.issues.first().message.startsWith(message),
                 qPrintable(parsed.issues.first().message));
        QVERIFY(parsed.issues.first().message.size() > message.size() ||
                !message.endsWith(QLatin1String(": ")));
    }

    void textPosition() {
        const QByteArray text("ab\ncd\n\xE4\xB8\xAD"
                              "x");
        QCOMPARE(textPositionAt(text, 0).line, 1);
        QCOMPARE(textPositionAt(text, 0).column, 1);
        QCOMPARE(textPositionAt(text, 4).line, 2);
        QCOMPARE(textPositionAt(text, 4).column, 2);
        QCOMPARE(textPositionAt(text, 9).line, 3); // after the 3-byte character
        QCOMPARE(textPositionAt(text, 9).column, 2);
        QCOMPARE(textPositionAt(text, 1000).line, 3);
    }

    void byteOrderMarkIsAccepted() {
        const ParsedRecord parsed =
            parseRecord(QByteArray("\xEF\xBB\xBF") + fixtureBytes(QStringLiteral("dense-1.3b.json")));
        QVERIFY(parsed.issues.isEmpty());
        QCOMPARE(parsed.record.name, QStringLiteral("dense-1.3b"));
    }
};

QTEST_GUILESS_MAIN(TestConfigRecord)
#include "test_config_record.moc"
