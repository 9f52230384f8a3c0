// Parameters, memory, all-to-all volume and the step-time estimate, checked against
// numbers worked out by hand (docs/costs.md has the formulas).
#include "costs/CostModel.h"
#include "costs/StepTimeEstimate.h"

#include <QFile>
#include <QJsonDocument>
#include <QtTest>

using namespace moewb::costs;

namespace {
// L = 2 MoE layers, h = 4, f = 8, E = 4 routed + 1 shared, K = 2; DP 4, TP 2, PP 1, EP 2.
CostInputs tinyModel() {
    CostInputs in;
    in.layers = 2;
    in.moeLayers = 2;
    in.hidden = 4;
    in.ffn = 8;
    in.experts = 4;
    in.sharedExperts = 1;
    in.topK = 2;
    in.dp = 4;
    in.tp = 2;
    in.pp = 1;
    in.ep = 2;
    in.cp = 1;
    in.globalBatchTokens = 64;
    in.sequenceLength = 8;
    return in;
}
} // namespace

class TestCostModel : public QObject {
    Q_OBJECT
private slots:
    void tinyParameters() {
        const ParameterCounts p = countParameters(tinyModel(), {});
        QCOMPARE(p.attentionPerLayer, 64.0);  // 4·4²
        QCOMPARE(p.oneExpert, 96.0);          // 3·4·8
        QCOMPARE(p.routerPerMoeLayer, 16.0);  // 4·4
        QCOMPARE(p.routedExperts, 768.0);     // 2·4·96
        QCOMPARE(p.total, 1120.0);            // 2·64 + 2·(16 + 96) + 768
        QCOMPARE(p.activated, 736.0);         // 2·64 + 2·(16 + 96) + 2·2·96
        QVERIFY(!p.otherFromRecord);
        CostOptions plain;
        plain.ffnMatrices = 2;
        QCOMPARE(countParameters(tinyModel(), plain).oneExpert, 64.0);
    }

    void tinyMemory() {
        const CostInputs in = tinyModel();
        const ParameterCounts p = countParameters(in, {});
        MemoryPerDevice m = memoryPerDevice(in, p, {});
        QCOMPARE(m.denseParams, 176.0);  // (1120 − 768) / TP 2
        QCOMPARE(m.expertParams, 192.0); // 768 / (EP 2 · TP 2)
        QCOMPARE(m.parameterBytes, 736.0);
        QCOMPARE(m.gradientBytes, 736.0);
        QCOMPARE(m.masterWeightBytes, 1472.0);
        QCOMPARE(m.optimizerStateBytes, 2944.0);
        QCOMPARE(m.totalBytes, 5888.0); // 368 parameters × 16 bytes
        QCOMPARE(m.expertDataParallel, 2.0);
        CostOptions o;
        o.distributedOptimizer = true;
        m = memoryPerDevice(in, p, o);
        // Sharded: 176 / 4 + 192 / 2 = 140 parameters' master weights and state.
        QCOMPARE(m.masterWeightBytes, 560.0);
        QCOMPARE(m.optimizerStateBytes, 1120.0);
        QCOMPARE(m.totalBytes, 3152.0);
        o = {};
        o.bytes.optimizerState = 4; // the byte sizes are options
        QCOMPARE(memoryPerDevice(in, p, o).optimizerStateBytes, 1472.0);
    }

    void tinyAllToAll() {
        const AllToAllVolume v = allToAllVolume(tinyModel(), {});
        QCOMPARE(v.remoteFraction, 0.5);
        QCOMPARE(v.bytesPerTokenPerLayerOneWay, 8.0); // K 2 · h 4 · 2 B · 1/2
        QCOMPARE(v.bytesPerTokenPerLayer, 32.0);
        QCOMPARE(*v.tokensPerDevicePerStep, 8.0); // 64 / (DP 4 · TP 2)
        QCOMPARE(*v.bytesPerDevicePerStep, 512.0);
        QCOMPARE(*v.bytesPerRankPerCall, 64.0); // 8 / TP 2 tokens · 2 · 4 · 2 B
        QCOMPARE(*v.callsPerStep, 16.0);        // 2 micro-batches · 2 layers · 4
        CostInputs single = tinyModel();
        single.ep = 1;
        QCOMPARE(allToAllVolume(single, {}).bytesPerTokenPerLayer, 0.0);
    }

