// Stage 3 for a Megatron-Core run without tokens-per-expert data, judged on its
// --log-moe-overload-factor figures (stages/OverloadFactorLoad.h): a console log and a
// TensorBoard event file written here as Megatron-LM writes them, imported as ONE run
// into a real project file, then evaluated. Expected figures are computed here by
// brute force from the values written (float32 where TensorBoard stores a float).
#include "StageFixtures.h"
#include "importers/Crc32c.h"
#include "runimport/RunImport.h"
#include "stages/StageEvaluation.h"
#include "stages/StageThreeGate.h"

#include <QTemporaryDir>
#include <QtTest>
#include <cstring>

using namespace moewb;
using namespace moewb::stages;
using namespace moewb::stages::test;

namespace {

constexpr int kEp = 8;         // the record's parallelism.ep
constexpr int kLayers = 4;     // MoE layers logged per layer
constexpr int kWindow = 5;     // stage3.window_steps
constexpr double kLimit = 1.5; // stage3.load_ratio_max
constexpr double kFraction = 0.2;

QByteArray varint(quint64 v) {
    QByteArray out;
    do {
        const quint8 b = v & 0x7F;
        v >>= 7;
        out.append(char(v ? (b | 0x80) : b));
    } while (v);
    return out;
}
QByteArray lengthField(int number, const QByteArray& payload) {
    return varint(quint64(number) << 3 | 2) + varint(quint64(payload.size())) + payload;
}
template <typename T>
QByteArray fixedField(int number, int wire, T value) {
    QByteArray bytes(int(sizeof(T)), Qt::Uninitialized);
    std::memcpy(bytes.data(), &value, sizeof(T)); // little-endian host, as protobuf
    return varint(quint64(number) << 3 | quint64(wire)) + bytes;
}
// TFRecord framing: length, masked CRC-32C of the length, data, masked CRC of the data.
QByteArray tfRecord(const QByteArray& data) {
    QByteArray out;
    const quint64 length = quint64(data.size());
    QByteArray header(8, Qt::Uninitialized);
    std::memcpy(header.data(), &length, 8);
    const quint32 headerCrc = importers::maskedCrc32c(header.constData(), 8);
    const quint32 dataCrc = importers::maskedCrc32c(data.constData(), std::size_t(data.size()));
    out += header;
    out += QByteArray(reinterpret_cast<const char*>(&headerCrc), 4);
    out += data;
    out += QByteArray(reinterpret_cast<const char*>(&dataCrc), 4);
    return out;
}
// tensorboard Event {wall_time = 1, step = 2, file_version = 3, summary = 5 {value = 1 {tag = 1, simple_value = 2}}}
// as torch.utils.tensorboard's SummaryWriter.add_scalar writes it (Megatron-LM's writer).
QByteArray event(qint64 step, const QList<QPair<QString, float>>& scalars, const QByteArray& fileVersion = {}) {
    QByteArray body = fixedField(1, 1, 1700000000.0 + double(step)) + varint(2 << 3) + varint(quint64(step));
    if (!fileVersion.isEmpty())
        body += lengthField(3, fileVersion);
    QByteArray summary;
    for (const auto& [tag, value] : scalars)
        summary += lengthField(1, lengthField(1, tag.toUtf8()) + fixedField(2, 5, value));
    if (!summary.isEmpty())
        body += lengthField(5, summary);
    return tfRecord(body);
}

struct RunValues {
    QList<qint64> steps;
    QList<double> consoleMax;          // max overload factor, as the console prints it (3 decimals)
    QList<QList<float>> layerMax;     // [step][layer], moe/max_overload_factor_layer_<i>
};

// Steps 10..120; layer 2 goes to `hot` from step 90 on, the others vary below 1.3.
RunValues values(float hot) {
    RunValues v;
    for (int i = 0; i < 12; ++i) {
        const qint64 step = 10 * (i + 1);
        v.steps << step;
        QList<float> layers;
        for (int l = 0; l < kLayers; ++l)
            layers << (l == 2 && step >= 90 ? hot : 1.05f + 0.05f * float((i + l) % 5));
        v.layerMax << layers;
        v.consoleMax << std::round(double(*std::max_element(layers.begin(), layers.end())) * 1000.0) / 1000.0;
    }
    return v;
}

void writeFiles(const QString& dir, const RunValues& v, bool perLayer) {
    QFile log(dir + QStringLiteral("/train.log"));
    QVERIFY(log.open(QIODevice::WriteOnly));
    log.write("# Generated: Megatron-LM training_log() iteration lines (megatron/training/training.py) with "
              "MoEOverloadFactorTracker.report()'s entry (megatron/core/transformer/moe/moe_utils.py, Megatron-LM "
              "main, 2026)\n");
    for (int i = 0; i < v.steps.size(); ++i)
        log.write(QStringLiteral(" [2026-11-02 10:00:%1.000000] iteration %2/    1000 | consumed samples: %3 | "
                                 "elapsed time per iteration (ms): 317.4 | learning rate: 3.000000E-04 | global batch "
                                 "size:   256 | lm loss: 3.506108E+00 | loss scale: 1.0 | grad norm: 0.421 | number of "
                                 "skipped iterations:   0 | number of nan iterations:   0 | avg overload factor: 1.100 | "
                                 "max overload factor: %4 |\n")
                      .arg(10 + i)
                      .arg(v.steps[i], 8)
                      .arg(256 * v.steps[i], 12)
                      .arg(v.consoleMax[i], 0, 'f', 3)
                      .toUtf8());
    log.close();
    if (!perLayer)
        return;
    QFile tb(dir + QStringLiteral("/events.out.tfevents.1700000000.node-a"));
    QVERIFY(tb.open(QIODevice::WriteOnly));
    tb.write(event(0, {}, "brain.Event:2"));
    for (int i = 0; i < v.steps.size(); ++i) {
        QList<QPair<QString, float>> scalars;
        for (int l = 0; l < kLayers; ++l)
            scalars.append({QStringLiteral("moe/max_overload_factor_layer_%1").arg(l), v.layerMax[i][l]});
        tb.write(event(v.steps[i], scalars));
    }
}

record::ConfigRecord droplessRecord() {
    record::ConfigRecord r = moeRecord();
    r.moe.overflowPolicy = record::OverflowPolicy::Dropless;
    r.moe.capacityFactor = record::CapacityFactor::none();
    r.moe.dropOrder.reset();
    return r;
}

} // namespace

