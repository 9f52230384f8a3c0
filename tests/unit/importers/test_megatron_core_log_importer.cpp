// MegatronLogImporter on recent Megatron-Core and Megatron-Bridge console logs: the
// microsecond timestamp (core_v0.16+), MoEMetricsTracker's losses (moe_logging.py:
// load_balancing_loss, seq_load_balancing_loss, global_load_balancing_loss, z_loss),
// energy/power fields, and Megatron-Bridge's timestamp in seconds and its framework tell.
// Every expected figure is the one the fixture prints (make_fixtures.py,
// megatron_core_recent_fixtures). The malformed corpus runs in test_megatron_log_importer.
#include "ImporterTestSupport.h"
#include "importers/MegatronLogImporter.h"
#include "importers/MetricNames.h"

#include <QFile>
#include <QMap>
#include <QTemporaryDir>

using namespace moewb::importers;
using importer_test::fixture;

namespace {

ImportedData load(const QString& relative) {
    auto r = importFile(fixture(relative)); // detected
    if (!r.hasValue())
        qFatal("%s", qPrintable(r.error().text()));
    if (r->format != QLatin1String("megatron-log"))
        qFatal("detected as %s", qPrintable(r->format));
    return r.value();
}

QMap<QString, QMap<qint64, double>> byName(const ImportedData& d) {
    QMap<QString, QMap<qint64, double>> m;
    for (const auto& s : d.stepMetrics)
        m[s.name][s.step] = s.value;
    return m;
}

} // namespace

class TestMegatronCoreLogImporter : public QObject {
    Q_OBJECT
private slots:
    void coreMicrosecondTimestampsAndMoeLosses() {
        const ImportedData d = load(QStringLiteral("megatron/megatron-core-0.18-moe-losses.log"));
        QCOMPARE(d.rows, 2);
        QCOMPARE(d.stepMetrics.size(), 2 * 16);
        // The values as the log prints them ("{:.6E}": 1.0078125 -> 1.007812E+00).
        const auto m = byName(d);
        QCOMPARE(m[QStringLiteral("lm_loss")], (QMap<qint64, double>{{10, 10.75}, {20, 9.5}}));
        QCOMPARE(m[QStringLiteral("load_balancing_loss")], (QMap<qint64, double>{{10, 1.015625}, {20, 1.007812}}));
        QCOMPARE(m[QStringLiteral("seq_load_balancing_loss")], (QMap<qint64, double>{{10, 0.5078125}, {20, 0.5039062}}));
        QCOMPARE(m[QStringLiteral("global_load_balancing_loss")], (QMap<qint64, double>{{10, 1.03125}, {20, 1.015625}}));
        QCOMPARE(m[QStringLiteral("z_loss")], (QMap<qint64, double>{{10, 0.0125}, {20, 0.00625}}));
        QCOMPARE(m[QStringLiteral("learning_rate")], (QMap<qint64, double>{{10, 3e-4}, {20, 6e-4}}));
        QCOMPARE(m[QStringLiteral("consumed_samples")], (QMap<qint64, double>{{10, 2560}, {20, 5120}}));
        QCOMPARE(m[QStringLiteral("elapsed_ms_per_iter")][20], 850.5);
        QCOMPARE(m[QStringLiteral("tflops_per_gpu")][10], 412.3);
        QCOMPARE(m[QStringLiteral("energy_per_gpu_j_iter_gpu")][10], 601.2);
        QCOMPARE(m[QStringLiteral("power_per_gpu_w_gpu")][20], 706.9);
        QCOMPARE(m[QStringLiteral("global_batch_size")][20], 256.0);
        QCOMPARE(d.environment.value(QStringLiteral("framework")).toString(), QStringLiteral("Megatron-LM"));
        QCOMPARE(d.environment.value(QStringLiteral("train_iters")).toInt(), 1000);
        QCOMPARE(d.environment.value(QStringLiteral("other_lines_skipped")).toInt(), 1);
    }