    void curveAndStepTime() {
        CommCurve c;
        c.runName = QStringLiteral("probe");
        c.points = {{32, 10}, {128, 40}};
        QCOMPARE(timeAt(c, 64)->timeUs, 20.0);
        QVERIFY(!timeAt(c, 64)->extrapolated);
        QCOMPARE(timeAt(c, 8)->timeUs, 10.0);
        QVERIFY(timeAt(c, 8)->extrapolated);
        QCOMPARE(timeAt(c, 256)->timeUs, 80.0);
        QVERIFY(!timeAt(CommCurve{}, 64));

        const CostInputs in = tinyModel();
        const ParameterCounts p = countParameters(in, {});
        const AllToAllVolume v = allToAllVolume(in, {});
        StepTimeEstimate e = estimateStepTime(in, p, v, c, 1e-6); // 10^6 FLOP/s
        QCOMPARE(*e.callTimeUs, 20.0);
        QCOMPARE(*e.allToAllUs, 320.0);
        QCOMPARE(*e.flopsPerDevice, 35328.0); // 6 · 736 · 64 / 8 devices
        QCOMPARE(*e.computeUs, 35328.0);
        QCOMPARE(*e.totalUs, 35648.0);
        e = estimateStepTime(in, p, v, std::nullopt, std::nullopt);
        QVERIFY(!e.allToAllUs);
        QVERIFY(!e.totalUs);
    }

    void fixtureRecord() {
        QFile f(QStringLiteral(MOEWB_SOURCE_DIR "/tests/fixtures/records/moe-64e-top8.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const auto record = moewb::record::ConfigRecord::fromJson(QJsonDocument::fromJson(f.readAll()).object(), nullptr);
        QStringList missing;
        const auto in = costInputsFromRecord(record, &missing);
        QVERIFY2(in, qPrintable(missing.join(QLatin1Char(';'))));
        const ParameterCounts p = countParameters(*in, {});
        QCOMPARE(p.total, 6712983552.0);     // 16·4·2048² + 16·64·3·2048·1024 + 16·2048·64
        QCOMPARE(p.activated, 1075838976.0); // 16·4·2048² + 16·2048·64 + 16·8·3·2048·1024
        QCOMPARE(*p.otherFromRecord, 187016448.0);
        const MemoryPerDevice m = memoryPerDevice(*in, p, {});
        QCOMPARE(m.denseParams, 228774528.0);  // (6.9e9 − 6 442 450 944) / TP 2
        QCOMPARE(m.expertParams, 402653184.0); // 6 442 450 944 / (EP 8 · TP 2)
        QCOMPARE(m.totalBytes, 10102843392.0); // × 16 bytes
        const AllToAllVolume v = allToAllVolume(*in, {});
        QCOMPARE(v.bytesPerTokenPerLayerOneWay, 28672.0); // 8 · 2048 · 2 · 7/8
        QCOMPARE(*v.tokensPerDevicePerStep, 131072.0);
        QCOMPARE(*v.bytesPerDevicePerStep, 240518168576.0);
        QCOMPARE(*v.bytesPerRankPerCall, 67108864.0); // 2048 tokens · 8 · 2048 · 2 B
        QCOMPARE(*v.callsPerStep, 4096.0);
    }

    void missingFields() {
        moewb::record::ConfigRecord r;
        QStringList missing;
        QVERIFY(!costInputsFromRecord(r, &missing));
        QVERIFY(missing.join(QLatin1Char(' ')).contains(QStringLiteral("model.layers")));
        QVERIFY(missing.join(QLatin1Char(' ')).contains(QStringLiteral("moe.top_k")));
    }
};

QTEST_GUILESS_MAIN(TestCostModel)
#include "test_cost_model.moc"