// A share as the workbench writes it (three significant digits, at most two
// decimals, no trailing zeros: "14.3 %"), from the test's own figure.
static QString sharePercent(double share) {
    const double p = share * 100.0;
    QString s = QString::number(p, 'f', p >= 100 ? 0 : p >= 10 ? 1 : 2);
    while (s.contains(QLatin1Char('.')) && (s.endsWith(QLatin1Char('0')) || s.endsWith(QLatin1Char('.'))))
        s.chop(1);
    return s + QStringLiteral(" %");
}

class TestStageThreeOverload : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    int m_n = 0;

    // Imports the files of `dir` as one run into a fresh project and evaluates stage 3.
    StageEvaluation evaluate(const QString& dir) {
        const QString path = m_dir.filePath(QStringLiteral("p%1.moewb").arg(++m_n));
        auto project = store::ProjectStore::open(path);
        if (!project)
            qFatal("%s", qPrintable(project.error().text()));
        auto& p = *project.value();
        const record::ConfigRecord rec = droplessRecord();
        if (!p.addConfigRecord(QStringLiteral("moe"), rec.toJson(), true))
            qFatal("cannot add the record");
        for (const auto& [key, value] : QList<QPair<QString, double>>{{QStringLiteral("stage3.window_steps"), kWindow},
                                                                      {QStringLiteral("stage3.load_ratio_max"), kLimit},
                                                                      {QStringLiteral("stage3.load_ratio_window_fraction"),
                                                                       kFraction}})
            if (!p.setThreshold({key, value, store::ThresholdSource::Team, {}}))
                qFatal("cannot set a threshold");
        const auto files = runimport::collectImportFiles({dir}, {});
        if (!files)
            qFatal("%s", qPrintable(files.error().text()));
        auto plan = runimport::planImport(*files, rec, {});
        if (!plan)
            qFatal("%s", qPrintable(plan.error().first().text()));
        if (!p.saveRun(runimport::toRunData(std::move(*plan), QStringLiteral("overload"), QStringLiteral("moe"))))
            qFatal("cannot save the run");
        auto e = evaluateStage(p, 3, {}, true);
        if (!e)
            qFatal("%s", qPrintable(e.error().message));
        return *e;
    }

    // What the gate should find, counted here over the last kWindow steps.
    struct Expected {
        int worstLayer = -1;
        double worstFraction = 0.0, windowMax = 0.0, windowMean = 0.0, share = 0.0, consoleMaxMean = 0.0;
    };
    static Expected expected(const RunValues& v) {
        Expected x;
        const int from = int(v.steps.size()) - kWindow;
        double sum = 0.0, consoleSum = 0.0;
        for (int l = 0; l < kLayers; ++l) {
            int above = 0;
            for (int i = from; i < v.steps.size(); ++i) {
                const double r = double(v.layerMax[i][l]);
                above += r > kLimit ? 1 : 0;
                sum += r;
                x.windowMax = std::max(x.windowMax, r);
            }
            const double f = double(above) / kWindow;
            if (x.worstLayer < 0 || f > x.worstFraction) {
                x.worstLayer = l;
                x.worstFraction = f;
            }
        }
        for (int i = from; i < v.steps.size(); ++i)
            consoleSum += v.consoleMax[i];
        x.windowMean = sum / (kWindow * kLayers);
        x.consoleMaxMean = consoleSum / kWindow;
        x.share = x.consoleMaxMean / kEp;
        return x;
    }

    static void checkSummary(const StageThreeRunSummary& s, const Expected& x) {
        QCOMPARE(s.loadRatioSource, LoadRatioSource::EpRankOverload);
        QCOMPARE(s.layers, kLayers);
        QCOMPARE(s.windowSteps, qint64(kWindow));
        QCOMPARE(s.windowFirstStep, qint64(80));
        QCOMPARE(s.windowLastStep, qint64(120));
        QCOMPARE(s.worstLayer, x.worstLayer);
        QCOMPARE(s.worstLayerFractionAbove, x.worstFraction);
        QVERIFY(qAbs(s.windowMaxRatio - x.windowMax) < 1e-9);
        QVERIFY(qAbs(s.windowMeanRatio - x.windowMean) < 1e-9);
        QCOMPARE(s.busiestDeviceSource, BusiestShareSource::OverloadFactor);
        QVERIFY(!s.busiestDeviceEstimated);
        QVERIFY(s.busiestDeviceShare && qAbs(*s.busiestDeviceShare - x.share) < 1e-12);
        QVERIFY(s.maxOverloadFactor && qAbs(*s.maxOverloadFactor - x.consoleMaxMean) < 1e-12);
        QCOMPARE(s.ratioOverSteps.size(), 12);
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void aHotLayerStopsOnTheEpRankRatio() {
        QTemporaryDir files;
        const RunValues v = values(1.9f);
        writeFiles(files.path(), v, true);
        const StageEvaluation e = evaluate(files.path());
        const Expected x = expected(v);
        QCOMPARE(x.worstLayer, 2);    // the fixture's intent, checked
        QVERIFY(x.worstFraction > kFraction);
        const StageThreeResult* r = e.stageThree();
        QVERIFY(r);
        QVERIFY2(r->runs.size() == 1, qPrintable(e.verdict.reasons.join(QLatin1Char('\n'))));
        checkSummary(r->runs.first(), x);
        QCOMPARE(e.verdict.status, Verdict::Status::Stop);
        QVERIFY2(e.verdict.reasons.first().contains(QStringLiteral("EP-rank load ratio")) &&
                     e.verdict.reasons.first().contains(QStringLiteral("lower bound of the per-expert max/mean")) &&
                     e.verdict.reasons.first().contains(QStringLiteral("layer 2")),
                 qPrintable(e.verdict.reasons.join(QLatin1Char('\n'))));
        const QString note = e.verdict.notes.join(QLatin1Char('\n'));
        QVERIFY2(note.contains(QStringLiteral("measured (overload factor)")) &&
                     note.contains(sharePercent(x.share)) &&
                     note.contains(QStringLiteral("÷ EP %1").arg(kEp)),
                 qPrintable(note));
    }

    void anEvenRunPassesAndSaysItIsALowerBound() {
        QTemporaryDir files;
        const RunValues v = values(1.25f);
        writeFiles(files.path(), v, true);
        const StageEvaluation e = evaluate(files.path());
        const Expected x = expected(v);
        QCOMPARE(x.worstFraction, 0.0);
        QVERIFY2(e.stageThree() && e.stageThree()->runs.size() == 1, qPrintable(e.verdict.reasons.join(QLatin1Char('\n'))));
        checkSummary(e.stageThree()->runs.first(), x);
        QCOMPARE(e.verdict.status, Verdict::Status::Pass);
        QVERIFY2(e.verdict.reasons.join(QLatin1Char('\n')).contains(QStringLiteral("lower bound of the per-expert max/mean")),
                 qPrintable(e.verdict.reasons.join(QLatin1Char('\n'))));
    }

    // The console alone has the overload factor over all layers: the share is measured,
    // the load is not judged, and the reason says how to log it per layer.
    void theConsoleAloneGivesTheShareButNoJudgement() {
        QTemporaryDir files;
        const RunValues v = values(1.9f);
        writeFiles(files.path(), v, false);
        const StageEvaluation e = evaluate(files.path());
        const Expected x = expected(v);
        QVERIFY2(e.stageThree() && e.stageThree()->runs.size() == 1, qPrintable(e.verdict.reasons.join(QLatin1Char('\n'))));
        const StageThreeRunSummary& s = e.stageThree()->runs.first();
        QCOMPARE(s.windowSteps, qint64(0));
        QCOMPARE(s.busiestDeviceSource, BusiestShareSource::OverloadFactor);
        QVERIFY(s.busiestDeviceShare && qAbs(*s.busiestDeviceShare - x.share) < 1e-12);
        QCOMPARE(e.verdict.status, Verdict::Status::NotReady);
        QVERIFY2(e.verdict.reasons.join(QLatin1Char('\n')).contains(QStringLiteral("--moe-per-layer-logging")),
                 qPrintable(e.verdict.reasons.join(QLatin1Char('\n'))));
    }
};

QTEST_GUILESS_MAIN(TestStageThreeOverload)
#include "test_stage_three_overload.moc"
