// moe-probe -J -> importers -> store -> stage 1 inputs: the probe's JSON contract,
// end to end, with a real 3-rank tcp run on loopback.
#include "importers/Importer.h"
#include "probe_launcher.h"
#include "stages/StageInputs.h"
#include "store/ProjectStore.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <map>

using namespace moewb;

class TestProbeJsonRoundtrip : public QObject {
    Q_OBJECT
private slots:
    void probeRunSurvivesImportAndStore() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString json = dir.filePath(QStringLiteral("probe.json"));
        constexpr int kWorld = 3, kIters = 6, kRepeats = 3;
        probetest::ProbeRanks ranks(kWorld, {QStringLiteral("--backend"), QStringLiteral("tcp"), QStringLiteral("-b"),
                                             QStringLiteral("96K"), QStringLiteral("-e"), QStringLiteral("384K"),
                                             QStringLiteral("-f"), QStringLiteral("2"), QStringLiteral("-w"),
                                             QStringLiteral("1"), QStringLiteral("-n"), QString::number(kIters),
                                             QStringLiteral("-R"), QString::number(kRepeats), QStringLiteral("-c"),
                                             QStringLiteral("1"), QStringLiteral("--timeout"), QStringLiteral("20"),
                                             QStringLiteral("-J"), json});
        QVERIFY2(ranks.waitAll(60000), qPrintable(ranks.describe()));
        for (int r = 0; r < kWorld; ++r)
            QVERIFY2(ranks.run(r).exitCode == 0 && !ranks.run(r).crashed, qPrintable(ranks.describe()));
        const QJsonObject report = probetest::readJsonObject(json);
        const QJsonArray results = report.value(QStringLiteral("results")).toArray();
        QCOMPARE(results.size(), 3); // 96K, 192K, 384K

        // Import: every per-iteration sample of every repeat, keyed by bytes per rank.
        const auto imported = importers::importFile(json);
        QVERIFY2(imported, qPrintable(imported ? QString() : imported.error().text()));
        QCOMPARE(imported->format, QStringLiteral("probe-json"));
        QCOMPARE(imported->kind, store::RunKind::Probe);
        QCOMPARE(imported->commSamples.size(), qsizetype(results.size() * kRepeats * kIters));
        QCOMPARE(imported->environment.value(QStringLiteral("world")).toInt(), kWorld);

        std::map<quint64, std::vector<double>> byRepeatZero;
        for (const auto& s : imported->commSamples)
            if (s.repeat == 0)
                byRepeatZero[s.bytesPerRank].push_back(s.timeUs);
        for (const QJsonValue& rv : results) {
            const QJsonObject r = rv.toObject();
            const quint64 bytes = quint64(r.value(QStringLiteral("bytes_per_rank")).toDouble());
            const QJsonObject rep0 = r.value(QStringLiteral("repeats")).toArray().at(0).toObject();
            const QJsonArray samples = rep0.value(QStringLiteral("samples_us")).toArray();
            QVERIFY2(byRepeatZero.count(bytes), qPrintable(QStringLiteral("size %1 missing").arg(bytes)));
            const auto& got = byRepeatZero[bytes];
            QCOMPARE(got.size(), std::size_t(samples.size()));
            for (qsizetype i = 0; i < samples.size(); ++i)
                QCOMPARE(got[std::size_t(i)], samples.at(i).toDouble());
        }

        // Save and read back through the store, then build stage 1's inputs from it.
        auto project = store::ProjectStore::open(dir.filePath(QStringLiteral("p.moewb")));
        QVERIFY(project);
        QFile record(QStringLiteral(MOEWB_SOURCE_DIR "/tests/fixtures/records/moe-64e-top8.json"));
        QVERIFY(record.open(QIODevice::ReadOnly));
        QVERIFY((*project)->addConfigRecord(QStringLiteral("moe"), QJsonDocument::fromJson(record.readAll()).object(),
                                            true));
        store::RunData run;
        run.name = QStringLiteral("probe-3r");
        run.kind = imported->kind;
        run.recordName = QStringLiteral("moe");
        run.sourceFile = json;
        run.environment = imported->environment;
        run.commSamples = imported->commSamples;
        QVERIFY((*project)->saveRun(run));
        const auto row = (*project)->run(QStringLiteral("probe-3r"));
        QVERIFY(row);
        const auto stored = (*project)->commSamples(row->id);
        QCOMPARE(stored.size(), imported->commSamples.size());

        // The stage 1 table computed from the stored samples agrees with the probe's own
        // median per size (same percentile method on both sides).
        const auto inputs = stages::loadStageOneInputs(**project, {QStringLiteral("probe-3r")});
        QVERIFY2(inputs, qPrintable(inputs ? QString() : inputs.error().message));
        QCOMPARE(inputs->size(), 1);
        const stages::StageOneTable table = stages::stageOneTable(inputs->first());
        QCOMPARE(table.rows.size(), results.size());
        for (qsizetype i = 0; i < results.size(); ++i) {
            const QJsonObject r = results.at(i).toObject();
            const double probeMedian = r.value(QStringLiteral("time_us")).toObject().value(QStringLiteral("median")).toDouble();
            QVERIFY2(std::abs(table.rows[i].medianUs - probeMedian) <= 1e-6 * probeMedian,
                     qPrintable(QStringLiteral("size %1: %2 vs %3").arg(i).arg(table.rows[i].medianUs).arg(probeMedian)));
        }
    }
};

QTEST_GUILESS_MAIN(TestProbeJsonRoundtrip)
#include "test_probe_json_roundtrip.moc"