    // --log-moe-overload-factor: MoEOverloadFactorTracker.report() (Megatron-LM,
    // megatron/core/transformer/moe/moe_utils.py) appends
    // " avg overload factor: {:.3f} | max overload factor: {:.3f} |" and, with the
    // forward/backward timeline, " max cum overload factor: {:.3f} |" to the iteration
    // line; its TensorBoard tags are moe/avg_overload_factor, moe/max_overload_factor,
    // moe/max_cum_overload_factor and, per layer, moe/{avg,max}_overload_factor_layer_{i}.
    // All land under the same metric names.
    void overloadFactorFromTheConsoleAndTheTags() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("overload.log"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("# Generated: Megatron-LM training_log() iteration lines with MoEOverloadFactorTracker.report()'s "
                "entry (megatron/core/transformer/moe/moe_utils.py, 2026)\n");
        const double avg[] = {1.25, 1.112, 1.088};
        const double max[] = {1.75, 1.157, 1.119};
        for (int i = 0; i < 3; ++i)
            f.write(QStringLiteral(" [2026-11-02 10:00:%1.000000] iteration %2/    1000 | consumed samples: %3 | "
                                   "elapsed time per iteration (ms): 317.4 | learning rate: 3.000000E-04 | global batch "
                                   "size:   256 | lm loss: 3.506108E-02 | loss scale: 1.0 | grad norm: 0.421 | number of "
                                   "skipped iterations:   0 | number of nan iterations:   0 | avg overload factor: %4 | "
                                   "max overload factor: %5 |%6\n")
                        .arg(10 + i)
                        .arg(10 * (i + 1), 8)
                        .arg(2560 * (i + 1), 12)
                        .arg(avg[i], 0, 'f', 3)
                        .arg(max[i], 0, 'f', 3)
                        .arg(i == 2 ? QStringLiteral(" max cum overload factor: 1.080 |") : QString())
                        .toUtf8());
        f.close();
        auto r = importFile(path);
        QVERIFY2(r.hasValue(), qPrintable(r.hasValue() ? QString() : r.error().text()));
        QCOMPARE(r->format, QStringLiteral("megatron-log"));
        const auto m = byName(r.value());
        QCOMPARE(m[QStringLiteral("avg_overload_factor")], (QMap<qint64, double>{{10, 1.25}, {20, 1.112}, {30, 1.088}}));
        QCOMPARE(m[QStringLiteral("max_overload_factor")], (QMap<qint64, double>{{10, 1.75}, {20, 1.157}, {30, 1.119}}));
        QCOMPARE(m[QStringLiteral("max_cum_overload_factor")], (QMap<qint64, double>{{30, 1.08}}));
        double scale = 0;
        for (const char* tag : {"moe/avg_overload_factor", "moe/max_overload_factor", "moe/max_cum_overload_factor"})
            QCOMPARE(loggedMetricName(QString::fromLatin1(tag), scale), QString::fromLatin1(tag + 4));
        QCOMPARE(loggedMetricName(QStringLiteral("moe/max_overload_factor_layer_3"), scale),
                 QStringLiteral("max_overload_factor_layer_3"));
        QVERIFY(canonicalMetricNames().contains(QStringLiteral("max_cum_overload_factor")));
        QCOMPARE(metricRange(QStringLiteral("max_overload_factor_layer_3")).min, 0.0);
        QCOMPARE(metricRange(QStringLiteral("max_overload_factor")).max, 1048576.0);
    }

    void megatronBridge() {
        const ImportedData d = load(QStringLiteral("megatron/megatron-bridge.log"));
        QCOMPARE(d.rows, 1);
        const auto m = byName(d);
        QCOMPARE(m[QStringLiteral("lm_loss")][5], 10.5);
        QCOMPARE(m[QStringLiteral("load_balancing_loss")][5], 1.25);
        QCOMPARE(m[QStringLiteral("consumed_samples")][5], 40.0);
        QCOMPARE(m[QStringLiteral("elapsed_ms_per_iter")][5], 1203.7);
        QCOMPARE(m[QStringLiteral("learning_rate")][5], 1.5e-5);
        QCOMPARE(d.environment.value(QStringLiteral("framework")).toString(), QStringLiteral("Megatron-Bridge"));
        QCOMPARE(d.environment.value(QStringLiteral("train_iters")).toInt(), 100);
    }

    // Megatron-Bridge's "Step Time : 5.88s GPU utilization: 378.4MODEL_TFLOP/s/GPU" line
    // (train_utils.py) comes before the iteration line it belongs to: its model TFLOP/s/GPU
    // lands at that iteration unless the iteration line gives its own throughput; a Step
    // Time line with no iteration after it is counted, not kept.
    void megatronBridgeStepTimeLines() {
        const ImportedData d = load(QStringLiteral("megatron/megatron-bridge-step-time.log"));
        QCOMPARE(d.rows, 3);
        const auto m = byName(d);
        QCOMPARE(m[QStringLiteral("tflops_per_gpu")], (QMap<qint64, double>{{10, 363.5}, {20, 378.4}, {30, 377.2}}));
        QCOMPARE(m[QStringLiteral("elapsed_ms_per_iter")],
                 (QMap<qint64, double>{{10, 6118.4}, {20, 5881.2}, {30, 5897.0}}));
        QCOMPARE(d.environment.value(QStringLiteral("framework")).toString(), QStringLiteral("Megatron-Bridge"));
        QCOMPARE(d.environment.value(QStringLiteral("step_time_lines")).toInt(), 3);
        QCOMPARE(d.environment.value(QStringLiteral("step_time_lines_without_iteration")).toInt(), 1);
    }

    void onlyStepTimeLinesAreRefusedWithTheReason() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("tail.log"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("Step Time : 5.88s GPU utilization: 378.4MODEL_TFLOP/s/GPU\n"
                "Step Time : 5.87s GPU utilization: 379.0MODEL_TFLOP/s/GPU\n");
        f.close();
        auto r = importFile(path, QStringLiteral("megatron-log"));
        QVERIFY(!r.hasValue());
        QVERIFY2(r.error().message.contains(QStringLiteral("Step Time")), qPrintable(r.error().text()));
    }
};

QTEST_GUILESS_MAIN(TestMegatronCoreLogImporter)
#include "test_megatron_core_log_importer.moc"
