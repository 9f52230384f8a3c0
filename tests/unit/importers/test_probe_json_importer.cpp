// ProbeJsonImporter: moe-probe/1 reports, with and without per-iteration samples_us, and
// moe-probe/2 reports (EP groups measured at once; the max over groups is stored).
#include "ImporterTestSupport.h"
#include "importers/ProbeJsonImporter.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

using namespace moewb::importers;
using importer_test::fixture;

class TestProbeJsonImporter : public QObject {
    Q_OBJECT
private slots:
    void perRepeatMediansFromARealProbeRun() {
        const QString path = fixture(QStringLiteral("probe/probe-tcp-2ranks-medians.json"));
        auto r = ProbeJsonImporter::importFile(path);
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : qPrintable(r.error().text()));
        const ImportedData& d = r.value();
        QCOMPARE(d.format, QStringLiteral("probe-json"));
        QCOMPARE(d.kind, moewb::store::RunKind::Probe);
        QCOMPARE(d.rows, 6);
        QCOMPARE(d.commSamples.size(), 6);
        // 3 sizes x 2 repeats, one sample per repeat from its median, iteration 0.
        const QList<std::tuple<quint64, int, double>> expected{{1024, 0, 93.8535},  {1024, 1, 139.6955},
                                                               {4096, 0, 86.9395},  {4096, 1, 109.8185},
                                                               {16384, 0, 113.826}, {16384, 1, 117.9285}};
        for (int i = 0; i < expected.size(); ++i) {
            QCOMPARE(d.commSamples[i].bytesPerRank, std::get<0>(expected[i]));
            QCOMPARE(d.commSamples[i].repeat, std::get<1>(expected[i]));
            QCOMPARE(d.commSamples[i].iteration, 0);
            QCOMPARE(d.commSamples[i].timeUs, std::get<2>(expected[i]));
        }
        QCOMPARE(d.environment.value(QStringLiteral("samples")).toString(), QStringLiteral("per-repeat medians"));
        QCOMPARE(d.environment.value(QStringLiteral("world")).toInt(), 2);
        QCOMPARE(d.environment.value(QStringLiteral("nodes")).toInt(), 1);
        QCOMPARE(d.environment.value(QStringLiteral("backend")).toString(), QStringLiteral("tcp"));
        QCOMPARE(d.environment.value(QStringLiteral("collective")).toString(), QStringLiteral("alltoall"));
        QCOMPARE(d.environment.value(QStringLiteral("probe_version")).toString(), QStringLiteral("0.1.0"));
        QCOMPARE(d.environment.value(QStringLiteral("options")).toObject().value(QStringLiteral("repeats")).toInt(), 2);
        QVERIFY(d.stepMetrics.isEmpty());
        QVERIFY(d.expertLoad.isEmpty());
    }

    void perIterationSamples() {
        auto r = ProbeJsonImporter::importFile(fixture(QStringLiteral("probe/probe-tcp-2ranks-samples.json")));
        QVERIFY(r.hasValue());
        const ImportedData& d = r.value();
        QCOMPARE(d.rows, 24); // 3 sizes x 2 repeats x 4 iterations
        QCOMPARE(d.commSamples.size(), 24);
        QCOMPARE(d.environment.value(QStringLiteral("samples")).toString(), QStringLiteral("per-iteration"));
        const double first[] = {84.468, 91.976, 95.731, 122.01};
        for (int i = 0; i < 4; ++i) {
            QCOMPARE(d.commSamples[i].bytesPerRank, quint64(1024));
            QCOMPARE(d.commSamples[i].repeat, 0);
            QCOMPARE(d.commSamples[i].iteration, i);
            QCOMPARE(d.commSamples[i].timeUs, first[i]);
        }
        QCOMPARE(d.commSamples[4].repeat, 1);
        QCOMPARE(d.commSamples[4].timeUs, 125.726);
        QCOMPARE(d.commSamples[23].bytesPerRank, quint64(16384));
        QCOMPARE(d.commSamples[23].iteration, 3);
    }

    // A real 4-rank run as 2 EP groups of 2 (--ep-size 2 --tp 2: groups {0,2} {1,3}).
    // The samples stored are the top-level ones: per iteration the max over the groups,
    // which the test recomputes from the per-group samples in the file.
    void epGroupsReportStoresTheMaxOverGroups() {
        const QString path = fixture(QStringLiteral("probe/probe-tcp-4ranks-ep2-tp2.json"));
        auto r = ProbeJsonImporter::importFile(path);
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : qPrintable(r.error().text()));
        const ImportedData& d = r.value();
        QCOMPARE(d.format, QStringLiteral("probe-json"));
        QCOMPARE(d.rows, 24); // 3 sizes x 2 repeats x 4 iterations
        QCOMPARE(d.environment.value(QStringLiteral("schema")).toString(), QStringLiteral("moe-probe/2"));
        QCOMPARE(d.environment.value(QStringLiteral("world")).toInt(), 4);
        QCOMPARE(d.environment.value(QStringLiteral("ep_size")).toInt(), 2);
        QCOMPARE(d.environment.value(QStringLiteral("ep_order")).toString(), QStringLiteral("tp-cp-ep-dp-pp"));
        QCOMPARE(d.environment.value(QStringLiteral("ep_groups")).toArray(),
                 QJsonArray({QJsonArray{0, 2}, QJsonArray{1, 3}}));
        QCOMPARE(d.environment.value(QStringLiteral("samples")).toString(), QStringLiteral("per-iteration"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonArray results = QJsonDocument::fromJson(f.readAll()).object().value(QStringLiteral("results")).toArray();
        int n = 0;
        for (const QJsonValue& rv : results) {
            const QJsonObject res = rv.toObject();
            const QJsonArray groups = res.value(QStringLiteral("groups")).toArray();
            QCOMPARE(groups.size(), 2);
            for (int k = 0; k < 2; ++k)
                for (int i = 0; i < 4; ++i, ++n) {
                    double slowest = 0;
                    for (const QJsonValue& g : groups)
                        slowest = std::max(slowest, g.toObject()
                                                        .value(QStringLiteral("repeats"))
                                                        .toArray()[k]
                                                        .toObject()
                                                        .value(QStringLiteral("samples_us"))
                                                        .toArray()[i]
                                                        .toDouble());
                    QCOMPARE(d.commSamples[n].bytesPerRank, quint64(res.value(QStringLiteral("bytes_per_rank")).toDouble()));
                    QCOMPARE(d.commSamples[n].repeat, k);
                    QCOMPARE(d.commSamples[n].iteration, i);
                    QCOMPARE(d.commSamples[n].timeUs, slowest);
                }
        }
        QCOMPARE(n, 24);
        QCOMPARE(d.commSamples[0].timeUs, 226.675);
        QCOMPARE(d.commSamples[23].timeUs, 124.423);
    }

    // moe-probe/2 without --ep-size: one group, the world; no ep_order.
    void wholeWorldVersion2Report() {
        auto r = ProbeJsonImporter::importFile(fixture(QStringLiteral("probe/probe-tcp-2ranks-world-v2.json")));
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : qPrintable(r.error().text()));
        const ImportedData& d = r.value();
        QCOMPARE(d.rows, 3);
        QCOMPARE(d.environment.value(QStringLiteral("ep_size")).toInt(), 2);
        QCOMPARE(d.environment.value(QStringLiteral("ep_groups")).toArray(), QJsonArray({QJsonArray{0, 1}}));
        QVERIFY(!d.environment.contains(QStringLiteral("ep_order")));
        QCOMPARE(d.commSamples[0].timeUs, 164.208);
    }

    // moe-probe/1 files carry no layout: nothing is invented.
    void version1HasNoEpLayout() {
        auto r = ProbeJsonImporter::importFile(fixture(QStringLiteral("probe/probe-tcp-2ranks-samples.json")));
        QVERIFY(r.hasValue());
        QVERIFY(!r->environment.contains(QStringLiteral("ep_size")));
        QVERIFY(!r->environment.contains(QStringLiteral("ep_groups")));
    }

    void badEpLayoutIsRefused() {
        QFile f(fixture(QStringLiteral("probe/probe-tcp-4ranks-ep2-tp2.json")));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray good = f.readAll();
        QByteArray bad = good;
        bad.replace("\"ep_size\": 2,\n    \"tp\"", "\"ep_size\": 3,\n    \"tp\"");
        QVERIFY(bad != good);
        auto r = ProbeJsonImporter::parse(bad, QStringLiteral("p.json"));
        QVERIFY(!r.hasValue());
        QVERIFY2(r.error().text().contains(QStringLiteral("ep_layout.groups[0]: has 2 ranks but ep_size is 3")),
                 qPrintable(r.error().text()));
        bad = good;
        bad.replace("\"schema\": \"moe-probe/2\"", "\"schema\": \"moe-probe/3\"");
        r = ProbeJsonImporter::parse(bad, QStringLiteral("p.json"));
        QVERIFY(!r.hasValue());
        QVERIFY(r.error().text().contains(QStringLiteral("this build reads moe-probe/1 and moe-probe/2")));
    }

    void detectedAsProbeJson() {
        auto r = importFile(fixture(QStringLiteral("probe/probe-tcp-2ranks-samples.json")));
        QVERIFY(r.hasValue());
        QCOMPARE(r->format, QStringLiteral("probe-json"));
    }

    void syntaxErrorsNameLineAndPath() {
        auto r = ProbeJsonImporter::parse("{\n  \"schema\": \"moe-probe/1\",\n  \"results\": [1, }\n}", QStringLiteral("p.json"));
        QVERIFY(!r.hasValue());
        QCOMPARE(r.error().line, 3);
        QCOMPARE(r.error().field, QStringLiteral("results[1]"));
        QVERIFY(r.error().text().startsWith(QStringLiteral("p.json:3: results[1]: not valid JSON: column")));
        r = ProbeJsonImporter::parse("", QStringLiteral("empty.json"));
        QVERIFY(!r.hasValue());
        QVERIFY(r.error().message.contains(QStringLiteral("empty")));
        r = ProbeJsonImporter::parse("[1, 2]", QStringLiteral("array.json"));
        QVERIFY(!r.hasValue());
        QCOMPARE(r.error().text(), QStringLiteral("array.json:1: must be an object, got an array"));
    }

    void unreadableFileIsAnIoError() {
        auto r = ProbeJsonImporter::importFile(QStringLiteral("/nonexistent/probe.json"));
        QVERIFY(!r.hasValue());
        QVERIFY(r.error().unreadable);
        QCOMPARE(r.error().line, 0);
    }

    MOEWB_IMPORTER_CORPUS_TESTS("probe-json", ProbeJsonImporter)
};

QTEST_GUILESS_MAIN(TestProbeJsonImporter)
#include "test_probe_json_importer.moc"
